import { z } from 'zod';
import { syncChangeSchema } from './sync-changes.ts';
import {
  base64ByteLength,
  base64Schema,
  epochSchema,
  opaqueIdSchema,
  seqnoSchema,
} from './sync-wire.ts';

// Team workspaces (issue 39). Besides the personal space, an account may own or belong to
// workspaces. The server stores only sealed bytes (the name, each member's copy of the
// workspace key), public keys and membership; it enforces roles it cannot read.
//
// PUT    /api/keys                                     publish my member key pair (once; replaced after a reset)
// GET    /api/keys                                     my published key pair, or nulls
// POST   /api/workspaces                               create (I am its owner, key version 1)
// GET    /api/workspaces                               the workspaces I belong to
// DELETE /api/workspaces/:workspaceId                  an owner deletes it, log and all
// POST   /api/workspaces/:workspaceId/invitations      an owner invites an address with a role
// POST   /api/workspaces/:workspaceId/invitations/withdraw   an owner withdraws one not accepted
// GET    /api/invitations                              invitations to my verified address
// POST   /api/invitations/:workspaceId/accept          accept one (needs a published key)
// POST   /api/invitations/:workspaceId/decline         decline one
// GET    /api/workspaces/:workspaceId/members          an owner's list, with public keys (see ownerWaiting)
// POST   /api/workspaces/:workspaceId/members/:userId/confirm   an owner seals the key to them
// PUT    /api/workspaces/:workspaceId/members/:userId/confirmation   an owner confirms again
// PUT    /api/workspaces/:workspaceId/members/:userId/role      an owner changes a role
// POST   /api/workspaces/:workspaceId/members/:userId/remove    an owner removes; my id: leave
// GET    /api/workspaces/:workspaceId/keys             my key ring: every version sealed to me
// POST   /api/workspaces/:workspaceId/keys             an owner rotates the key (version n+1)
// POST   /api/workspaces/:workspaceId/sync/push        sync-changes' push; `epoch` = key version
// GET    /api/workspaces/:workspaceId/sync/pull        sync-changes' pull, each change's author
//
// Every workspace route answers 403 `not-a-member` to an account that is not a member of that
// workspace (never invited, removed, left, or a workspace that does not exist: the answers are
// the same, so ids reveal nothing).

/** Most members (invited ones included) a workspace holds (`too-many-members` beyond). */
export const MAX_WORKSPACE_MEMBERS = 100;
/**
 * Most workspaces one account belongs to, made or accepted (`too-many-workspaces` beyond): each
 * workspace has an account's room on the server, so the count bounds what one account can take.
 */
export const MAX_WORKSPACES_PER_ACCOUNT = 50;
/** Largest public key, decoded (an SPKI of RSA-4096 is about 550 bytes; X25519 is 32). */
export const MAX_PUBLIC_KEY_BYTES = 2048;
/** Largest sealed workspace key (one version sealed to one member), decoded. */
export const MAX_SEALED_KEY_BYTES = 4096;
/** Largest member private key sealed under the account's cloud data key, decoded. */
export const MAX_WRAPPED_PRIVATE_KEY_BYTES = 4096;
/** Largest sealed workspace name, decoded. */
export const MAX_SEALED_NAME_BYTES = 4096;
/** Largest owner's record of a confirmed key (a public key sealed), decoded. */
export const MAX_KEY_CONFIRMATION_BYTES = 4096;
/** Most older key versions a confirmation seals to a new member (the newest ones). */
export const MAX_OLDER_KEYS = 200;

function sealedBytes(min: number, max: number) {
  return base64Schema.refine(
    (value) => {
      const bytes = base64ByteLength(value);
      return bytes >= min && bytes <= max;
    },
    { message: `must decode to ${min} to ${max} bytes` },
  );
}

/** A workspace's id: a v4 UUID the client makes (it binds the sealed name to it). */
export const workspaceIdSchema = z.uuid();
/** An account's id, as the server hands it out. */
export const accountIdSchema = opaqueIdSchema;

