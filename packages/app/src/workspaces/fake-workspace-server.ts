import type {
  Invitation,
  Member,
  MemberKeysResponse,
  WorkspaceRole,
  WorkspaceSummary,
} from '@docket/protocol/workspaces';
import { ApiRequestError, type ApiClient, type ApiRequest } from '../api/api-client.ts';

// A stand-in for the server's membership routes, in memory, for the service's tests: it keeps
// what the real one keeps (sealed bytes, public keys, membership) and refuses as it does in the
// cases the tests touch. `swapPublicKey` plays a server that hands an owner a key of its own.

interface Account {
  readonly id: string;
  readonly email: string;
  keys: { publicKey: string; wrappedPrivateKey: string; keyEpoch: number } | null;
  /** The account's cloud key epoch (a reset raises it). */
  keyEpoch: number;
}

interface Row {
  userId: string | null;
  email: string;
  role: WorkspaceRole;
  status: 'invited' | 'accepted' | 'confirmed';
  invitedBy: string;
}

/** A new key version, sealed to those who stay, and the name sealed again under it. */
interface Rotation {
  keyVersion: number;
  sealedName: string;
  sealedKeys: { userId: string; sealedKey: string }[];
}

interface Space {
  readonly id: string;
  sealedName: string;
  keyVersion: number;
  rotationDue: boolean;
  rows: Row[];
  /** userId → version → sealed key. */
  sealed: Map<string, Map<number, string>>;
  /** `${member}|${owner}` → the owner's record of the member's key as confirmed. */
  confirmations: Map<string, string>;
}

export interface FakeWorkspaceServer {
  addAccount(id: string, email: string): void;
  clientFor(userId: string): ApiClient;
  /** The public key the server lists for `userId` from now on. */
  swapPublicKey(userId: string, publicKey: string): void;
  /** The account's cloud password was reset: its key epoch is now `keyEpoch`. */
  resetCloudPassword(userId: string, keyEpoch: number): void;
  readonly spaces: Map<string, Space>;
}

function refuse(status: number, code: string, message: string): never {
  throw new ApiRequestError(message, status, code);
}

/** A replaced key: what was sealed to the old one goes, its memberships back to accepted. */
function dropSealedTo(spaces: Iterable<Space>, userId: string): void {
  for (const space of spaces) {
    space.sealed.get(userId)?.clear();
    for (const key of [...space.confirmations.keys()]) {
      if (key.split('|').includes(userId)) space.confirmations.delete(key);
    }
    for (const row of space.rows) {
      if (row.userId === userId && row.status === 'confirmed') row.status = 'accepted';
    }
  }
}

/** PUT /api/keys: published once; replaced only from the current epoch over an older pair. */
function putKeys(
  me: Account,
  { replaces, ...keys }: NonNullable<Account['keys']> & { replaces?: string },
  spaces: Map<string, Space>,
): NonNullable<Account['keys']> {
  if (me.keys !== null && me.keys.publicKey !== keys.publicKey) {
    if (replaces !== me.keys.publicKey) {
      refuse(409, 'public-key-exists', 'This account has published another public key.');
    }
    if (keys.keyEpoch !== me.keyEpoch) refuse(409, 'key-epoch-stale', 'Stale epoch.');
    if (me.keys.keyEpoch >= keys.keyEpoch) refuse(409, 'member-key-current', 'Current.');
    dropSealedTo(spaces.values(), me.id);
    me.keys = keys;
  }
  me.keys ??= keys;
  return me.keys;
}

/** A new key version, sealed to exactly the confirmed members. */
function applyRotation(space: Space, rotation: Rotation): void {
  const confirmed = space.rows.filter((r) => r.status === 'confirmed').map((r) => r.userId);
  const given = rotation.sealedKeys.map((copy) => copy.userId);
  if (
    rotation.keyVersion !== space.keyVersion + 1 ||
    confirmed.length !== given.length ||
    !confirmed.every((id) => id !== null && given.includes(id))
  ) {
    refuse(409, 'members-changed', 'Seal to each confirmed member.');
  }
  space.keyVersion = rotation.keyVersion;
  space.sealedName = rotation.sealedName;
  space.rotationDue = false;
  for (const copy of rotation.sealedKeys) {
    space.sealed.get(copy.userId)?.set(rotation.keyVersion, copy.sealedKey);
  }
}

