import { createCipheriv, randomBytes, randomUUID } from 'node:crypto';
import { PROTOCOL_HEADER, PROTOCOL_VERSION } from '@docket/protocol/protocol-version';
import { pushResponseSchema, type PushRequest } from '@docket/protocol/sync-changes';
import {
  MAX_KEY_CONFIRMATION_BYTES,
  invitationListResponseSchema,
  keyringResponseSchema,
  MAX_WORKSPACES_PER_ACCOUNT,
  memberKeysResponseSchema,
  memberListResponseSchema,
  memberNamesResponseSchema,
  workspaceListResponseSchema,
  workspacePullResponseSchema,
  workspaceSummarySchema,
  type WorkspaceRole,
} from '@docket/protocol/workspaces';
import { sql, type SQL } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { fakeCiphertext, makeBatch, passwordSettings, writeSettings } from './sync-client.ts';
import {
  PASSWORD,
  pathOf,
  setup,
  signedInFrom,
  signIn,
  uniqueEmail,
  waitForLoggedLink,
} from './test-server.ts';

// Team workspaces (issue 39), through the routes as a client calls them. The server enforces
// roles it cannot read: each rule below is one test, run on PGlite and, with DATABASE_URL, on
// PostgreSQL. Sealed bytes are made up (random, or AES-GCM under a throwaway key): the server
// must treat them as opaque anyway.

/** The workspace log's room, small so one test can fill it (each test has its own workspace). */
const QUOTA_BYTES = 8192;

/**
 * An account's (and a workspace's) share of work, small so one test can spend a workspace's:
 * a burst of 60 changes, refilled at 1 a second. No other test here moves more than 20.
 */
const WORK_BURST = 60;

const server = setup({
  env: {
    QUOTA_LOG_MIB: String(QUOTA_BYTES / (1024 * 1024)),
    ACCOUNT_WORK_BURST: String(WORK_BURST),
    ACCOUNT_WORK_PER_SECOND: '1',
  },
});

