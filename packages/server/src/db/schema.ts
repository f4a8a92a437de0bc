import { boolean, index, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

// The four better-auth tables follow what better-auth 1.7's drizzle generator emits for
// email-and-password plus the bearer plugin (which adds no columns): property names are the
// field names better-auth addresses, column names are snake_case. better-auth checks this
// shape at startup, so a missing or renamed column fails loudly rather than at first sign-up.
// Timestamps carry a time zone so several server processes in different zones agree.

const timestampTz = (name: string) => timestamp(name, { withTimezone: true });

export const user = pgTable('user', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  email: text('email').notNull().unique(),
  emailVerified: boolean('email_verified').default(false).notNull(),
  image: text('image'),
  createdAt: timestampTz('created_at').defaultNow().notNull(),
  updatedAt: timestampTz('updated_at')
    .defaultNow()
    .$onUpdate(() => new Date())
    .notNull(),
});

export const session = pgTable(
  'session',
  {
    id: text('id').primaryKey(),
    expiresAt: timestampTz('expires_at').notNull(),
    token: text('token').notNull().unique(),
    createdAt: timestampTz('created_at').defaultNow().notNull(),
    updatedAt: timestampTz('updated_at')
      .$onUpdate(() => new Date())
      .notNull(),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
  },
  (table) => [index('session_userId_idx').on(table.userId)],
);

export const account = pgTable(
  'account',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    providerId: text('provider_id').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    accessToken: text('access_token'),
    refreshToken: text('refresh_token'),
    idToken: text('id_token'),
    accessTokenExpiresAt: timestampTz('access_token_expires_at'),
    refreshTokenExpiresAt: timestampTz('refresh_token_expires_at'),
    scope: text('scope'),
    password: text('password'),
    createdAt: timestampTz('created_at').defaultNow().notNull(),
    updatedAt: timestampTz('updated_at')
      .$onUpdate(() => new Date())
      .notNull(),
  },
  (table) => [index('account_userId_idx').on(table.userId)],
);

export const verification = pgTable(
  'verification',
  {
    id: text('id').primaryKey(),
    identifier: text('identifier').notNull(),
    value: text('value').notNull(),
    expiresAt: timestampTz('expires_at').notNull(),
    createdAt: timestampTz('created_at').defaultNow().notNull(),
    updatedAt: timestampTz('updated_at')
      .defaultNow()
      .$onUpdate(() => new Date())
      .notNull(),
  },
  (table) => [index('verification_identifier_idx').on(table.identifier)],
);

/**
 * Secrets the server generates for itself (the better-auth signing secret when
 * BETTER_AUTH_SECRET is not set). Kept in the database, not on a disk, so every process behind
 * a load balancer and every restart signs and verifies cookies with the same key.
 */
export const serverSecret = pgTable('server_secret', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: timestampTz('created_at').defaultNow().notNull(),
});

/** Which versions of the terms of service each user accepted, and when. */
export const termsAcceptance = pgTable(
  'terms_acceptance',
  {
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    version: text('version').notNull(),
    acceptedAt: timestampTz('accepted_at').defaultNow().notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.version] })],
);

/** The tables better-auth's drizzle adapter addresses, keyed by its model names. */
export const authSchema = { user, session, account, verification };

export const schema = { ...authSchema, serverSecret, termsAcceptance };
