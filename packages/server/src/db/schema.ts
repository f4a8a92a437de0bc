import type { KeyDerivation } from '@docket/protocol/sync-settings';
import type { MemberStatus, WorkspaceRole } from '@docket/protocol/workspaces';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  customType,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
} from 'drizzle-orm/pg-core';

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
 * Where servers before migration 0006 kept the better-auth signing secret. It now lives in
 * BETTER_AUTH_SECRET or DOCKET_DATA_DIR/auth-secret (auth/auth-secret.ts), which moves a secret
 * found here into that file and deletes the row: a copy of the database must not hold it.
 */
export const serverSecret = pgTable('server_secret', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: timestampTz('created_at').defaultNow().notNull(),
});

/**
 * How many e-mails (reset and verification links) went to each address in its current hour,
 * so a flood of "forgot password" requests cannot flood someone's mailbox. In the database, so
 * every process counts against one budget.
 */
export const mailThrottle = pgTable('mail_throttle', {
  recipient: text('recipient').primaryKey(),
  windowStart: timestampTz('window_start').defaultNow().notNull(),
  sent: integer('sent').default(0).notNull(),
});

/**
 * Wrong passwords given for an account's address from one client address since that client's
 * last sign-in to it: guessing from one client slows down however many server processes the
 * guesses reach, and a person signing in from another client is never slowed by it (throttle
 * the guesser, not the account). Keyed by the address typed, account or not, so the delay tells
 * nothing about which addresses have accounts.
 */
export const signInFailures = pgTable(
  'sign_in_failures',
  {
    email: text('email').notNull(),
    clientAddress: text('client_address').default('').notNull(),
    failures: integer('failures').default(0).notNull(),
    lastFailureAt: timestampTz('last_failure_at').defaultNow().notNull(),
  },
  (table) => [primaryKey({ columns: [table.email, table.clientAddress] })],
);

/**
 * Requests each client address made to a rate-limited route in its current window
 * (`plugins/rate-limit.ts`), so every server process on this database counts against one limit.
 * A window starts at its key's first request; rows past `expires_at` are swept now and then.
 */
export const rateLimitHits = pgTable(
  'rate_limit_hits',
  {
    /** The route's name and the client address, as `plugins/rate-limit.ts` makes it. */
    key: text('key').primaryKey(),
    hits: integer('hits').default(0).notNull(),
    windowStart: timestampTz('window_start').defaultNow().notNull(),
    expiresAt: timestampTz('expires_at').notNull(),
  },
  (table) => [index('rate_limit_hits_expires_at_idx').on(table.expiresAt)],
);

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

// Sync. The server stores what clients send and hands it back; it interprets only sequence
// numbers, versions and key epochs. Nothing here is plaintext: ciphertext and blobs are
// encrypted on the device, and the settings hold a password verifier, salts and a wrapped key.

/**
 * bytea as a Buffer on both drivers (node-postgres gives a Buffer, PGlite a Uint8Array). The
 * sync repositories move bytes in and out as base64 text through decode()/encode() instead:
 * PGlite's own bytea codec is a hundred times slower, and clients send base64 anyway.
 */
const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) =>
    Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength),
});

/** Sequence numbers fit a JavaScript number long before a bigint overflows. */
const seqno = (name: string) => bigint(name, { mode: 'number' });

/** What the client needs to derive and unwrap the data key; opaque apart from version and epoch. */
export const userSyncSettings = pgTable('user_sync_settings', {
  userId: text('user_id')
    .primaryKey()
    .references(() => user.id, { onDelete: 'cascade' }),
  version: integer('version').default(0).notNull(),
  passwordHash: text('password_hash'),
  keyDerivation: jsonb('key_derivation').$type<KeyDerivation>(),
  wrappedDataKey: text('wrapped_data_key'),
  keyEpoch: integer('key_epoch').default(0).notNull(),
  epochStartSeqno: seqno('epoch_start_seqno').default(0).notNull(),
  updatedAt: timestampTz('updated_at').defaultNow().notNull(),
});

/**
 * One row per user holding the last sequence number handed out. A push locks it, numbers its
 * envelopes from it and moves it on in the same transaction, so pushes of one user are numbered
 * one after another, commit in that order, and never leave a gap a puller could step over.
 * Settings writes take the same lock, so a key epoch and the pushes made under it cannot cross.
 */