interface Account {
  userId: string;
  email: string;
  cookie: string;
  publicKey: string;
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

function call(
  account: Pick<Account, 'cookie'>,
  method: Method,
  url: string,
  payload?: unknown,
): Promise<LightMyRequestResponse> {
  return server.app.inject({
    method,
    url,
    headers: { cookie: account.cookie, [PROTOCOL_HEADER]: String(PROTOCOL_VERSION) },
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
}

function expectRefused(response: LightMyRequestResponse, status: number, error: string): void {
  expect({ status: response.statusCode, body: response.json<unknown>() }).toMatchObject({
    status,
    body: { error, message: expect.any(String) as unknown },
  });
}

/** Signs up, follows the verification link from the log, signs in. */
async function verifiedAccount(label: string, email = uniqueEmail(label)): Promise<Account> {
  const app = server.app;
  const signedUp = await app.inject({
    method: 'POST',
    url: '/api/auth/sign-up/email',
    payload: { email, password: PASSWORD, name: label },
  });
  expect(signedUp.statusCode).toBe(200);
  const link = await waitForLoggedLink(server.logs, 'E-mail verification link', email);
  expect((await app.inject({ method: 'GET', url: pathOf(link) })).statusCode).toBe(302);
  return { ...(await signedInAs(email)), publicKey: '' };
}

async function signedInAs(email: string): Promise<Omit<Account, 'publicKey'>> {
  const response = await signIn(server.app, email, PASSWORD);
  expect(response.statusCode).toBe(200);
  const { userId, cookie } = signedInFrom(response);
  return { userId, cookie, email };
}

/** A verified account that has published its member keys (65 bytes: an uncompressed P-256 point). */
async function member(label: string): Promise<Account> {
  const account = await verifiedAccount(label);
  const publicKey = randomBytes(65).toString('base64');
  const put = await call(account, 'PUT', '/api/keys', {
    publicKey,
    wrappedPrivateKey: randomBytes(120).toString('base64'),
    keyEpoch: 0,
  });
  expect(put.statusCode).toBe(200);
  return { ...account, publicKey };
}

/** A name sealed as a device would: AES-256-GCM under a key the server never sees. */
function sealName(name: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', randomBytes(32), iv);
  const sealed = Buffer.concat([
    iv,
    cipher.update(name, 'utf8'),
    cipher.final(),
    cipher.getAuthTag(),
  ]);
  return sealed.toString('base64');
}

function sealedKey(): string {
  return randomBytes(97).toString('base64');
}

/** An owner's record of a confirmed key: opaque to the server, as sealed bytes are. */
function keyConfirmation(): string {
  return randomBytes(93).toString('base64');
}

async function createWorkspace(owner: Account, name = 'Housing team'): Promise<string> {
  const id = randomUUID();
  const created = await call(owner, 'POST', '/api/workspaces', {
    id,
    sealedName: sealName(name),
    sealedKey: sealedKey(),
  });
  expect(created.statusCode).toBe(201);
  return id;
}

const ws = (id: string) => `/api/workspaces/${id}`;

/** Rows of a raw query, on either driver (both answer with `rows`). */
async function rowsOf<Row>(query: SQL): Promise<Row[]> {
  const result: unknown = await server.database.db.execute(query);
  return (result as { rows: Row[] }).rows;
}

async function invite(owner: Account, id: string, email: string, role: WorkspaceRole) {
  return call(owner, 'POST', `${ws(id)}/invitations`, { email, role });
}

async function confirm(owner: Account, id: string, who: Account, keyVersion = 1) {
  return call(owner, 'POST', `${ws(id)}/members/${who.userId}/confirm`, {
    keyVersion,
    publicKey: who.publicKey,
    sealedKey: sealedKey(),
    confirmation: keyConfirmation(),
  });
}

/** Invites, accepts and confirms `who` with `role`. */
async function join(owner: Account, id: string, who: Account, role: WorkspaceRole) {
  expect((await invite(owner, id, who.email, role)).statusCode).toBe(201);
  expect((await call(who, 'POST', `/api/invitations/${id}/accept`)).statusCode).toBe(200);
  const { keyVersion } = memberListResponseSchema.parse(
    (await call(owner, 'GET', `${ws(id)}/members`)).json(),
  );
  expect((await confirm(owner, id, who, keyVersion)).statusCode).toBe(200);
}

/** A workspace with a confirmed owner, editor and viewer. */
async function team() {
  const [owner, editor, viewer] = await Promise.all([
    member('owner'),
    member('editor'),
    member('viewer'),
  ]);
  const id = await createWorkspace(owner);
  await join(owner, id, editor, 'editor');
  await join(owner, id, viewer, 'viewer');
  return { id, owner, editor, viewer };
}

function pushTo(account: Account, id: string, batch: PushRequest) {
  return call(account, 'POST', `${ws(id)}/sync/push`, batch);
}

function pullFrom(account: Account, id: string, since = 0) {
  return call(account, 'GET', `${ws(id)}/sync/pull?since=${since}`);
}

function rotation(keyVersion: number, members: Account[], name = 'Housing team') {
  return {
    keyVersion,
    sealedName: sealName(name),
    sealedKeys: members.map((account) => ({ userId: account.userId, sealedKey: sealedKey() })),
  };
}

async function listOf(account: Account) {
  return workspaceListResponseSchema.parse((await call(account, 'GET', '/api/workspaces')).json())
    .workspaces;
}

/** Every workspace route, as a request of `account` about workspace `id`. */
function everyWorkspaceRoute(id: string, account: Account, other: Account) {
  return [
    call(account, 'DELETE', ws(id)),
    invite(account, id, uniqueEmail('x'), 'viewer'),
    call(account, 'POST', `${ws(id)}/invitations/withdraw`, { email: other.email }),
    call(account, 'GET', `${ws(id)}/members`),
    call(account, 'GET', `${ws(id)}/names`),
    confirm(account, id, other),
    call(account, 'PUT', `${ws(id)}/members/${other.userId}/confirmation`, {
      publicKey: other.publicKey,
      confirmation: keyConfirmation(),
    }),
    call(account, 'PUT', `${ws(id)}/members/${other.userId}/role`, { role: 'owner' }),
    call(account, 'POST', `${ws(id)}/members/${other.userId}/remove`, {}),
    call(account, 'POST', `${ws(id)}/members/${account.userId}/remove`, {}),
    call(account, 'GET', `${ws(id)}/keys`),
    call(account, 'POST', `${ws(id)}/keys`, rotation(2, [account])),
    pushTo(account, id, makeBatch(1, { epoch: 1 })),
    pullFrom(account, id),
  ];
}

describe('member keys', () => {
  it('are published once: the same key again is fine, another one is refused', async () => {
    const account = await verifiedAccount('keys');
    const empty = memberKeysResponseSchema.parse((await call(account, 'GET', '/api/keys')).json());
    expect(empty).toEqual({ publicKey: null, wrappedPrivateKey: null, keyEpoch: null });

    const keys = {
      publicKey: randomBytes(65).toString('base64'),
      wrappedPrivateKey: randomBytes(120).toString('base64'),
      keyEpoch: 0,
    };
    expect((await call(account, 'PUT', '/api/keys', keys)).json()).toEqual(keys);
    expect((await call(account, 'PUT', '/api/keys', keys)).statusCode).toBe(200);
    expect((await call(account, 'GET', '/api/keys')).json()).toEqual(keys);

    const other = { ...keys, publicKey: randomBytes(65).toString('base64') };
    expectRefused(await call(account, 'PUT', '/api/keys', other), 409, 'public-key-exists');
    expect((await call(account, 'GET', '/api/keys')).json()).toEqual(keys);
  });

  it('are checked at the edge: a 400 names the field', async () => {
    const account = await verifiedAccount('badkeys');
    const tooShort = await call(account, 'PUT', '/api/keys', {
      publicKey: randomBytes(8).toString('base64'),
      wrappedPrivateKey: randomBytes(120).toString('base64'),
      keyEpoch: 0,
    });
    expectRefused(tooShort, 400, 'invalid-request');
    expect(tooShort.json<{ message: string }>().message).toContain('"publicKey"');
  });
});

describe('member keys after a cloud-password reset', () => {
  /** A new pair under `keyEpoch`, replacing `replaces`. */
  function newPair(keyEpoch: number, replaces?: string) {
    return {
      publicKey: randomBytes(65).toString('base64'),
      wrappedPrivateKey: randomBytes(120).toString('base64'),
      keyEpoch,
      ...(replaces === undefined ? {} : { replaces }),
    };
  }

  it('are replaced only from the account’s current key epoch, over an older pair, compare-and-set', async () => {
    const account = await member('reset');
    const stored = () => call(account, 'GET', '/api/keys').then((r) => r.json<unknown>());
    const before = await stored();
    // No reset yet: the pair is the current epoch's, and nothing replaces it.
    expectRefused(
      await call(account, 'PUT', '/api/keys', newPair(0, account.publicKey)),
      409,
      'member-key-current',
    );
    const reset = await writeSettings(server.app, account.cookie, 0, passwordSettings(1));
    expect(reset.statusCode).toBe(200);
    // A device still on the old password, or one claiming an epoch the account has not reached.
    for (const keyEpoch of [0, 2]) {
      expectRefused(
        await call(account, 'PUT', '/api/keys', newPair(keyEpoch, account.publicKey)),
        409,
        'key-epoch-stale',
      );
    }
    // Naming another key than the stored one (another device replaced it first) is refused.
    expectRefused(
      await call(account, 'PUT', '/api/keys', newPair(1, randomBytes(65).toString('base64'))),
      409,
      'public-key-exists',
    );
    expect(await stored()).toEqual(before);
    const replacing = newPair(1, account.publicKey);
    const replacement = {
      publicKey: replacing.publicKey,
      wrappedPrivateKey: replacing.wrappedPrivateKey,
      keyEpoch: 1,
    };
    const replaced = await call(account, 'PUT', '/api/keys', replacing);
    expect(replaced.statusCode).toBe(200);
    expect(replaced.json()).toEqual(replacement);
    expect(await stored()).toEqual(replacement);
    // The same request again (a retry) is answered with what is stored; the old key is gone.
    expect((await call(account, 'PUT', '/api/keys', replacing)).json()).toEqual(replacement);
    expectRefused(
      await call(account, 'PUT', '/api/keys', newPair(1, account.publicKey)),
      409,
      'public-key-exists',
    );
  });

  it('drop every workspace key sealed to the old pair; owners confirm the new one again', async () => {
    const { id, owner, editor } = await team();
    const reset = await writeSettings(server.app, editor.cookie, 0, passwordSettings(1));
    expect(reset.statusCode).toBe(200);
    const replacing = newPair(1, editor.publicKey);
    expect((await call(editor, 'PUT', '/api/keys', replacing)).statusCode).toBe(200);
    const renewed = { ...editor, publicKey: replacing.publicKey };

    expect(await listOf(editor)).toEqual([
      expect.objectContaining({ id, status: 'accepted', sealedKey: null }),
    ]);
    const keyring = await call(editor, 'GET', `${ws(id)}/keys`);
    expectRefused(keyring, 403, 'not-confirmed');
    expectRefused(await pushTo(editor, id, makeBatch(1, { epoch: 1 })), 403, 'not-confirmed');
    const listed = memberListResponseSchema
      .parse((await call(owner, 'GET', `${ws(id)}/members`)).json())
      .members.find((row) => row.userId === editor.userId);
    expect(listed).toMatchObject({
      status: 'accepted',
      publicKey: replacing.publicKey,
      keyVersion: null,
      myConfirmation: null,
    });
    // Sealed to the old key, the confirmation is refused; to the new one, it is taken.
    expectRefused(await confirm(owner, id, editor), 409, 'public-key-changed');
    expect((await confirm(owner, id, renewed)).statusCode).toBe(200);
    expect(await listOf(editor)).toEqual([expect.objectContaining({ id, status: 'confirmed' })]);
  });

  it('leave a workspace whose only owner reset to a confirmed editor, who confirms that owner back and nobody else', async () => {
    const { id, owner, editor, viewer } = await team();
    expect((await listOf(editor))[0]?.ownerWaiting).toBe(false);
    expectRefused(await call(editor, 'GET', `${ws(id)}/members`), 403, 'not-owner');
    expect((await writeSettings(server.app, owner.cookie, 0, passwordSettings(1))).statusCode).toBe(
      200,
    );
    const replacing = newPair(1, owner.publicKey);
    expect((await call(owner, 'PUT', '/api/keys', replacing)).statusCode).toBe(200);
    const renewed = { ...owner, publicKey: replacing.publicKey };

    expect((await listOf(editor))[0]).toMatchObject({ ownerWaiting: true });
    expect((await listOf(owner))[0]).toMatchObject({ ownerWaiting: true, status: 'accepted' });
    // A viewer holds the key but manages nothing; the owner, keyless, manages nothing either.
    expectRefused(await call(viewer, 'GET', `${ws(id)}/members`), 403, 'not-owner');
    expectRefused(await call(owner, 'GET', `${ws(id)}/members`), 403, 'not-confirmed');
    const { members, keyVersion } = memberListResponseSchema.parse(
      (await call(editor, 'GET', `${ws(id)}/members`)).json(),
    );
    expect(members.find((row) => row.userId === owner.userId)).toMatchObject({
      role: 'owner',
      status: 'accepted',
      publicKey: replacing.publicKey,
    });
    // The editor's keeping is for owners only: no role change, no removal, no other member.
    expectRefused(
      await call(editor, 'PUT', `${ws(id)}/members/${viewer.userId}/role`, { role: 'editor' }),
      403,
      'not-owner',
    );
    expectRefused(await invite(editor, id, uniqueEmail('x'), 'viewer'), 403, 'not-owner');
    expect((await confirm(editor, id, renewed, keyVersion)).statusCode).toBe(200);
    expect((await listOf(owner))[0]).toMatchObject({ ownerWaiting: false, status: 'confirmed' });
    expectRefused(await call(editor, 'GET', `${ws(id)}/members`), 403, 'not-owner');
    expect((await call(owner, 'GET', `${ws(id)}/members`)).statusCode).toBe(200);
  });

  it('refuse an editor confirming anyone but an owner while no owner holds the key', async () => {
    const { id, owner, editor, viewer } = await team();
    for (const who of [owner, viewer]) {
      expect((await writeSettings(server.app, who.cookie, 0, passwordSettings(1))).statusCode).toBe(
        200,
      );
      expect((await call(who, 'PUT', '/api/keys', newPair(1, who.publicKey))).statusCode).toBe(200);
    }
    const listed = memberListResponseSchema.parse(
      (await call(editor, 'GET', `${ws(id)}/members`)).json(),
    );
    const viewerKey = listed.members.find((row) => row.userId === viewer.userId)?.publicKey ?? '';
    expectRefused(
      await confirm(editor, id, { ...viewer, publicKey: viewerKey }, listed.keyVersion),
      403,
      'not-owner',
    );
  });
});

describe('workspaces', () => {
  it('are made with a sealed name and the owner’s key of version 1, and listed to their members only', async () => {
    const [owner, stranger] = await Promise.all([member('owner'), member('stranger')]);
    const id = randomUUID();
    const sealedName = sealName('Appropriations');
    const key = sealedKey();
    const created = await call(owner, 'POST', '/api/workspaces', {
      id,
      sealedName,
      sealedKey: key,
    });
    expect(created.statusCode).toBe(201);
    expect(workspaceSummarySchema.parse(created.json())).toMatchObject({
      id,
      sealedName,
      role: 'owner',
      status: 'confirmed',
      keyVersion: 1,
      sealedKey: key,
      rotationDue: false,
    });
    expect((await listOf(owner)).map((workspace) => workspace.id)).toEqual([id]);
    expect(await listOf(stranger)).toEqual([]);

    const again = await call(owner, 'POST', '/api/workspaces', { id, sealedName, sealedKey: key });
    expectRefused(again, 409, 'workspace-exists');
    const noName = await call(owner, 'POST', '/api/workspaces', {
      id: randomUUID(),
      sealedKey: key,
    });
    expectRefused(noName, 400, 'invalid-request');
    expect(noName.json<{ message: string }>().message).toContain('"sealedName"');
  });

  it('are at most MAX_WORKSPACES_PER_ACCOUNT per account, each with an account’s room', async () => {
    const owner = await member('many');
    for (let made = 0; made < MAX_WORKSPACES_PER_ACCOUNT; made += 1) {
      await createWorkspace(owner);
    }
    const oneMore = await call(owner, 'POST', '/api/workspaces', {
      id: randomUUID(),
      sealedName: sealName('one too many'),
      sealedKey: sealedKey(),
    });
    expectRefused(oneMore, 409, 'too-many-workspaces');
    expect(await listOf(owner)).toHaveLength(MAX_WORKSPACES_PER_ACCOUNT);
  });

  it('keep no plaintext name: the database holds neither its text, nor its bytes in hex or base64', async () => {
    const owner = await member('owner');
    const name = `Housing committee ${randomUUID()}`;
    const id = await createWorkspace(owner, name);
    const needles = [
      name,
      Buffer.from(name, 'utf8').toString('hex'),
      Buffer.from(name, 'utf8').toString('base64'),
    ];
    const tables = await rowsOf<{ table_name: string }>(
      sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
    );
    let dump = '';
    for (const { table_name: table } of tables) {
      const rows = await rowsOf<{ row: string }>(
        sql`select row_to_json(t)::text as row from ${sql.identifier(table)} t`,
      );
      dump += rows.map((row) => row.row).join('\n');
    }
    expect(dump).toContain(id);
    for (const needle of needles) expect(dump).not.toContain(needle);
  });

  it('are deleted by an owner only; afterwards every route is 403 for everyone', async () => {
    const { id, owner, editor, viewer } = await team();
    expectRefused(await call(editor, 'DELETE', ws(id)), 403, 'not-owner');
    expect((await call(owner, 'DELETE', ws(id))).statusCode).toBe(204);
    for (const account of [owner, editor, viewer]) {
      expect(await listOf(account)).toEqual([]);
      expectRefused(await pullFrom(account, id), 403, 'not-a-member');
    }
  });
});

describe('invitations', () => {
  it('are sent by an owner only, to an address with a role', async () => {
    const { id, owner, editor, viewer } = await team();
    const address = uniqueEmail('invitee');
    expectRefused(await invite(editor, id, address, 'viewer'), 403, 'not-owner');
    expectRefused(await invite(viewer, id, address, 'viewer'), 403, 'not-owner');
    const sent = await invite(owner, id, address.toUpperCase(), 'editor');
    expect(sent.statusCode).toBe(201);
    expect(sent.json()).toMatchObject({ email: address, role: 'editor', status: 'invited' });
    expectRefused(await invite(owner, id, address, 'viewer'), 409, 'already-invited');
    const badRole = await call(owner, 'POST', `${ws(id)}/invitations`, {
      email: address,
      role: 'admin',
    });
    expectRefused(badRole, 400, 'invalid-request');
    expect(badRole.json<{ message: string }>().message).toContain('"role"');
  });

  it('are seen and accepted only by the signed-in account whose verified address was invited', async () => {
    const [owner, invitee, other] = await Promise.all([
      member('owner'),
      member('invitee'),
      member('other'),
    ]);
    const id = await createWorkspace(owner);
    expect((await invite(owner, id, invitee.email, 'editor')).statusCode).toBe(201);

    const listed = invitationListResponseSchema.parse(
      (await call(invitee, 'GET', '/api/invitations')).json(),
    );
    expect(listed.invitations).toEqual([
      {
        workspaceId: id,
        role: 'editor',
        invitedBy: { name: 'owner', email: owner.email },
        invitedAt: expect.any(String) as unknown,
      },
    ]);
    expect(
      invitationListResponseSchema.parse((await call(other, 'GET', '/api/invitations')).json())
        .invitations,
    ).toEqual([]);
    expectRefused(await call(other, 'POST', `/api/invitations/${id}/accept`), 403, 'not-invited');
    const signedOut = await server.app.inject({
      method: 'POST',
      url: `/api/invitations/${id}/accept`,
    });
    expect(signedOut.statusCode).toBe(401);

    const accepted = await call(invitee, 'POST', `/api/invitations/${id}/accept`);
    expect(accepted.statusCode).toBe(200);
    expect(workspaceSummarySchema.parse(accepted.json())).toMatchObject({
      id,
      role: 'editor',
      status: 'accepted',
      sealedKey: null,
    });
    expectRefused(
      await call(invitee, 'POST', `/api/invitations/${id}/accept`),
      409,
      'already-accepted',
    );
    expect(
      invitationListResponseSchema.parse((await call(invitee, 'GET', '/api/invitations')).json())
        .invitations,
    ).toEqual([]);
  });

  it('are withdrawn by an owner, or declined by the invitee, while nobody has accepted them', async () => {
    const { id, owner, editor, viewer } = await team();
    const [first, second] = await Promise.all([member('first'), member('second')]);
    expect((await invite(owner, id, first.email, 'viewer')).statusCode).toBe(201);
    expect((await invite(owner, id, second.email, 'viewer')).statusCode).toBe(201);

    const withdraw = (by: Account, email: string) =>
      call(by, 'POST', `${ws(id)}/invitations/withdraw`, { email });
    expectRefused(await withdraw(editor, first.email), 403, 'not-owner');
    expect((await withdraw(owner, first.email.toUpperCase())).statusCode).toBe(204);
    expectRefused(await withdraw(owner, first.email), 404, 'invitation-not-found');
    // An accepted member is removed, not withdrawn.
    expectRefused(await withdraw(owner, editor.email), 404, 'invitation-not-found');
    expectRefused(await call(first, 'POST', `/api/invitations/${id}/accept`), 403, 'not-invited');

    expect((await call(second, 'POST', `/api/invitations/${id}/decline`)).statusCode).toBe(204);
    expectRefused(await call(second, 'POST', `/api/invitations/${id}/decline`), 403, 'not-invited');
    expectRefused(await call(second, 'POST', `/api/invitations/${id}/accept`), 403, 'not-invited');
    const members = memberListResponseSchema.parse(
      (await call(owner, 'GET', `${ws(id)}/members`)).json(),
    );
    expect(members.members.map((entry) => entry.email).sort()).toEqual(
      [owner.email, editor.email, viewer.email].sort(),
    );
  });

  it('are not for an account whose address is not verified', async () => {
    const owner = await member('owner');
    const id = await createWorkspace(owner);
    const email = uniqueEmail('unverified');
    const signedUp = await server.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      payload: { email, password: PASSWORD, name: 'unverified' },
    });
    expect(signedUp.statusCode).toBe(200);
    const unverified = await signedInAs(email);
    expect((await invite(owner, id, email, 'viewer')).statusCode).toBe(201);
    expectRefused(await call(unverified, 'GET', '/api/invitations'), 403, 'email-not-verified');
    expectRefused(
      await call(unverified, 'POST', `/api/invitations/${id}/accept`),
      403,
      'email-not-verified',
    );
  });

  it('are accepted only once the invitee has published keys to seal to', async () => {
    const owner = await member('owner');
    const invitee = await verifiedAccount('nokeys');
    const id = await createWorkspace(owner);
    expect((await invite(owner, id, invitee.email, 'viewer')).statusCode).toBe(201);
    expectRefused(
      await call(invitee, 'POST', `/api/invitations/${id}/accept`),
      409,
      'public-key-required',
    );
  });
});

describe('confirming a member', () => {
  it('seals the current key to an accepted member, once, by an owner, to the key they published', async () => {
    const [owner, editor, invitee] = await Promise.all([
      member('owner'),
      member('editor'),
      member('invitee'),
    ]);
    const id = await createWorkspace(owner);
    await join(owner, id, editor, 'editor');
    expect((await invite(owner, id, invitee.email, 'viewer')).statusCode).toBe(201);

    // Forged: a sealed key for someone who has not accepted is refused.
    expectRefused(await confirm(owner, id, invitee), 409, 'not-accepted');
    expect((await call(invitee, 'POST', `/api/invitations/${id}/accept`)).statusCode).toBe(200);

    const members = memberListResponseSchema.parse(
      (await call(owner, 'GET', `${ws(id)}/members`)).json(),
    );
    expect(members.members.find((entry) => entry.userId === invitee.userId)).toEqual({
      userId: invitee.userId,
      email: invitee.email,
      displayName: 'invitee',
      role: 'viewer',
      status: 'accepted',
      publicKey: invitee.publicKey,
      keyVersion: null,
      myConfirmation: null,
    });
    expectRefused(await call(editor, 'GET', `${ws(id)}/members`), 403, 'not-owner');
    expectRefused(await confirm(editor, id, invitee), 403, 'not-owner');
    const swappedKey = await call(owner, 'POST', `${ws(id)}/members/${invitee.userId}/confirm`, {
      keyVersion: 1,
      publicKey: randomBytes(65).toString('base64'),
      sealedKey: sealedKey(),
      confirmation: keyConfirmation(),
    });
    expectRefused(swappedKey, 409, 'public-key-changed');
    expectRefused(await confirm(owner, id, invitee, 2), 409, 'key-version-unknown');
    // Before confirmation the invitee holds no key: no log, no key ring.
    expectRefused(await pullFrom(invitee, id), 403, 'not-confirmed');
    expectRefused(await call(invitee, 'GET', `${ws(id)}/keys`), 403, 'not-confirmed');

    const confirmed = await confirm(owner, id, invitee);
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toMatchObject({ status: 'confirmed', keyVersion: 1 });
    // Replayed: the same confirm again is refused and changes nothing.
    const before = keyringResponseSchema.parse(
      (await call(invitee, 'GET', `${ws(id)}/keys`)).json(),
    );
    expectRefused(await confirm(owner, id, invitee), 409, 'already-confirmed');
    expect((await call(invitee, 'GET', `${ws(id)}/keys`)).json()).toEqual(before);
    expect(before.keys.map((key) => key.keyVersion)).toEqual([1]);
    const [mine] = await listOf(invitee);
    expect(mine).toMatchObject({ status: 'confirmed', sealedKey: before.keys[0]?.sealedKey });
    expect((await pullFrom(invitee, id)).statusCode).toBe(200);
  });

  it("keeps each owner's own record of the key they confirmed, hands it to that owner only, and forgets it with the member", async () => {
    const { id, owner, editor, viewer } = await team();
    const listed = async (reader: Account) =>
      memberListResponseSchema.parse((await call(reader, 'GET', `${ws(id)}/members`)).json())
        .members;
    const recordOf = async (reader: Account, who: Account) =>
      (await listed(reader)).find((entry) => entry.userId === who.userId)?.myConfirmation;
    // The owner's confirm kept a record; the owner's own row (nobody confirmed it) has none.
    expect(await recordOf(owner, editor)).toEqual(expect.any(String));
    expect(await recordOf(owner, owner)).toBeNull();

    // A second owner sees none of the first owner's records, and keeps their own.
    expect(
      (await call(owner, 'PUT', `${ws(id)}/members/${editor.userId}/role`, { role: 'owner' }))
        .statusCode,
    ).toBe(200);
    expect(await recordOf(editor, viewer)).toBeNull();
    const mine = keyConfirmation();
    const kept = await call(editor, 'PUT', `${ws(id)}/members/${viewer.userId}/confirmation`, {
      publicKey: viewer.publicKey,
      confirmation: mine,
    });
    expect(kept.statusCode).toBe(200);
    expect(kept.json()).toMatchObject({ userId: viewer.userId, myConfirmation: mine });
    expect(await recordOf(editor, viewer)).toBe(mine);
    expect(await recordOf(owner, viewer)).not.toBe(mine);

    // Refused: a key that is not the member's published one, a member not confirmed, a
    // non-owner, a record too large. Nothing changes.
    const other = await member('other');
    expectRefused(
      await call(editor, 'PUT', `${ws(id)}/members/${viewer.userId}/confirmation`, {
        publicKey: other.publicKey,
        confirmation: keyConfirmation(),
      }),
      409,
      'public-key-changed',
    );
    expect((await invite(owner, id, other.email, 'viewer')).statusCode).toBe(201);
    expect((await call(other, 'POST', `/api/invitations/${id}/accept`)).statusCode).toBe(200);
    expectRefused(
      await call(owner, 'PUT', `${ws(id)}/members/${other.userId}/confirmation`, {
        publicKey: other.publicKey,
        confirmation: keyConfirmation(),
      }),
      409,
      'not-confirmed',
    );
    expectRefused(
      await call(viewer, 'PUT', `${ws(id)}/members/${editor.userId}/confirmation`, {
        publicKey: editor.publicKey,
        confirmation: keyConfirmation(),
      }),
      403,
      'not-owner',
    );
    expectRefused(
      await call(editor, 'PUT', `${ws(id)}/members/${viewer.userId}/confirmation`, {
        publicKey: viewer.publicKey,
        confirmation: randomBytes(MAX_KEY_CONFIRMATION_BYTES + 1).toString('base64'),
      }),
      400,
      'invalid-request',
    );
    expect(await recordOf(editor, viewer)).toBe(mine);

    // A member who leaves takes the records about them and by them along.
    expect(
      (await call(viewer, 'POST', `${ws(id)}/members/${viewer.userId}/remove`, {})).statusCode,
    ).toBe(200);
    const left = await rowsOf<{ n: number | string }>(
      sql`select count(*) as n from workspace_key_confirmations where workspace_id = ${id} and (member_user_id = ${viewer.userId} or confirmed_by = ${viewer.userId})`,
    );
    expect(Number(left[0]?.n)).toBe(0);
  });

  it('is refused under a key version a rotation has left behind', async () => {
    const [owner, editor, late] = await Promise.all([
      member('owner'),
      member('editor'),
      member('late'),
    ]);
    const id = await createWorkspace(owner);
    await join(owner, id, editor, 'editor');
    expect((await invite(owner, id, late.email, 'viewer')).statusCode).toBe(201);
    expect((await call(late, 'POST', `/api/invitations/${id}/accept`)).statusCode).toBe(200);
    expect(
      (await call(owner, 'POST', `${ws(id)}/keys`, rotation(2, [owner, editor]))).statusCode,
    ).toBe(200);
    expectRefused(await confirm(owner, id, late, 1), 409, 'key-rotated');
    expect((await confirm(owner, id, late, 2)).statusCode).toBe(200);
  });

  it('gives a member who joins after a rotation the older key versions the owner sealed to them, each checked', async () => {
    const [owner, editor, late] = await Promise.all([
      member('owner'),
      member('editor'),
      member('late'),
    ]);
    const id = await createWorkspace(owner);
    await join(owner, id, editor, 'editor');
    for (const version of [2, 3]) {
      const rotated = await call(
        owner,
        'POST',
        `${ws(id)}/keys`,
        rotation(version, [owner, editor]),
      );
      expect(rotated.statusCode).toBe(200);
    }
    expect((await invite(owner, id, late.email, 'viewer')).statusCode).toBe(201);
    expect((await call(late, 'POST', `/api/invitations/${id}/accept`)).statusCode).toBe(200);
    const confirmWith = (olderKeys: { keyVersion: number; sealedKey: string }[]) =>
      call(owner, 'POST', `${ws(id)}/members/${late.userId}/confirm`, {
        keyVersion: 3,
        publicKey: late.publicKey,
        sealedKey: sealedKey(),
        confirmation: keyConfirmation(),
        olderKeys,
      });
    const [one, two] = [sealedKey(), sealedKey()];
    // A version given twice, the current one, or a later one: refused, nothing kept.
    for (const wrong of [
      [
        { keyVersion: 1, sealedKey: one },
        { keyVersion: 1, sealedKey: two },
      ],
      [{ keyVersion: 3, sealedKey: one }],
      [{ keyVersion: 4, sealedKey: one }],
    ]) {
      expectRefused(await confirmWith(wrong), 400, 'invalid-keys');
    }
    expectRefused(await call(late, 'GET', `${ws(id)}/keys`), 403, 'not-confirmed');
    const confirmed = await confirmWith([
      { keyVersion: 2, sealedKey: two },
      { keyVersion: 1, sealedKey: one },
    ]);
    expect(confirmed.statusCode).toBe(200);
    const ring = keyringResponseSchema.parse((await call(late, 'GET', `${ws(id)}/keys`)).json());
    expect(ring.keyVersion).toBe(3);
    expect(ring.keys.map((copy) => copy.keyVersion)).toEqual([1, 2, 3]);
    expect(ring.keys.slice(0, 2).map((copy) => copy.sealedKey)).toEqual([one, two]);
    // The log under the old versions is theirs to read now.
    expect((await pullFrom(late, id)).statusCode).toBe(200);
  });
});

describe('members’ names', () => {
  it('are given to every confirmed member: account id and name, no address, key or role', async () => {
    const { id, owner, editor, viewer } = await team();
    for (const reader of [owner, editor, viewer]) {
      const response = await call(reader, 'GET', `${ws(id)}/names`);
      expect(response.statusCode).toBe(200);
      const { members } = memberNamesResponseSchema.parse(response.json());
      expect(new Map(members.map((one) => [one.userId, one.name]))).toEqual(
        new Map([
          [owner.userId, 'owner'],
          [editor.userId, 'editor'],
          [viewer.userId, 'viewer'],
        ]),
      );
      expect(response.body).not.toContain('@');
      expect(response.body).not.toContain(viewer.publicKey);
    }
  });

  it('are refused to a member not confirmed yet, and leave out who is not confirmed', async () => {
    const { id, owner } = await team();
    const waiting = await member('waiting');
    expect((await invite(owner, id, waiting.email, 'editor')).statusCode).toBe(201);
    expect((await call(waiting, 'POST', `/api/invitations/${id}/accept`)).statusCode).toBe(200);
    expectRefused(await call(waiting, 'GET', `${ws(id)}/names`), 403, 'not-confirmed');
    const { members } = memberNamesResponseSchema.parse(
      (await call(owner, 'GET', `${ws(id)}/names`)).json(),
    );
    expect(members.map((one) => one.userId)).not.toContain(waiting.userId);
  });
});

describe('the workspace change log', () => {
  it('takes pushes from editors and owners, and gives every confirmed member the log with its authors', async () => {
    const { id, owner, editor, viewer } = await team();
    const fromEditor = makeBatch(2, { epoch: 1, deviceId: 'editor-laptop' });
    const pushed = await pushTo(editor, id, fromEditor);
    expect(pushed.statusCode).toBe(200);
    expect(pushResponseSchema.parse(pushed.json())).toMatchObject({
      seqnos: [1, 2],
      duplicate: false,
    });
    const again = await pushTo(editor, id, fromEditor);
    expect(pushResponseSchema.parse(again.json())).toMatchObject({
      seqnos: [1, 2],
      duplicate: true,
    });
    // Another member sending the same batch id is a conflict, not the editor's answer.
    expectRefused(await pushTo(owner, id, fromEditor), 409, 'batch-conflict');
    expect((await pushTo(owner, id, makeBatch(1, { epoch: 1 }))).statusCode).toBe(200);

    for (const reader of [owner, editor, viewer]) {
      const page = workspacePullResponseSchema.parse((await pullFrom(reader, id)).json());
      expect(page.latestSeqno).toBe(3);
      expect(page.changes.map((change) => [change.seqno, change.authorUserId])).toEqual([
        [1, editor.userId],
        [2, editor.userId],
        [3, owner.userId],
      ]);
    }
    const later = workspacePullResponseSchema.parse((await pullFrom(viewer, id, 2)).json());
    expect(later.changes.map((change) => change.seqno)).toEqual([3]);
  });

  it('refuses a viewer’s push with 403, whatever the client sends', async () => {
    const { id, owner, viewer } = await team();
    expectRefused(await pushTo(viewer, id, makeBatch(1, { epoch: 1 })), 403, 'read-only');
    expect(workspacePullResponseSchema.parse((await pullFrom(owner, id)).json()).changes).toEqual(
      [],
    );
    // Made an editor, the same account may push.
    const promoted = await call(owner, 'PUT', `${ws(id)}/members/${viewer.userId}/role`, {
      role: 'editor',
    });
    expect(promoted.json()).toMatchObject({ role: 'editor' });
    expect((await pushTo(viewer, id, makeBatch(1, { epoch: 1 }))).statusCode).toBe(200);
  });

  it('refuses an outsider on every workspace route, and a member of workspace A on workspace B', async () => {
    const teamA = await team();
    const teamB = await team();
    const outsider = await member('outsider');
    const attempts = [
      ...everyWorkspaceRoute(teamA.id, outsider, teamA.editor),
      ...everyWorkspaceRoute(teamB.id, teamA.owner, teamB.editor),
      ...everyWorkspaceRoute(teamB.id, teamA.editor, teamB.viewer),
      // A's owner naming B's members under A's id: they are not A's members.
      confirm(teamA.owner, teamA.id, teamB.editor),
    ];
    const answers = await Promise.all(attempts);
    const last = answers.pop();
    for (const answer of answers) expectRefused(answer, 403, 'not-a-member');
    if (last === undefined) throw new Error('no answer');
    expectRefused(last, 404, 'member-not-found');
    // An id that names no workspace is answered the same as one the account is not in.
    expectRefused(await pullFrom(outsider, randomUUID()), 403, 'not-a-member');
    // B is untouched.
    const members = memberListResponseSchema.parse(
      (await call(teamB.owner, 'GET', `${ws(teamB.id)}/members`)).json(),
    );
    expect(members.members).toHaveLength(3);
    expect(members.keyVersion).toBe(1);
  });

  it('takes the name sealed again with each rotation, and refuses a rotation without it', async () => {
    const { id, owner, editor, viewer } = await team();
    const nameless: Partial<ReturnType<typeof rotation>> = rotation(2, [owner, editor, viewer]);
    delete nameless.sealedName;
    const refused = await call(owner, 'POST', `${ws(id)}/keys`, nameless);
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ message: string }>().message).toContain('"sealedName"');
    expect((await listOf(owner))[0]).toMatchObject({ keyVersion: 1 });

    const next = rotation(2, [owner, editor, viewer], 'Housing team, second key');
    expect((await call(owner, 'POST', `${ws(id)}/keys`, next)).json()).toEqual({ keyVersion: 2 });
    // Every member lists the copy sealed under the newest key, which a newcomer is given.
    for (const member of [owner, editor, viewer]) {
      expect((await listOf(member))[0]).toMatchObject({
        keyVersion: 2,
        sealedName: next.sealedName,
      });
    }
  });

