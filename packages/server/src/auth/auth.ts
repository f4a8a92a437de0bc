import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { APIError, createAuthMiddleware } from 'better-auth/api';
import { bearer } from 'better-auth/plugins/bearer';
import type { FastifyBaseLogger } from 'fastify';
import type { ServerConfig } from '../config.ts';
import type { DocketDb } from '../db/database.ts';
import { authSchema } from '../db/schema.ts';
import type { MailSender } from './mail-sender.ts';
import type { SignInFailureRepository } from '../repositories/sign-in-failure-repository.ts';
import { CLIENT_ADDRESS_HEADER } from '../http/web-request.ts';
import { withHashedSessionTokens } from './hashed-session-tokens.ts';
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
  /** Takes work (sending mail) that the answer must not wait for; better-auth catches its errors. */
  runInBackground: (task: Promise<unknown>) => void;
  signInFailures: SignInFailureRepository;
}

export function createAuth({
  config,
  db,
  secret,
  mailSender,
  logger,
  runInBackground,
  signInFailures,
}: AuthOptions) {
  return betterAuth({
    appName: 'Docket',
    baseURL: config.publicUrl,
    basePath: '/api/auth',
    secret,
    trustedOrigins: [...config.publicOrigins, ...config.trustedOrigins],
    // Session tokens and reset tokens are kept only as hashes: a copy of the database must not
    // sign anyone in.
    database: withHashedSessionTokens(drizzleAdapter(db, { provider: 'pg', schema: authSchema })),
    verification: { storeIdentifier: 'hashed' },
    // Its filter compares listed sessions (which carry hashes) with the current token, so it
    // would end the current session too; the app does not use it.
    disabledPaths: ['/revoke-other-sessions'],
    emailAndPassword: {
      enabled: true,
      // The hook below says so in words first; this is better-auth's own backstop.
      minPasswordLength: MIN_PASSWORD_LENGTH,
      // Signing up never signs in (the app signs in next): then better-auth answers a sign-up
      // for a taken address exactly like a new one (a made-up user, no session, the password
      // hashed all the same), so sign-up cannot tell anyone which addresses have accounts.
      autoSignIn: false,
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
      // The link verifies and signs nobody in: the app opens an account's work on a device only
      // with its password (the vault that seals it there is made and opened with it, issue 38),
      // so /return-from-login asks for the password when the browser has no session.
      autoSignInAfterVerification: false,
      sendVerificationEmail: async ({ user, url }) => {
        await mailSender.sendVerification(user.email, withDefaultCallback(url, VERIFIED_CALLBACK));
      },
    },
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        await refuseWeakPasswords(ctx);
        refuseFragmentCallbacks(ctx);
        refuseBadProfile(ctx);
        await delaySignInAfterFailures(ctx, signInFailures);
      }),
      after: createAuthMiddleware((ctx) => countSignInOutcome(ctx, signInFailures)),
    },
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
      // E-mails are sent after the answer: a known address must not answer slower than an
      // unknown one (forgot-password, sign-up).
      backgroundTasks: { handler: runInBackground },
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

type HookContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

function bodyField(ctx: HookContext, field: string): unknown {
  const body: unknown = ctx.body;
  return typeof body === 'object' && body !== null
    ? (body as Record<string, unknown>)[field]
    : undefined;
}

/** Every route that sets a password holds it to the policy (password-policy.ts). */
function refuseWeakPasswords(ctx: HookContext): Promise<void> {
  const field = NEW_PASSWORD_FIELDS[ctx.path];
  if (field === undefined) return Promise.resolve();
  const password = bodyField(ctx, field);
  const email = bodyField(ctx, 'email');
  const name = bodyField(ctx, 'name');
  const owner = {
    email: typeof email === 'string' ? email : undefined,
    name: typeof name === 'string' ? name : undefined,
  };
  const problem = typeof password === 'string' ? passwordProblem(password, owner) : null;
  // A missing or mistyped field is left to better-auth's own validation.
  if (problem === null) return Promise.resolve();
  return Promise.reject(new APIError('BAD_REQUEST', { code: 'WEAK_PASSWORD', message: problem }));
}

/** The longest account name taken: a person's name, with room to spare. */
export const MAX_NAME_LENGTH = 200;