/** Viewers only read; editors also push changes; owners also manage members and keys. */
export const workspaceRoleSchema = z.enum(['owner', 'editor', 'viewer']);
export type WorkspaceRole = z.infer<typeof workspaceRoleSchema>;

/**
 * invited: an address was invited, nobody accepted yet; accepted: the invitee accepted, the
 * owner has not sealed the key to them yet; confirmed: they hold the current key.
 */
export const memberStatusSchema = z.enum(['invited', 'accepted', 'confirmed']);
export type MemberStatus = z.infer<typeof memberStatusSchema>;

/** Which workspace key a sealed copy or a change is under: 1 at creation, +1 per rotation. */
export const keyVersionSchema = z.number().int().min(1).max(2_147_483_647);

export const publicKeySchema = sealedBytes(32, MAX_PUBLIC_KEY_BYTES);
export const sealedKeySchema = sealedBytes(1, MAX_SEALED_KEY_BYTES);
export const sealedNameSchema = sealedBytes(1, MAX_SEALED_NAME_BYTES);
export const wrappedPrivateKeySchema = sealedBytes(1, MAX_WRAPPED_PRIVATE_KEY_BYTES);
/**
 * An owner's record of the public key they confirmed for a member, sealed on their device under
 * their own cloud data key (core's key-confirmation.ts): the server keeps it for that owner and
 * cannot read or make one, so a key it swaps later is caught before a rotation seals to it.
 */
export const keyConfirmationSchema = sealedBytes(1, MAX_KEY_CONFIRMATION_BYTES);

// Member keys.

/**
 * PUT /api/keys: the account's member key pair, the private key sealed on the device under the
 * account's cloud data key (so its other devices can open it), and the key epoch of that data
 * key. Write-once: the same public key again stores nothing new; another one is
 * `public-key-exists`, since owners sealed to the first.
 *
 * One way past that: after a cloud-password reset the stored private key is sealed under a data
 * key nobody has any more. A device holding the account's current key epoch sends a new pair with
 * `replaces` naming the public key it found: the server swaps them (compare-and-set: another
 * device that replaced first gets `public-key-exists`) only when the stored pair is from an older
 * epoch (else `member-key-current`) and `keyEpoch` is the account's current one (else
 * `key-epoch-stale`). Every workspace key sealed to the old public key is dropped with it and its
 * memberships go back to accepted: owners compare the new fingerprint and confirm again.
 */
export const putMemberKeysRequestSchema = z.strictObject({
  publicKey: publicKeySchema,
  wrappedPrivateKey: wrappedPrivateKeySchema,
  keyEpoch: epochSchema,
  replaces: publicKeySchema.optional(),
});
export type PutMemberKeysRequest = z.infer<typeof putMemberKeysRequestSchema>;

/** GET /api/keys and the answer to PUT; all null before the account published a pair. */
export const memberKeysResponseSchema = z.object({
  publicKey: publicKeySchema.nullable(),
  wrappedPrivateKey: wrappedPrivateKeySchema.nullable(),
  /** The key epoch the private key is sealed under (0 for pairs published before protocol 16). */
  keyEpoch: epochSchema.nullable(),
});
export type MemberKeysResponse = z.infer<typeof memberKeysResponseSchema>;

// Workspaces.

export const workspaceParamsSchema = z.strictObject({ workspaceId: workspaceIdSchema });
export const memberParamsSchema = z.strictObject({
  workspaceId: workspaceIdSchema,
  userId: accountIdSchema,
});

/** POST /api/workspaces: the name and the owner's copy of key version 1, sealed on the device. */
export const createWorkspaceRequestSchema = z.strictObject({
  id: workspaceIdSchema,
  sealedName: sealedNameSchema,
  sealedKey: sealedKeySchema,
});
export type CreateWorkspaceRequest = z.infer<typeof createWorkspaceRequestSchema>;