  it('refuses a push under a key version older than the workspace’s with 409 key-rotated', async () => {
    const { id, owner, editor, viewer } = await team();
    expect((await pushTo(editor, id, makeBatch(1, { epoch: 1 }))).statusCode).toBe(200);
    const rotated = await call(
      owner,
      'POST',
      `${ws(id)}/keys`,
      rotation(2, [owner, editor, viewer]),
    );
    expect(rotated.json()).toEqual({ keyVersion: 2 });
    expectRefused(await pushTo(editor, id, makeBatch(1, { epoch: 1 })), 409, 'key-rotated');
    expectRefused(await pushTo(editor, id, makeBatch(1, { epoch: 3 })), 409, 'key-version-unknown');
    expect((await pushTo(editor, id, makeBatch(1, { epoch: 2 }))).statusCode).toBe(200);
    const epochs = workspacePullResponseSchema
      .parse((await pullFrom(viewer, id)).json())
      .changes.map((change) => change.epoch);
    expect(epochs).toEqual([1, 2]);
  });

  it('lets no change land under the old key once a rotation has committed, even racing it', async () => {
    const { id, owner, editor, viewer } = await team();
    const pushes = Array.from({ length: 6 }, () => pushTo(editor, id, makeBatch(2, { epoch: 1 })));
    const rotate = call(owner, 'POST', `${ws(id)}/keys`, rotation(2, [owner, editor, viewer]));
    const [rotated, ...answers] = await Promise.all([rotate, ...pushes]);
    expect(rotated.statusCode).toBe(200);
    for (const answer of answers) {
      if (answer.statusCode !== 200) expectRefused(answer, 409, 'key-rotated');
    }
    expect((await pushTo(editor, id, makeBatch(1, { epoch: 2 }))).statusCode).toBe(200);
    const epochs = workspacePullResponseSchema
      .parse((await pullFrom(owner, id)).json())
      .changes.map((change) => change.epoch);
    // Every version-1 change comes before the first version-2 one.
    expect(epochs.at(-1)).toBe(2);
    expect(epochs.indexOf(2)).toBe(epochs.length - 1);
  });