export const syncLogHead = pgTable('sync_log_head', {
  userId: text('user_id')
    .primaryKey()
    .references(() => user.id, { onDelete: 'cascade' }),
  lastSeqno: seqno('last_seqno').default(0).notNull(),
  /** Bytes of ciphertext in the user's log, kept beside the head so a push checks its quota
   * under the lock it takes anyway, without summing the log. */
  logBytes: bigint('log_bytes', { mode: 'number' }).default(0).notNull(),
});

/** The append-only change log of each user: encrypted envelopes in the order they arrived. */
export const syncChanges = pgTable(
  'sync_changes',
  {
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    seqno: seqno('seqno').notNull(),
    changeId: text('change_id').notNull(),
    deviceId: text('device_id').notNull(),
    clientBatchId: text('client_batch_id').notNull(),
    batchIndex: integer('batch_index').notNull(),
    epoch: integer('epoch').notNull(),
    ciphertext: bytea('ciphertext').notNull(),
    createdAt: timestampTz('created_at').defaultNow().notNull(),
  },
  (table) => [
    // Pulls read by (user, seqno): the primary key is that index.
    primaryKey({ columns: [table.userId, table.seqno] }),
    // A batch sent twice is found by its id and never stored twice.
    unique('sync_changes_batch_unique').on(table.userId, table.clientBatchId, table.batchIndex),
  ],
);

/** Encrypted blobs of each user, addressed by the SHA-256 of their bytes. */
export const syncBlobs = pgTable(
  'sync_blobs',
  {
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    sha256: text('sha256').notNull(),
    bytes: bytea('bytes').notNull(),
    size: integer('size').notNull(),
    createdAt: timestampTz('created_at').defaultNow().notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.sha256] })],
);

// Backups and public links. Like sync, nothing here is plaintext: a backup's name, description
// and contents are sealed on the device with the sync data key, a link's contents with a random
// key that only the link's fragment carries.

/** Each user's encrypted backups, by the id the client made. */
export const backups = pgTable(
  'backups',
  {
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    id: text('id').notNull(),
    epoch: integer('epoch').notNull(),
    metadata: bytea('metadata').notNull(),
    ciphertext: bytea('ciphertext').notNull(),
    size: integer('size').notNull(),
    createdAt: timestampTz('created_at').defaultNow().notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.id] })],
);

/**
 * Public links of backups. The id is global (anyone with it may ask for the ciphertext); a
 * revoked link keeps its row without its ciphertext, so a viewer is told it was revoked.
 */
export const publicLinks = pgTable(
  'public_links',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull(),
    backupId: text('backup_id').notNull(),
    ciphertext: bytea('ciphertext'),
    size: integer('size').notNull(),
    createdAt: timestampTz('created_at').defaultNow().notNull(),
    expiresAt: timestampTz('expires_at'),
    revokedAt: timestampTz('revoked_at'),
    viewCount: integer('view_count').default(0).notNull(),
  },
  (table) => [
    index('public_links_backup_idx').on(table.userId, table.backupId),
    foreignKey({
      columns: [table.userId, table.backupId],
      foreignColumns: [backups.userId, backups.id],
      name: 'public_links_backup_fk',
    }).onDelete('cascade'),
  ],
);

// Team workspaces (issue 39). The server keeps membership, public keys and sealed bytes: a
// workspace's name and each member's copy of its key are sealed on a device, and its change log
// holds ciphertext like a user's own. Roles are enforced here, on rows the server can read.

/**
 * Each account's member key pair, published once: the public key owners seal workspace keys to,
 * and the private key sealed on the device under the account's cloud data key, for its other
 * devices.
 */
export const userPublicKeys = pgTable('user_public_keys', {
  userId: text('user_id')
    .primaryKey()
    .references(() => user.id, { onDelete: 'cascade' }),
  publicKey: bytea('public_key').notNull(),
  wrappedPrivateKey: bytea('wrapped_private_key').notNull(),
  /** The cloud key epoch the private key is sealed under: a reset (a higher one) may replace it. */
  keyEpoch: integer('key_epoch').default(0).notNull(),
  createdAt: timestampTz('created_at').defaultNow().notNull(),
});

/**
 * A workspace, with the head of its change log (as `sync_log_head` is a user's): every writer of
 * its membership, keys or log locks this row first, so a push and a rotation or removal never
 * cross, and pushes are numbered and committed in order.
 */