/** One of my workspaces, as GET /api/workspaces lists it. */
export const workspaceSummarySchema = z.object({
  id: workspaceIdSchema,
  sealedName: sealedNameSchema,
  role: workspaceRoleSchema,
  status: z.enum(['accepted', 'confirmed']),
  /** The workspace's current key version. */
  keyVersion: keyVersionSchema,
  /** My copy of the current key; null until an owner confirms me (or re-seals after a rotation). */
  sealedKey: sealedKeySchema.nullable(),
  /** A member holding the key left: an owner should rotate it (POST …/keys). */
  rotationDue: z.boolean(),
  /**
   * No owner holds the workspace's key: each owner's member key was replaced after a
   * cloud-password reset (PUT /api/keys with `replaces`). Until an owner is confirmed again, a
   * confirmed editor may read the members and confirm an owner (and only an owner).
   */
  ownerWaiting: z.boolean(),
  createdAt: z.iso.datetime({ offset: true }),
});
export type WorkspaceSummary = z.infer<typeof workspaceSummarySchema>;

export const workspaceListResponseSchema = z.object({
  workspaces: z.array(workspaceSummarySchema),
});
export type WorkspaceListResponse = z.infer<typeof workspaceListResponseSchema>;

// Invitations.

/** POST /api/workspaces/:workspaceId/invitations. */
export const inviteRequestSchema = z.strictObject({
  email: z.email().max(254),
  role: workspaceRoleSchema,
});
export type InviteRequest = z.infer<typeof inviteRequestSchema>;

/** POST /api/workspaces/:workspaceId/invitations/withdraw: an invitation nobody accepted yet. */
export const withdrawInvitationRequestSchema = z.strictObject({ email: z.email().max(254) });
export type WithdrawInvitationRequest = z.infer<typeof withdrawInvitationRequestSchema>;

/** An invitation to my address, as GET /api/invitations lists it. */
export const invitationSchema = z.object({
  workspaceId: workspaceIdSchema,
  role: workspaceRoleSchema,
  /** Who invited me, so I can tell whether to accept (the workspace's name is sealed). */
  invitedBy: z.object({ name: z.string(), email: z.string() }).nullable(),
  invitedAt: z.iso.datetime({ offset: true }),
});
export type Invitation = z.infer<typeof invitationSchema>;

export const invitationListResponseSchema = z.object({ invitations: z.array(invitationSchema) });
export type InvitationListResponse = z.infer<typeof invitationListResponseSchema>;

// Members.

/** One member as an owner sees them: enough to seal the key and show its fingerprint. */
export const memberSchema = z.object({
  /** null while only invited: nobody has accepted for the address yet. */
  userId: accountIdSchema.nullable(),
  email: z.string(),
  displayName: z.string().nullable(),
  role: workspaceRoleSchema,
  status: memberStatusSchema,
  publicKey: publicKeySchema.nullable(),
  /** The newest key version sealed to this member; null before confirmation. */
  keyVersion: keyVersionSchema.nullable(),
  /**
   * The reader's own record of the key they confirmed for this member; null when the reader
   * never confirmed them (another owner did, or nobody yet).
   */
  myConfirmation: keyConfirmationSchema.nullable(),
});
export type Member = z.infer<typeof memberSchema>;

export const memberListResponseSchema = z.object({
  keyVersion: keyVersionSchema,
  members: z.array(memberSchema),
});
export type MemberListResponse = z.infer<typeof memberListResponseSchema>;

/**
 * GET …/names: each member's name as their account has it, for every confirmed member (an owner
 * alone sees the members' addresses, keys and roles): so a row can say who wrote it.
 */
export const memberNamesResponseSchema = z.object({
  members: z.array(z.object({ userId: accountIdSchema, name: z.string() })),
});
export type MemberNamesResponse = z.infer<typeof memberNamesResponseSchema>;

/**
 * POST …/members/:userId/confirm: the current key sealed to the member's public key. `publicKey`
 * is the key the owner sealed to (and showed the fingerprint of): the server refuses the confirm
 * if it is not the member's published key.
 */
