import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setup, signUp, uniqueEmail, type TestApp } from './test-server.ts';

// Nobody can learn which addresses have accounts from forgot-password: the answer is the same,
// and it does not wait for the mail (the slow part, and only a known address gets one). An
// address gets a few mails an hour at most, however often someone asks.

const PER_HOUR = 2;
const server = setup({ app: false });

function requestReset(testApp: TestApp, email: string) {
  return testApp.app.inject({
    method: 'POST',
    url: '/api/auth/request-password-reset',
    payload: { email, redirectTo: '/return-from-login?mode=reset' },
  });
}

describe('forgot password over a slow mail server', () => {
  const delivered: string[] = [];
  /** The mail server holds each message until the test lets it go. */
  const held: Array<() => void> = [];
  let closing = false;
  let smtp: SMTPServer;
  let testApp: TestApp;

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const deliver = () => {
            delivered.push(...session.envelope.rcptTo.map((recipient) => recipient.address));
            callback();
          };
          // Only reset mails are held (sign-up's verification mail goes straight through).
          const isReset = Buffer.concat(chunks).toString('utf8').includes('Reset your Docket');
          if (isReset && !closing) held.push(deliver);
          else deliver();
        });
      },
    });
    smtp.listen(0, '127.0.0.1');
    await once(smtp.server, 'listening');
    const { port } = smtp.server.address() as AddressInfo;
    testApp = await server.build({
      SMTP_URL: `smtp://127.0.0.1:${port}`,
      MAIL_FROM: 'Docket <docket@example.test>',
    });
  });

  afterAll(async () => {
    closing = true;
    for (const release of held.splice(0)) release();
    await testApp.app.close();
    await new Promise<void>((resolve) => {
      smtp.close(() => {
        resolve();
      });
    });
  });

  it('answers a known address before its mail is delivered, exactly as an unknown one', async () => {
    const known = uniqueEmail('known');
    await signUp(testApp.app, known);
    const forKnown = await requestReset(testApp, known);
    const forUnknown = await requestReset(testApp, uniqueEmail('unknown'));
    expect(forKnown.statusCode).toBe(200);
    expect(forKnown.body).toBe(forUnknown.body);
    // The answer came while the mail server still holds the message.
    const before = delivered.filter((address) => address === known).length;

    for (let waited = 0; held.length === 0; waited += 25) {
      if (waited > 10_000) throw new Error('The reset mail never reached the mail server');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    for (const release of held.splice(0)) release();
    const count = () => delivered.filter((address) => address === known).length;
    for (let waited = 0; count() === before; waited += 25) {
      if (waited > 10_000) throw new Error('The reset mail was never delivered');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  });
});

describe('per-recipient mail throttle', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await server.build({ MAIL_PER_RECIPIENT_PER_HOUR: String(PER_HOUR) });
  });
  afterAll(async () => {
    await testApp.app.close();
  });

  it(`sends one address at most ${PER_HOUR} mails an hour; the answers stay the same`, async () => {
    const email = uniqueEmail('flooded');
    const other = uniqueEmail('neighbour');
    await signUp(testApp.app, email);
    await signUp(testApp.app, other);
    const answers = [];
    for (let attempt = 0; attempt < PER_HOUR + 3; attempt += 1) {
      answers.push(await requestReset(testApp, email));
    }
    expect(new Set(answers.map((answer) => `${answer.statusCode} ${answer.body}`)).size).toBe(1);
    expect((await requestReset(testApp, other)).statusCode).toBe(200);

    // Sign-up sent a verification mail: it counts too, leaving PER_HOUR - 1 for resets.
    const heldBack = `Password reset e-mail to ${email} held back: too many this hour`;
    const linkFor = (address: string) => `Password reset link for ${address}: `;
    for (let waited = 0; ; waited += 25) {
      const held = testApp.logs.filter((line) => line.msg === heldBack).length;
      const otherSent = testApp.logs.some((line) => line.msg.startsWith(linkFor(other)));
      if (held === 4 && otherSent) break;
      if (waited > 10_000) throw new Error(`${held} held back, neighbour sent: ${otherSent}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const sent = testApp.logs.filter((line) => line.msg.startsWith(linkFor(email)));
    expect(sent).toHaveLength(PER_HOUR - 1);
  });
});