/** While no owner holds the key, a confirmed editor may act on an owner (or list members). */
function isKeeper(actor: Row, space: Space, target?: Row): boolean {
  const ownerless = !space.rows.some((r) => r.role === 'owner' && r.status === 'confirmed');
  return (
    actor.role === 'editor' &&
    actor.status === 'confirmed' &&
    ownerless &&
    (target === undefined || target.role === 'owner')
  );
}

export function createFakeWorkspaceServer(): FakeWorkspaceServer {
  const accounts = new Map<string, Account>();
  const swapped = new Map<string, string>();
  const spaces = new Map<string, Space>();

  const listedKey = (userId: string | null): string | null =>
    userId === null ? null : (swapped.get(userId) ?? accounts.get(userId)?.keys?.publicKey ?? null);

  const memberOf = (space: Space, userId: string): Row => {
    const row = space.rows.find((candidate) => candidate.userId === userId);
    if (row === undefined) refuse(403, 'not-a-member', 'You are not a member of this workspace.');
    return row;
  };
  const spaceOf = (id: string): Space =>
    spaces.get(id) ?? refuse(403, 'not-a-member', 'You are not a member of this workspace.');
  const ownerOf = (space: Space, userId: string, action: string): void => {
    if (memberOf(space, userId).role !== 'owner') {
      refuse(403, 'not-owner', `Only an owner of this workspace can ${action}.`);
    }
  };
  const ownerOrKeeperOf = (space: Space, userId: string, action: string, target?: Row): void => {
    if (!isKeeper(memberOf(space, userId), space, target)) ownerOf(space, userId, action);
  };
  const summary = (space: Space, row: Row): WorkspaceSummary => ({
    id: space.id,
    sealedName: space.sealedName,
    role: row.role,
    status: row.status === 'confirmed' ? 'confirmed' : 'accepted',
    keyVersion: space.keyVersion,
    sealedKey: space.sealed.get(row.userId ?? '')?.get(space.keyVersion) ?? null,
    rotationDue: space.rotationDue,
    ownerWaiting: !space.rows.some((r) => r.role === 'owner' && r.status === 'confirmed'),
    createdAt: '2026-01-01T00:00:00.000Z',
  });
  /** A member as `reader` (an owner) sees them, with the reader's own record of their key. */
  const member = (space: Space, row: Row, reader: string): Member => {
    const versions = [...(space.sealed.get(row.userId ?? '')?.keys() ?? [])];
    return {
      userId: row.userId,
      email: row.email,
      displayName: null,
      role: row.role,
      status: row.status,
      publicKey: listedKey(row.userId),
      keyVersion: versions.length === 0 ? null : Math.max(...versions),
      myConfirmation: space.confirmations.get(`${row.userId ?? ''}|${reader}`) ?? null,
    };
  };

  type Body = Record<string, unknown>;
  const handle = (me: Account, method: string, path: string, body: Body): unknown => {
    const parts = path.split('/').slice(2); // ['keys'] | ['workspaces', id, …] | …
    const route = `${method} ${parts.map((part, i) => (i === 1 ? ':id' : i === 3 ? ':user' : part)).join('/')}`;
    switch (route) {
      case 'GET keys':
        return me.keys ?? { publicKey: null, wrappedPrivateKey: null, keyEpoch: null };
      case 'PUT keys': {
        const keys = body as NonNullable<Account['keys']> & { replaces?: string };
        return putKeys(me, keys, spaces) satisfies MemberKeysResponse;
      }
      case 'POST workspaces': {
        const { id, sealedName, sealedKey } = body as Record<string, string>;
        const row: Row = {
          userId: me.id,
          email: me.email,
          role: 'owner',
          status: 'confirmed',
          invitedBy: me.id,
        };
        const space: Space = {
          id: id ?? '',
          sealedName: sealedName ?? '',
          keyVersion: 1,
          rotationDue: false,
          rows: [row],
          sealed: new Map([[me.id, new Map([[1, sealedKey ?? '']])]]),
          confirmations: new Map(),
        };
        spaces.set(space.id, space);
        return summary(space, row);
      }
      case 'GET workspaces':
        return {
          workspaces: [...spaces.values()].flatMap((space) =>
            space.rows.filter((row) => row.userId === me.id).map((row) => summary(space, row)),
          ),
        };
      case 'POST workspaces/:id/invitations': {
        const space = spaceOf(parts[1] ?? '');
        ownerOf(space, me.id, 'invite');
        const { email, role } = body as { email: string; role: WorkspaceRole };
        const row: Row = { userId: null, email, role, status: 'invited', invitedBy: me.id };
        space.rows.push(row);
        return member(space, row, me.id);
      }
      case 'GET invitations':
        return {
          invitations: [...spaces.values()].flatMap((space) =>
            space.rows
              .filter((row) => row.status === 'invited' && row.email === me.email)
              .map((row): Invitation => ({
                workspaceId: space.id,
                role: row.role,
                invitedBy: { name: row.invitedBy, email: `${row.invitedBy}@example.org` },
                invitedAt: '2026-01-01T00:00:00.000Z',
              })),
          ),
        };
      case 'POST invitations/:id/accept':
      case 'POST invitations/:id/decline': {
        const space = spaceOf(parts[1] ?? '');
        const row = space.rows.find((r) => r.status === 'invited' && r.email === me.email);
        if (row === undefined) refuse(409, 'not-invited', 'No invitation.');
        if (parts[2] === 'decline') {
          space.rows.splice(space.rows.indexOf(row), 1);
          return undefined;
        }
        if (me.keys === null) refuse(409, 'public-key-required', 'Publish a key first.');
        row.userId = me.id;
        row.status = 'accepted';
        return summary(space, row);
      }
      case 'GET workspaces/:id/members': {
        const space = spaceOf(parts[1] ?? '');
        ownerOrKeeperOf(space, me.id, 'list members');
        return {
          keyVersion: space.keyVersion,
          members: space.rows.map((r) => member(space, r, me.id)),
        };
      }
      case 'GET workspaces/:id/names': {
        const space = spaceOf(parts[1] ?? '');
        memberOf(space, me.id);
        const names = space.rows
          .filter((r) => r.status === 'confirmed' && r.userId !== null)
          .map((r) => ({
            userId: r.userId ?? '',
            name: accounts.get(r.userId ?? '')?.email ?? '',
          }));
        return { members: names };
      }
      case 'GET workspaces/:id/keys': {
        const space = spaceOf(parts[1] ?? '');
        memberOf(space, me.id);
        const mine = space.sealed.get(me.id) ?? new Map<number, string>();
        return {
          keyVersion: space.keyVersion,
          keys: [...mine].map(([keyVersion, sealedKey]) => ({ keyVersion, sealedKey })),
        };
      }
      case 'POST workspaces/:id/members/:user/confirm': {
        const space = spaceOf(parts[1] ?? '');
        const row = memberOf(space, parts[3] ?? '');
        ownerOrKeeperOf(space, me.id, 'confirm members', row);
        const { keyVersion, publicKey, sealedKey, confirmation, olderKeys } = body as {
          keyVersion: number;
          publicKey: string;
          sealedKey: string;
          confirmation: string;
          olderKeys?: { keyVersion: number; sealedKey: string }[];
        };
        if (keyVersion !== space.keyVersion) refuse(409, 'key-rotated', 'Key rotated.');
        if (publicKey !== listedKey(row.userId)) refuse(409, 'public-key-changed', 'Changed.');
        row.status = 'confirmed';
        const copies = space.sealed.get(row.userId ?? '') ?? new Map<number, string>();
        for (const older of olderKeys ?? []) copies.set(older.keyVersion, older.sealedKey);
        copies.set(keyVersion, sealedKey);
        space.sealed.set(row.userId ?? '', copies);
        space.confirmations.set(`${row.userId ?? ''}|${me.id}`, confirmation);
        return member(space, row, me.id);
      }
      case 'PUT workspaces/:id/members/:user/confirmation': {
        const space = spaceOf(parts[1] ?? '');
        ownerOf(space, me.id, 'confirm members');
        const row = memberOf(space, parts[3] ?? '');
        const { publicKey, confirmation } = body as { publicKey: string; confirmation: string };
        if (row.status !== 'confirmed') refuse(409, 'not-confirmed', 'Not confirmed yet.');
        if (publicKey !== listedKey(row.userId)) refuse(409, 'public-key-changed', 'Changed.');
        space.confirmations.set(`${row.userId ?? ''}|${me.id}`, confirmation);
        return member(space, row, me.id);
      }
      case 'PUT workspaces/:id/members/:user/role': {
        const space = spaceOf(parts[1] ?? '');
        ownerOf(space, me.id, 'change roles');
        const row = memberOf(space, parts[3] ?? '');
        const { role } = body as { role: WorkspaceRole };
        const owners = space.rows.filter((r) => r.role === 'owner' && r.status === 'confirmed');
        if (row.role === 'owner' && role !== 'owner' && owners.length === 1) {
          refuse(409, 'last-owner', 'The last owner cannot stop being one.');
        }
        row.role = role;
        return member(space, row, me.id);
      }
      case 'POST workspaces/:id/members/:user/remove': {
        const space = spaceOf(parts[1] ?? '');
        const targetId = parts[3] ?? '';
        if (targetId !== me.id) ownerOf(space, me.id, 'remove members');
        const row = memberOf(space, targetId);
        const rotation = body.rotation as Rotation | undefined;
        if (targetId !== me.id && row.status === 'confirmed' && rotation === undefined) {
          refuse(409, 'rotation-required', 'A rotation is needed.');
        }
        space.rows.splice(space.rows.indexOf(row), 1);
        if (rotation !== undefined) {
          try {
            applyRotation(space, rotation);
          } catch (error) {
            space.rows.push(row);
            throw error;
          }
        } else if (row.status === 'confirmed') {
          space.rotationDue = true;
        }
        return { keyVersion: space.keyVersion };
      }
      case 'POST workspaces/:id/keys': {
        const space = spaceOf(parts[1] ?? '');
        ownerOf(space, me.id, 'rotate the key');
        applyRotation(space, body as unknown as Rotation);
        return { keyVersion: space.keyVersion };
      }
      default:
        return refuse(404, 'not-found', `No route ${route}.`);
    }
  };

  return {
    spaces,
    addAccount(id, email) {
      accounts.set(id, { id, email, keys: null, keyEpoch: 0 });
    },
    resetCloudPassword(userId, keyEpoch) {
      const account = accounts.get(userId);
      if (account !== undefined) account.keyEpoch = keyEpoch;
    },
    swapPublicKey(userId, publicKey) {
      swapped.set(userId, publicKey);
    },
    clientFor(userId) {
      const call = <T>(request: ApiRequest<T>): Promise<T> => {
        const me = accounts.get(userId);
        if (me === undefined) return Promise.reject(new ApiRequestError('Signed out.', 401, null));
        try {
          const body = (request.body ?? {}) as Body;
          const answer = handle(me, request.method, request.path, structuredClone(body));
          return Promise.resolve(request.response.parse(structuredClone(answer)));
        } catch (error) {
          return Promise.reject(error instanceof Error ? error : new Error(String(error)));
        }
      };
      return Object.assign(call, {
        bytes: () => Promise.reject(new Error('No bytes routes here.')),
      });
    },
  };
}