export const confirmMemberRequestSchema = z.strictObject({
  keyVersion: keyVersionSchema,
  publicKey: publicKeySchema,
  sealedKey: sealedKeySchema,
  /** The owner's record of `publicKey` as confirmed. */
  confirmation: keyConfirmationSchema,
  /**
   * The key versions before `keyVersion` that the owner holds, each sealed to the same public
   * key, so a member who joins after a rotation reads the changes made before it (at most
   * `MAX_OLDER_KEYS`, the newest; each version once, each older than `keyVersion`).
   */
  olderKeys: z
    .array(z.strictObject({ keyVersion: keyVersionSchema, sealedKey: sealedKeySchema }))
    .max(MAX_OLDER_KEYS)
    .optional(),
});
export type ConfirmMemberRequest = z.infer<typeof confirmMemberRequestSchema>;

/**
 * PUT …/members/:userId/confirmation: an owner who compared fingerprints with a member confirmed
 * already (by another owner, or before these records) keeps their own record of the key. The
 * server refuses it if `publicKey` is not the member's published key.
 */
export const recordConfirmationRequestSchema = z.strictObject({
  publicKey: publicKeySchema,
  confirmation: keyConfirmationSchema,
});
export type RecordConfirmationRequest = z.infer<typeof recordConfirmationRequestSchema>;

/** PUT …/members/:userId/role. */
export const changeRoleRequestSchema = z.strictObject({ role: workspaceRoleSchema });
export type ChangeRoleRequest = z.infer<typeof changeRoleRequestSchema>;

/**
 * A new key version sealed to every confirmed member who stays, in one step: the server stores
 * all of them and moves the workspace to `keyVersion`, or nothing.
 */
export const keyRotationSchema = z.strictObject({
  /** The current version + 1. */
  keyVersion: keyVersionSchema,
  /**
   * The workspace's name sealed again under the new key: a member confirmed later is given only
   * the newest key, and must still read the name.
   */
  sealedName: sealedNameSchema,
  sealedKeys: z
    .array(z.strictObject({ userId: accountIdSchema, sealedKey: sealedKeySchema }))
    .min(1)
    .max(MAX_WORKSPACE_MEMBERS),
});
export type KeyRotation = z.infer<typeof keyRotationSchema>;

/** POST …/keys. */
export const rotateKeyRequestSchema = keyRotationSchema;
export type RotateKeyRequest = z.infer<typeof rotateKeyRequestSchema>;

/**
 * GET …/keys: my sealed copy of every key version I was given (oldest first), to open the
 * changes made under each; a confirmed member's only.
 */
export const keyringResponseSchema = z.object({
  keyVersion: keyVersionSchema,
  keys: z.array(z.object({ keyVersion: keyVersionSchema, sealedKey: sealedKeySchema })),
});
export type KeyringResponse = z.infer<typeof keyringResponseSchema>;

/** The answer to a rotation (and to a removal that carried one). */
export const keyVersionResponseSchema = z.object({ keyVersion: keyVersionSchema });
export type KeyVersionResponse = z.infer<typeof keyVersionResponseSchema>;

/**
 * POST …/members/:userId/remove. An owner removing a confirmed member sends the rotation with
 * it (`rotation-required` otherwise), so the removed member's key opens nothing pushed after.
 * Leaving (my own id) needs none: the workspace is marked `rotationDue` for an owner.
 */
export const removeMemberRequestSchema = z.strictObject({ rotation: keyRotationSchema.optional() });
export type RemoveMemberRequest = z.infer<typeof removeMemberRequestSchema>;

export const workspacePaths = {
  keys: '/api/keys',
  workspaces: '/api/workspaces',
  invitations: '/api/invitations',
} as const;

// The workspace's change log: the personal log's push and pull (sync-changes.ts), with `epoch`
// meaning the key version. A pulled change names who pushed it: a change is sealed bound to its
// author, and the member opening it checks that binding.

export const workspaceChangeSchema = syncChangeSchema.extend({ authorUserId: accountIdSchema });
export type WorkspaceChange = z.infer<typeof workspaceChangeSchema>;

export const workspacePullResponseSchema = z.object({
  changes: z.array(workspaceChangeSchema),
  hasMore: z.boolean(),
  latestSeqno: seqnoSchema,
});
export type WorkspacePullResponse = z.infer<typeof workspacePullResponseSchema>;