  it('counts the log against the workspace’s own quota, not the pusher’s account', async () => {
    const { id, editor } = await team();
    const big = (count: number): PushRequest => {
      const batch = makeBatch(count, { epoch: 1 });
      return {
        ...batch,
        envelopes: batch.envelopes.map((envelope) => ({
          ...envelope,
          ciphertext: fakeCiphertext(1024),
        })),
      };
    };
    expect((await pushTo(editor, id, big(6))).statusCode).toBe(200);
    const over = await pushTo(editor, id, big(3));
    expectRefused(over, 413, 'quota-exceeded');
    expect(over.json<{ message: string }>().message).toMatch(/^This workspace's space/);
    // The editor's own log is another room.
    const personal = await call(editor, 'POST', '/api/sync/push', makeBatch(2));
    expect(personal.statusCode).toBe(200);
  });
});

describe('a workspace’s share', () => {
  it('holds its members together to one account’s share of work, and leaves their own accounts alone', async () => {
    const { id, owner, editor, viewer } = await team();
    // Each within their own account's share; together past the workspace's.
    expect((await pushTo(editor, id, makeBatch(40, { epoch: 1 }))).statusCode).toBe(200);
    expect((await pushTo(owner, id, makeBatch(30, { epoch: 1 }))).statusCode).toBe(200);
    const pull = await pullFrom(viewer, id);
    expectRefused(pull, 429, 'over-share');
    expect(pull.json<{ message: string }>().message).toMatch(
      /^This workspace moved more than its share of changes lately \(1 a second on average\)\. Try again in \d+ s\.$/,
    );
    expect(Number(pull.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expectRefused(await pushTo(editor, id, makeBatch(1, { epoch: 1 })), 429, 'over-share');
    // Someone outside learns nothing of it: refused as on any workspace, busy or not.
    const outsider = await member('outsider');
    expectRefused(await pullFrom(outsider, id), 403, 'not-a-member');
    expectRefused(await pushTo(outsider, id, makeBatch(1, { epoch: 1 })), 403, 'not-a-member');
    // The viewer's own account was not spent: its personal log answers.
    expect((await call(viewer, 'POST', '/api/sync/push', makeBatch(2))).statusCode).toBe(200);
    // Another workspace of the same members has its own share.
    const other = await createWorkspace(owner, 'Transport team');
    expect((await pushTo(owner, other, makeBatch(1, { epoch: 1 }))).statusCode).toBe(200);
  });

  it('is not spent by an outsider’s refused requests', async () => {
    const { id, editor } = await team();
    const outsider = await member('outsider');
    for (let round = 0; round < 3; round += 1) {
      expectRefused(await pushTo(outsider, id, makeBatch(25, { epoch: 1 })), 403, 'not-a-member');
    }
    expect((await pushTo(editor, id, makeBatch(40, { epoch: 1 }))).statusCode).toBe(200);
  });
});

describe('removing members, leaving and rotating', () => {
  it('an owner removing a confirmed member must rotate the key in the same step', async () => {
    const { id, owner, editor, viewer } = await team();
    const remove = (body: unknown) =>
      call(owner, 'POST', `${ws(id)}/members/${editor.userId}/remove`, body);
    expectRefused(await remove({}), 409, 'rotation-required');
    expectRefused(await remove({ rotation: rotation(2, [owner]) }), 409, 'members-changed');
    expectRefused(
      await remove({ rotation: rotation(2, [owner, viewer, editor]) }),
      409,
      'members-changed',
    );
    expectRefused(
      await remove({ rotation: rotation(3, [owner, viewer]) }),
      409,
      'key-version-conflict',
    );
    // None of the refusals removed anyone or moved the key.
    expect((await pullFrom(editor, id)).statusCode).toBe(200);

    const removed = await remove({ rotation: rotation(2, [owner, viewer]) });
    expect(removed.json()).toEqual({ keyVersion: 2 });

    // The removed member: every route 403, the workspace gone from their list, keys forgotten.
    for (const answer of await Promise.all(everyWorkspaceRoute(id, editor, viewer))) {
      expectRefused(answer, 403, 'not-a-member');
    }
    expect(await listOf(editor)).toEqual([]);
    const left = await rowsOf<{ n: number }>(
      sql`select count(*)::int as n from workspace_member_keys where workspace_id = ${id} and user_id = ${editor.userId}`,
    );
    expect(left[0]?.n).toBe(0);
    // Those who stay have version 2 (and kept version 1 for the older changes).
    const ring = keyringResponseSchema.parse((await call(viewer, 'GET', `${ws(id)}/keys`)).json());
    expect(ring.keys.map((key) => key.keyVersion)).toEqual([1, 2]);
    const [summary] = await listOf(viewer);
    expect(summary).toMatchObject({ keyVersion: 2, sealedKey: ring.keys[1]?.sealedKey });
  });

  it('only an owner removes others; anyone may leave, in one step', async () => {
    const { id, owner, editor, viewer } = await team();
    expectRefused(
      await call(editor, 'POST', `${ws(id)}/members/${viewer.userId}/remove`, {}),
      403,
      'not-owner',
    );
    expectRefused(
      await call(editor, 'PUT', `${ws(id)}/members/${viewer.userId}/role`, { role: 'editor' }),
      403,
      'not-owner',
    );
    expectRefused(
      await call(editor, 'POST', `${ws(id)}/keys`, rotation(2, [owner, editor, viewer])),
      403,
      'not-owner',
    );

    const left = await call(viewer, 'POST', `${ws(id)}/members/${viewer.userId}/remove`, {});
    expect(left.json()).toEqual({ keyVersion: 1 });
    expectRefused(await pullFrom(viewer, id), 403, 'not-a-member');
    // The leaver held the key: the owner is told to rotate, and rotating clears it.
    const [due] = await listOf(owner);
    expect(due).toMatchObject({ rotationDue: true, keyVersion: 1 });
    expectRefused(
      await call(owner, 'POST', `${ws(id)}/keys`, rotation(2, [owner, editor, viewer])),
      409,
      'members-changed',
    );
    expect(
      (await call(owner, 'POST', `${ws(id)}/keys`, rotation(2, [owner, editor]))).statusCode,
    ).toBe(200);
    expect((await listOf(owner))[0]).toMatchObject({ rotationDue: false, keyVersion: 2 });
  });

  it('an accepted member who never held the key is removed without a rotation', async () => {
    const [owner, invitee] = await Promise.all([member('owner'), member('invitee')]);
    const id = await createWorkspace(owner);
    expect((await invite(owner, id, invitee.email, 'editor')).statusCode).toBe(201);
    expect((await call(invitee, 'POST', `/api/invitations/${id}/accept`)).statusCode).toBe(200);
    const removed = await call(owner, 'POST', `${ws(id)}/members/${invitee.userId}/remove`, {});
    expect(removed.json()).toEqual({ keyVersion: 1 });
    expect((await listOf(owner))[0]).toMatchObject({ rotationDue: false });
    expect(await listOf(invitee)).toEqual([]);
  });

  it('always keeps a confirmed owner: the last one can neither leave nor step down', async () => {
    const { id, owner, editor } = await team();
    expectRefused(
      await call(owner, 'POST', `${ws(id)}/members/${owner.userId}/remove`, {}),
      409,
      'last-owner',
    );
    expectRefused(
      await call(owner, 'PUT', `${ws(id)}/members/${owner.userId}/role`, { role: 'editor' }),
      409,
      'last-owner',
    );
    const promoted = await call(owner, 'PUT', `${ws(id)}/members/${editor.userId}/role`, {
      role: 'owner',
    });
    expect(promoted.json()).toMatchObject({ role: 'owner' });
    const left = await call(owner, 'POST', `${ws(id)}/members/${owner.userId}/remove`, {});
    expect(left.statusCode).toBe(200);
    expect(await listOf(owner)).toEqual([]);
    const [kept] = await listOf(editor);
    expect(kept).toMatchObject({ role: 'owner', rotationDue: true });
    // And the new owner, now the last, is held to the same rule.
    expectRefused(
      await call(editor, 'POST', `${ws(id)}/members/${editor.userId}/remove`, {}),
      409,
      'last-owner',
    );
  });
});
