import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PASSWORD,
  pathOf,
  PUBLIC_URL,
  setup,
  signIn,
  signUp,
  uniqueEmail,
  waitForLoggedLink,
  type TestApp,
} from './test-server.ts';

const server = setup({ app: false });

const NEW_PASSWORD = 'a brand new passphrase';

function requestReset(
  testApp: TestApp,
  email: string,
  redirectTo = '/return-from-login?mode=reset',
) {
  return testApp.app.inject({
    method: 'POST',
    url: '/api/auth/request-password-reset',
    payload: { email, redirectTo },
  });
}

/** Follows a reset link like a browser would and finishes the reset the way the app does. */
async function completeReset(testApp: TestApp, link: string): Promise<void> {
  expect(link.startsWith(`${PUBLIC_URL}/api/auth/reset-password/`)).toBe(true);
  const followed = await testApp.app.inject({ method: 'GET', url: pathOf(link) });
  expect(followed.statusCode).toBe(302);
  const landing = new URL(String(followed.headers.location), PUBLIC_URL);
  expect(landing.origin).toBe(PUBLIC_URL);
  expect(landing.pathname).toBe('/return-from-login');
  expect(landing.searchParams.get('mode')).toBe('reset');
  const token = landing.searchParams.get('token');
  expect(token).toBeTruthy();

  const reset = await testApp.app.inject({
    method: 'POST',
    url: '/api/auth/reset-password',
    payload: { newPassword: NEW_PASSWORD, token },
  });
  expect(reset.statusCode).toBe(200);
}

describe('forgot password without SMTP', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await server.build();
  });
  afterAll(async () => {
    await testApp.app.close();
  });

  it('logs the reset link; the link resets the password and ends old sessions', async () => {
    const email = uniqueEmail('forgetful');
    const { cookie: oldSession } = await signUp(testApp.app, email);
    expect((await requestReset(testApp, email)).statusCode).toBe(200);

    const link = await waitForLoggedLink(testApp.logs, 'Password reset link', email);
    await completeReset(testApp, link);

    expect((await signIn(testApp.app, email, PASSWORD)).statusCode).toBe(401);
    expect((await signIn(testApp.app, email, NEW_PASSWORD)).statusCode).toBe(200);
    const stale = await testApp.app.inject({
      method: 'GET',
      url: '/api/terms/acceptance',
      headers: { cookie: oldSession },
    });
    expect(stale.statusCode).toBe(401);

    // A link works once.
    const reuse = await testApp.app.inject({ method: 'GET', url: pathOf(link) });
    expect(String(reuse.headers.location)).toContain('error=INVALID_TOKEN');
  });

  it('leads into the app even when the client sent no redirect', async () => {
    const email = uniqueEmail('noredirect');
    await signUp(testApp.app, email);
    await testApp.app.inject({
      method: 'POST',
      url: '/api/auth/request-password-reset',
      payload: { email },
    });
    const link = await waitForLoggedLink(testApp.logs, 'Password reset link', email);
    await completeReset(testApp, link);
  });

  it('answers the same for an unknown address and sends nothing', async () => {
    const email = uniqueEmail('stranger');
    expect((await requestReset(testApp, email)).statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(testApp.logs.some((line) => line.msg.includes(email))).toBe(false);
  });

  it('refuses to send a reset link that leads to another site', async () => {
    const email = uniqueEmail();
    await signUp(testApp.app, email);
    const response = await requestReset(testApp, email, 'https://evil.example/steal');
    expect(response.statusCode).toBe(403);
  });
});

interface ReceivedMail {
  to: string[];
  raw: string;
}

describe('forgot password over SMTP', () => {
  const inbox: ReceivedMail[] = [];
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
          inbox.push({
            to: session.envelope.rcptTo.map((recipient) => recipient.address),
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
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
    await testApp.app.close();
    await new Promise<void>((resolve) => {
      smtp.close(() => {
        resolve();
      });
    });
  });

  it('delivers the reset link by mail, and the link works', async () => {
    const email = uniqueEmail('mailbox');
    await signUp(testApp.app, email);
    expect((await requestReset(testApp, email)).statusCode).toBe(200);

    // The sign-up sent a verification mail first; pick the reset one.
    let mail: ReceivedMail | undefined;
    for (let waited = 0; waited < 5000 && mail === undefined; waited += 25) {
      mail = inbox.find(
        (received) => received.to.includes(email) && received.raw.includes('Subject: Reset your'),
      );
      if (mail === undefined) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(mail).toBeDefined();
    const text = decodeQuotedPrintable(mail?.raw ?? '');
    expect(text).toContain('Subject: Reset your Docket password');
    expect(text).toContain('From: Docket <docket@example.test>');
    const [link = ''] = /http:\/\/localhost:8080\/api\/auth\/reset-password\/\S+/.exec(text) ?? [];
    expect(testApp.logs.some((line) => line.msg.includes('Password reset link for'))).toBe(false);

    await completeReset(testApp, link);
    expect((await signIn(testApp.app, email, NEW_PASSWORD)).statusCode).toBe(200);
  });
});

/** Nodemailer wraps long lines of text bodies in quoted-printable; undo it to read the link. */
function decodeQuotedPrintable(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}
