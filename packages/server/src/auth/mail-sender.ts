import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';

/** The e-mails Docket sends; each carries one link into the app. */
export interface MailSender {
  sendPasswordReset(to: string, url: string): Promise<void>;
  sendVerification(to: string, url: string): Promise<void>;
  close(): void;
}

interface MailSenderOptions {
  smtpUrl: string | null;
  mailFrom: string;
  logger: FastifyBaseLogger;
}

/**
 * Sends over SMTP when SMTP_URL is set. Without it the link goes to the server log instead, so a
 * person running Docket on their own machine can still reset a password or verify an address.
 */
export function createMailSender({ smtpUrl, mailFrom, logger }: MailSenderOptions): MailSender {
  if (smtpUrl === null) {
    return {
      sendPasswordReset: (to, url) => {
        logger.info(`Password reset link for ${to}: ${url}`);
        return Promise.resolve();
      },
      sendVerification: (to, url) => {
        logger.info(`E-mail verification link for ${to}: ${url}`);
        return Promise.resolve();
      },
      close: () => undefined,
    };
  }

  const transport = nodemailer.createTransport(smtpUrl);
  const send = async (to: string, subject: string, text: string): Promise<void> => {
    await transport.sendMail({ from: mailFrom, to, subject, text });
    logger.info({ to, subject }, 'E-mail sent');
  };
  return {
    sendPasswordReset: (to, url) =>
      send(
        to,
        'Reset your Docket password',
        [
          'Someone asked to reset the password of your Docket account.',
          '',
          `Open this link to choose a new password: ${url}`,
          '',
          'The link works once and expires in one hour. If you did not ask for it, ignore this e-mail.',
        ].join('\n'),
      ),
    sendVerification: (to, url) =>
      send(
        to,
        'Confirm your e-mail address for Docket',
        [
          'Welcome to Docket.',
          '',
          `Open this link to confirm your e-mail address: ${url}`,
          '',
          'If you did not create a Docket account, ignore this e-mail.',
        ].join('\n'),
      ),
    close: () => {
      transport.close();
    },
  };
}

/**
 * Sends at most `allow` lets through to each address (a per-recipient budget kept in the
 * database); the rest are dropped with a warning, so "forgot password" pressed a hundred times
 * (by anyone who knows the address) does not bury a mailbox.
 */
export function withRecipientThrottle(
  sender: MailSender,
  allow: (recipient: string) => Promise<boolean>,
  logger: FastifyBaseLogger,
): MailSender {
  const throttled =
    (send: (to: string, url: string) => Promise<void>, kind: string) =>
    async (to: string, url: string): Promise<void> => {
      if (await allow(to)) return send(to, url);
      logger.warn(`${kind} e-mail to ${to} held back: too many this hour`);
    };
  return {
    sendPasswordReset: throttled((to, url) => sender.sendPasswordReset(to, url), 'Password reset'),
    sendVerification: throttled((to, url) => sender.sendVerification(to, url), 'Verification'),
    close: () => {
      sender.close();
    },
  };
}