/**
 * What an account says of its person, where it is set (sign-up, update-user): a name of at most
 * MAX_NAME_LENGTH characters, and a picture only at an http(s) address (never `javascript:` or
 * `data:`, which a page showing it could be made to run or carry).
 */
function refuseBadProfile(ctx: HookContext): void {
  if (ctx.path !== '/sign-up/email' && ctx.path !== '/update-user') return;
  const name = bodyField(ctx, 'name');
  if (typeof name === 'string' && name.length > MAX_NAME_LENGTH) {
    throw new APIError('BAD_REQUEST', {
      code: 'NAME_TOO_LONG',
      message: `A name may have at most ${MAX_NAME_LENGTH} characters.`,
    });
  }
  const image = bodyField(ctx, 'image');
  if (image === undefined || image === null) return;
  if (typeof image !== 'string' || !isWebAddress(image)) {
    throw new APIError('BAD_REQUEST', {
      code: 'IMAGE_NOT_WEB_ADDRESS',
      message: 'A picture must be an http or https address.',
    });
  }
}

function isWebAddress(value: string): boolean {
  if (value.length > 2048) return false;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/**
 * A callback address never carries a fragment: the app's fragments hold public links' keys
 * (issue 38), and the callback goes into the log and the e-mail. The app sends the return path
 * without one; a request that still carries one, encoded or not, is refused before anything is
 * stored or sent, and the refusal does not repeat it.
 */
function refuseFragmentCallbacks(ctx: HookContext): void {
  const query: unknown = ctx.query;
  const fromQuery =
    typeof query === 'object' && query !== null
      ? (query as Record<string, unknown>).callbackURL
      : undefined;
  for (const value of [bodyField(ctx, 'callbackURL'), fromQuery]) {
    if (typeof value === 'string' && /#|%23/i.test(value)) {
      throw new APIError('BAD_REQUEST', {
        code: 'CALLBACK_WITH_FRAGMENT',
        message: 'The return address may not carry a fragment (the part after “#”).',
      });
    }
  }
}

/** The client's address, as the auth route handed it over (web-request.ts). */
function clientOf(ctx: HookContext): string {
  return ctx.headers?.get(CLIENT_ADDRESS_HEADER) ?? '';
}

/**
 * After a few wrong passwords for one address from one client, each further try from that
 * client waits longer; a person signing in from another client is never slowed by it (the
 * per-client request limit and this per-(address, client) count throttle the guesser, not the
 * account). The attempt is counted before its password is checked, atomically (the repository
 * says why); the right password waits too: a guesser must not learn it from a different answer.
 */
async function delaySignInAfterFailures(
  ctx: HookContext,
  failures: SignInFailureRepository,
): Promise<void> {
  if (ctx.path !== '/sign-in/email') return;
  const email = bodyField(ctx, 'email');
  if (typeof email !== 'string') return;
  const attempt = await failures.beginAttempt(email, clientOf(ctx));
  if (attempt.allowed) return;
  throw new APIError(
    'TOO_MANY_REQUESTS',
    {
      code: 'SIGN_IN_DELAYED',
      message: `Too many wrong passwords for this address from here. Try again in ${formatWait(attempt.secondsToWait)}, or reset the password.`,
    },
    { 'retry-after': String(attempt.secondsToWait) },
  );
}

/**
 * The attempt's outcome: a wrong password (401) stays counted; a right one clears this client's
 * count; anything else (refused before a password was checked) gives the count back. A refusal
 * by the delay itself was never counted.
 */
async function countSignInOutcome(
  ctx: HookContext,
  failures: SignInFailureRepository,
): Promise<void> {
  if (ctx.path !== '/sign-in/email') return;
  const email = bodyField(ctx, 'email');
  if (typeof email !== 'string') return;
  const returned: unknown = ctx.context.returned;
  if (returned instanceof APIError) {
    if (returned.statusCode === 401 || returned.statusCode === 429) return;
    await failures.giveBack(email, clientOf(ctx));
    return;
  }
  await failures.clear(email, clientOf(ctx));
}

function formatWait(seconds: number): string {
  return seconds < 90 ? `${seconds} seconds` : `${Math.ceil(seconds / 60)} minutes`;
}

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