export const workspaces = pgTable('workspaces', {
  id: text('id').primaryKey(),
  sealedName: bytea('sealed_name').notNull(),
  keyVersion: integer('key_version').default(1).notNull(),
  /** A member holding the key left; an owner should rotate. */
  rotationDue: boolean('rotation_due').default(false).notNull(),
  lastSeqno: seqno('last_seqno').default(0).notNull(),
  logBytes: bigint('log_bytes', { mode: 'number' }).default(0).notNull(),
  createdAt: timestampTz('created_at').defaultNow().notNull(),
});

/**
 * Who belongs to a workspace. An invitation is a row with the invited address and no user yet;
 * accepting sets the user; confirming stores the key sealed to them (`workspace_member_keys`).
 * Removing or leaving deletes the row and the member's sealed keys.
 */
export const workspaceMembers = pgTable(
  'workspace_members',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    /** The invited address, lower-cased; the owner's own address for the creator. */
    email: text('email').notNull(),
    userId: text('user_id').references(() => user.id, { onDelete: 'cascade' }),
    role: text('role').$type<WorkspaceRole>().notNull(),
    status: text('status').$type<MemberStatus>().notNull(),
    invitedBy: text('invited_by').references(() => user.id, { onDelete: 'set null' }),
    invitedAt: timestampTz('invited_at').defaultNow().notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.workspaceId, table.email] }),
    unique('workspace_members_user_unique').on(table.workspaceId, table.userId),
    index('workspace_members_user_idx').on(table.userId),
    index('workspace_members_email_idx').on(table.email),
    check('workspace_members_role_check', sql`${table.role} in ('owner', 'editor', 'viewer')`),
    check(
      'workspace_members_status_check',
      sql`${table.status} in ('invited', 'accepted', 'confirmed')`,
    ),
  ],
);

/**
 * Each member's sealed copy of each key version they were given: their key ring, which opens
 * the changes made under every version since they were confirmed.
 */
export const workspaceMemberKeys = pgTable(
  'workspace_member_keys',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    keyVersion: integer('key_version').notNull(),
    sealedKey: bytea('sealed_key').notNull(),
    createdAt: timestampTz('created_at').defaultNow().notNull(),
  },
  (table) => [primaryKey({ columns: [table.workspaceId, table.userId, table.keyVersion] })],
);

/**
 * Each owner's own record of the public key they confirmed for a member, sealed under the
 * owner's cloud data key (protocol's keyConfirmationSchema): opaque here, handed back to that
 * owner only, so their device can check the key listed at a rotation against it.
 */
export const workspaceKeyConfirmations = pgTable(
  'workspace_key_confirmations',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    memberUserId: text('member_user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    confirmedBy: text('confirmed_by')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    sealed: bytea('sealed').notNull(),
    createdAt: timestampTz('created_at').defaultNow().notNull(),
  },
  (table) => [primaryKey({ columns: [table.workspaceId, table.memberUserId, table.confirmedBy] })],
);

/** Each workspace's append-only change log, the sibling of `sync_changes`; `epoch` is the key version. */
export const workspaceChanges = pgTable(
  'workspace_changes',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    seqno: seqno('seqno').notNull(),
    changeId: text('change_id').notNull(),
    deviceId: text('device_id').notNull(),
    clientBatchId: text('client_batch_id').notNull(),
    batchIndex: integer('batch_index').notNull(),
    epoch: integer('epoch').notNull(),
    ciphertext: bytea('ciphertext').notNull(),
    /** Who pushed it; kept (without a foreign key) after they leave, like the change itself. */
    pushedBy: text('pushed_by').notNull(),
    createdAt: timestampTz('created_at').defaultNow().notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.workspaceId, table.seqno] }),
    unique('workspace_changes_batch_unique').on(
      table.workspaceId,
      table.clientBatchId,
      table.batchIndex,
    ),
  ],
);

/** The tables better-auth's drizzle adapter addresses, keyed by its model names. */
export const authSchema = { user, session, account, verification };

export const schema = {
  ...authSchema,
  serverSecret,
  mailThrottle,
  signInFailures,
  rateLimitHits,
  termsAcceptance,
  userSyncSettings,
  syncLogHead,
  syncChanges,
  syncBlobs,
  backups,
  publicLinks,
  userPublicKeys,
  workspaces,
  workspaceMembers,
  workspaceMemberKeys,
  workspaceKeyConfirmations,
  workspaceChanges,
};
