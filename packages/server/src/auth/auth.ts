import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { APIError, createAuthMiddleware } from 'better-auth/api';
import { bearer } from 'better-auth/plugins/bearer';
import type { FastifyBaseLogger } from 'fastify';
import type { ServerConfig } from '../config.ts';
import type { DocketDb } from '../db/database.ts';
import { authSchema } from '../db/schema.ts';
import type { MailSender } from './mail-sender.ts';
import { MIN_PASSWORD_LENGTH, passwordProblem } from './password-policy.ts';

/** Where the app receives people who follow a link from an e-mail. */
export const RETURN_FROM_LOGIN_PATH = '/return-from-login';
const RESET_CALLBACK = `${RETURN_FROM_LOGIN_PATH}?mode=reset`;
const VERIFIED_CALLBACK = `${RETURN_FROM_LOGIN_PATH}?mode=verified`;

interface AuthOptions {
  config: ServerConfig;
  db: DocketDb;
  secret: string;
  mailSender: MailSender;
  logger: FastifyBaseLogger;
}

export function createAuth({ config, db, secret, mailSender, logger }: AuthOptions) {
  return betterAuth({
    appName: 'Docket',
    baseURL: config.publicUrl,
    basePath: '/api/auth',
    secret,
    trustedOrigins: [...config.publicOrigins, ...config.trustedOrigins],
    database: drizzleAdapter(db, { provider: 'pg', schema: authSchema }),
    emailAndPassword: {
      enabled: true,
      // The hook below says so in words first; this is better-auth's own backstop.
      minPasswordLength: MIN_PASSWORD_LENGTH,
      requireEmailVerification: config.requireEmailVerification,
      // A reset proves control of the mailbox; sessions opened with the old password (perhaps
      // by whoever learned it) should not survive it.
      revokeSessionsOnPasswordReset: true,
      sendResetPassword: async ({ user, url }) => {
        await mailSender.sendPasswordReset(user.email, withDefaultCallback(url, RESET_CALLBACK));
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      // Without this, someone blocked by REQUIRE_EMAIL_VERIFICATION whose first mail got lost
      // would have no way to get another one.
      sendOnSignIn: config.requireEmailVerification,
      // The link in the e-mail lands on /return-from-login already signed in.
      autoSignInAfterVerification: true,
      sendVerificationEmail: async ({ user, url }) => {
        await mailSender.sendVerification(user.email, withDefaultCallback(url, VERIFIED_CALLBACK));
      },
    },
    hooks: { before: refuseWeakPasswords },
    // Fastify's rate limiter guards /api/auth/* with answers in our error shape; a second
    // limiter with other rules would only make the limits harder to reason about.
    rateLimit: { enabled: false },
    plugins: [
      // The native shell keeps a token instead of a cookie. Only signed tokens (the value of the
      // set-auth-token response header) are accepted, like the cookie itself.
      bearer({ requireSignature: true }),
    ],
    telemetry: { enabled: false },
    advanced: {
      // better-auth turns callback-URL checks off under a test runner; keep them on so the
      // tests exercise what production does.
      disableOriginCheck: false,
    },
    logger: {
      log: (level, message, ...args) => {
        const details = args.length > 0 ? { details: args } : {};
        logger[level](details, `better-auth: ${message}`);
      },
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;

/** The body field that carries a new password, on each route that sets one. */
const NEW_PASSWORD_FIELDS: Readonly<Record<string, string>> = {
  '/sign-up/email': 'password',
  '/reset-password': 'newPassword',
  '/change-password': 'newPassword',
  '/set-password': 'newPassword',
};

/** Every route that sets a password holds it to the policy (password-policy.ts). */
const refuseWeakPasswords = createAuthMiddleware((ctx) => {
  const field = NEW_PASSWORD_FIELDS[ctx.path];
  if (field === undefined) return Promise.resolve();
  const body: unknown = ctx.body;
  const password =
    typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[field] : null;
  const problem = typeof password === 'string' ? passwordProblem(password) : null;
  // A missing or mistyped field is left to better-auth's own validation.
  if (problem === null) return Promise.resolve();
  return Promise.reject(new APIError('BAD_REQUEST', { code: 'WEAK_PASSWORD', message: problem }));
});

/**
 * better-auth puts the callback the app asked for into each e-mail link, or nothing / "/" when
 * the client did not ask. Those links should still land on the page that finishes the flow.
 */
function withDefaultCallback(url: string, callback: string): string {
  const link = new URL(url);
  const asked = link.searchParams.get('callbackURL') ?? '';
  if (asked === '' || asked === '/') link.searchParams.set('callbackURL', callback);
  return link.href;
}
