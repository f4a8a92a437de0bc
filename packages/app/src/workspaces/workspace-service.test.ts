import {
  createMemberKeys,
  openWorkspaceChange,
  sealWorkspaceChange,
  type OpaqueCryptoKey,
  type WebCryptoPort,
} from '@docket/core/crypto';
import { encodeBase64 } from '@docket/core/encoding';
import { describe, expect, it } from 'vitest';
import { ApiRequestError } from '../api/api-client.ts';
import { refusedAsNonMember } from '../api/workspaces-api.ts';
import { createFakeWorkspaceServer, type FakeWorkspaceServer } from './fake-workspace-server.ts';
import {
  createWorkspaceService,
  newWorkspaceId,
  type WorkspaceService,
} from './workspace-service.ts';

// The service's key handling with core's real crypto (Node's WebCrypto) against an in-memory
// server: names sealed and opened, keys sealed on confirmation, fingerprints compared, the key
// rotated on removal, and a server that swaps a member's public key caught by the fingerprint.

const webCrypto = (globalThis as unknown as { crypto: WebCryptoPort }).crypto;

function dataKey() {
  return webCrypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, [
    'encrypt',
    'decrypt',
  ]);
}

async function person(server: FakeWorkspaceServer, userId: string): Promise<WorkspaceService> {
  server.addAccount(userId, `${userId}@example.org`);
  return createWorkspaceService({
    api: server.clientFor(userId),
    crypto: webCrypto,
    userId,
    dataKey: await dataKey(),
    keyEpoch: 0,
  });
}

function fail(why: string): never {
  throw new Error(why);
}

async function refusal(promise: Promise<unknown>): Promise<string | null> {
  const error: unknown = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  return error instanceof ApiRequestError ? error.code : null;
}

async function team() {
  const server = createFakeWorkspaceServer();
  const [owner, editor, viewer] = await Promise.all([
    person(server, 'owner'),
    person(server, 'editor'),
    person(server, 'viewer'),
  ]);
  const made = await owner.create('Health team');
  await owner.invite(made.id, 'editor@example.org', 'editor');
  await owner.invite(made.id, 'viewer@example.org', 'viewer');
  await editor.accept(made.id);
  await viewer.accept(made.id);
  return { server, owner, editor, viewer, id: made.id };
}

describe('workspace service', () => {
  it('makes v4 ids', () => {
    expect(newWorkspaceId(webCrypto)).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });

  it('creates a workspace whose name only the sealed bytes hold', async () => {
    const server = createFakeWorkspaceServer();
    const owner = await person(server, 'owner');
    const made = await owner.create('  Health team ');
    expect(made).toMatchObject({ name: 'Health team', role: 'owner', waiting: false });
    expect(JSON.stringify([...server.spaces.values()])).not.toContain('Health');
    expect(await owner.list()).toEqual([made]);
  });

  it('publishes my key once, and opens it again on another device of the account', async () => {
    const server = createFakeWorkspaceServer();
    server.addAccount('ana', 'ana@example.org');
    const key = await dataKey();
    const first = createWorkspaceService({
      api: server.clientFor('ana'),
      crypto: webCrypto,
      userId: 'ana',
      dataKey: key,
      keyEpoch: 0,
    });
    const second = createWorkspaceService({
      api: server.clientFor('ana'),
      crypto: webCrypto,
      userId: 'ana',
      dataKey: key,
      keyEpoch: 0,
    });
    const phrase = await first.myFingerprint();
    expect(phrase.split('-')).toHaveLength(6);
    expect(await second.myFingerprint()).toBe(phrase);
  });

  it('replaces the key a cloud-password reset left unopenable; owners confirm it again', async () => {
    const server = createFakeWorkspaceServer();
    const owner = await person(server, 'owner');
    server.addAccount('editor', 'editor@example.org');
    const editorDevice = (key: OpaqueCryptoKey, keyEpoch: number) =>
      createWorkspaceService({
        api: server.clientFor('editor'),
        crypto: webCrypto,
        userId: 'editor',
        dataKey: key,
        keyEpoch,
      });
    const oldKey = await dataKey();
    const staleDevice = editorDevice(oldKey, 0);
    const viewer = await person(server, 'viewer');
    const { id } = await owner.create('Health team');
    await owner.invite(id, 'editor@example.org', 'editor');
    await owner.invite(id, 'viewer@example.org', 'viewer');
    await staleDevice.accept(id);
    await viewer.accept(id);
    const confirmAll = async () => {
      for (const member of (await owner.members(id)).members) {
        if (member.status === 'accepted') await owner.confirm(id, member);
      }
    };
    await confirmAll();
    await owner.remove(id, 'viewer'); // key version 2: the editor holds 1 and 2
    const before = await sealWorkspaceChange(
      webCrypto,
      (await owner.keyring(id)).find((key) => key.version === 1) ?? fail('no version 1'),
      new TextEncoder().encode('Written before the reset'),
      { workspaceId: id, authorUserId: 'owner', batchId: 'b1' },
    );
    const oldPhrase = await staleDevice.myFingerprint();
    server.resetCloudPassword('editor', 1);
    const afterReset = editorDevice(await dataKey(), 1);
    const newPhrase = await afterReset.myFingerprint();
    expect(newPhrase).not.toBe(oldPhrase);
    expect(afterReset.keyReplacedHere()).toBe(true);
    expect(staleDevice.keyReplacedHere()).toBe(false);
    // Nothing sealed to the old key is left; the membership waits for an owner again.
    expect([...(server.spaces.get(id)?.sealed.get('editor')?.keys() ?? [])]).toEqual([]);
    expect((await afterReset.list())[0]).toMatchObject({ waiting: true, name: null });
    const listed = (await owner.members(id)).members.find((member) => member.userId === 'editor');
    expect(listed).toMatchObject({ status: 'accepted', fingerprint: newPhrase });
    // A device of the editor still on the old cloud password does not put its own pair back.
    await expect(editorDevice(oldKey, 0).myFingerprint()).rejects.toThrow(
      'made under a newer cloud password than this device has',
    );
    await confirmAll();
    // Confirmed again, the editor opens the name and what was written before the reset.
    expect((await afterReset.list())[0]).toMatchObject({ name: 'Health team', keyVersion: 2 });
    const ring = await afterReset.keyring(id);
    expect(ring.map((key) => key.version).sort()).toEqual([1, 2]);
    const opened = await openWorkspaceChange(webCrypto, ring, before, {
      workspaceId: id,
      authorUserId: 'owner',
      batchId: 'b1',
    });
    expect(new TextDecoder().decode(opened)).toBe('Written before the reset');
  });

  it('lets a confirmed editor confirm back an only owner whose reset replaced their key', async () => {
    const server = createFakeWorkspaceServer();
    server.addAccount('owner', 'owner@example.org');
    const ownerOn = (key: OpaqueCryptoKey, keyEpoch: number) =>
      createWorkspaceService({
        api: server.clientFor('owner'),
        crypto: webCrypto,
        userId: 'owner',
        dataKey: key,
        keyEpoch,
      });
    const owner = ownerOn(await dataKey(), 0);
    const editor = await person(server, 'editor');
    const { id } = await owner.create('Health team');
    await owner.invite(id, 'editor@example.org', 'editor');
    await editor.accept(id);
    const listed = (await owner.members(id)).members.find((member) => member.userId === 'editor');
    await owner.confirm(id, listed ?? fail('no editor'));
    expect((await editor.list())[0]).toMatchObject({ ownerWaiting: false });

    server.resetCloudPassword('owner', 1);
    const ownerAfter = ownerOn(await dataKey(), 1);
    const phrase = await ownerAfter.myFingerprint();
    expect(ownerAfter.keyReplacedHere()).toBe(true);
    expect((await ownerAfter.list())[0]).toMatchObject({ waiting: true, ownerWaiting: true });
    expect((await editor.list())[0]).toMatchObject({ name: 'Health team', ownerWaiting: true });
    const ownerRow = (await editor.members(id)).members.find((member) => member.userId === 'owner');
    expect(ownerRow).toMatchObject({ role: 'owner', status: 'accepted', fingerprint: phrase });
    await editor.confirm(id, ownerRow ?? fail('no owner'));
    expect((await ownerAfter.list())[0]).toMatchObject({
      name: 'Health team',
      waiting: false,
      ownerWaiting: false,
    });
    expect(await refusal(editor.members(id))).toBe('not-owner');
  });

  it('shows an accepted member as waiting until the owner confirms, fingerprints equal', async () => {
    const { owner, editor, viewer, id } = await team();
    expect(await editor.list()).toEqual([
      expect.objectContaining({ id, name: null, waiting: true, role: 'editor' }),
    ]);
    const { members } = await owner.members(id);
    const listed = members.find((member) => member.userId === 'editor');
    expect(listed?.status).toBe('accepted');
    expect(listed?.fingerprint).toBe(await editor.myFingerprint());
    if (listed === undefined) throw new Error('no editor');
    await owner.confirm(id, listed);
    expect(await editor.list()).toEqual([
      expect.objectContaining({ id, name: 'Health team', waiting: false, role: 'editor' }),
    ]);
    // The viewer is still waiting: nothing was sealed to them.
    expect((await viewer.list())[0]).toMatchObject({ name: null, waiting: true });
  });

  it('shows a different fingerprint for a public key the server swapped in', async () => {
    const { server, owner, editor, id } = await team();
    const mallory = await createMemberKeys(webCrypto, await dataKey(), 'mallory');
    server.swapPublicKey('editor', encodeBase64(mallory.stored.publicKey));
    const listed = (await owner.members(id)).members.find((member) => member.userId === 'editor');
    expect(listed?.fingerprint).not.toBeNull();
    expect(listed?.fingerprint).not.toBe(await editor.myFingerprint());
    // Confirmed anyway, the key is sealed to the swapped key: the editor cannot open the name.
    if (listed === undefined) throw new Error('no editor');
    await owner.confirm(id, listed);
    expect((await editor.list())[0]).toMatchObject({ status: 'confirmed', name: null });
  });

  it('removes a confirmed member with a new key sealed only to those who stay', async () => {
    const { server, owner, editor, viewer, id } = await team();
    for (const member of (await owner.members(id)).members) {
      if (member.status === 'accepted') await owner.confirm(id, member);
    }
    await owner.remove(id, 'editor');
    const space = server.spaces.get(id);
    expect(space?.keyVersion).toBe(2);
    expect([...(space?.sealed.get('viewer')?.keys() ?? [])]).toEqual([1, 2]);
    expect([...(space?.sealed.get('owner')?.keys() ?? [])]).toEqual([1, 2]);
    expect([...(space?.sealed.get('editor')?.keys() ?? [])]).toEqual([1]);
    expect(await editor.list()).toEqual([]);
    expect(await refusal(editor.members(id))).toBe('not-a-member');
    expect((await viewer.list())[0]).toMatchObject({ name: 'Health team', keyVersion: 2 });
    // The owner can still seal the current (new) key to someone accepted later.
    await owner.invite(id, 'late@example.org', 'viewer');
    const late = await person(server, 'late');
    await late.accept(id);
    const listed = (await owner.members(id)).members.find((member) => member.userId === 'late');
    if (listed === undefined) throw new Error('no late member');
    await owner.confirm(id, listed);
    // The newcomer is given every version the owner holds, so what the team wrote before the
    // rotation opens for them too; the removed editor still has only the old one.
    expect([...(space?.sealed.get('late')?.keys() ?? [])].sort()).toEqual([1, 2]);
    const ring = await late.keyring(id);
    expect(ring.map((key) => key.version).sort()).toEqual([1, 2]);
    const before = await sealWorkspaceChange(
      webCrypto,
      (await owner.keyring(id)).find((key) => key.version === 1) ?? fail('no version 1'),
      new TextEncoder().encode('Written before the late member joined'),
      { workspaceId: id, authorUserId: 'owner', batchId: 'b1' },
    );
    const opened = await openWorkspaceChange(webCrypto, ring, before, {
      workspaceId: id,
      authorUserId: 'owner',
      batchId: 'b1',
    });
    expect(new TextDecoder().decode(opened)).toBe('Written before the late member joined');
    // The name was sealed again with the new key, and opens with it.
    expect((await late.list())[0]).toMatchObject({ name: 'Health team', keyVersion: 2 });
  });

  it('confirms a workspace gone only when the server refuses the account in it', async () => {
    // What a device asks before it deletes the space of a workspace its list no longer names.
    const { server, owner, viewer, id } = await team();
    for (const member of (await owner.members(id)).members) {
      if (member.status === 'accepted') await owner.confirm(id, member);
    }
    expect(await refusedAsNonMember(server.clientFor('viewer'), id)).toBe(false);
    await viewer.leave(id);
    expect(await refusedAsNonMember(server.clientFor('viewer'), id)).toBe(true);
    expect(await refusedAsNonMember(server.clientFor('owner'), newWorkspaceId(webCrypto))).toBe(
      true,
    );
    // Any other refusal is no answer about membership: it is thrown, and nothing is deleted.
    const signedOut = server.clientFor('nobody');
    await expect(refusedAsNonMember(signedOut, id)).rejects.toThrow('Signed out.');
  });

  it('lets a member leave, and refuses a non-owner’s invitation', async () => {
    const { owner, viewer, id } = await team();
    expect(await refusal(viewer.invite(id, 'x@example.org', 'editor'))).toBe('not-owner');
    await viewer.leave(id);
    expect(await viewer.list()).toEqual([]);
    expect((await owner.members(id)).members.map((member) => member.userId)).not.toContain(
      'viewer',
    );
  });

  it('rotates the key after a confirmed member left, for those who stay', async () => {
    const { server, owner, editor, viewer, id } = await team();
    for (const member of (await owner.members(id)).members) {
      if (member.status === 'accepted') await owner.confirm(id, member);
    }
    await viewer.leave(id);
    expect((await owner.list())[0]).toMatchObject({ rotationDue: true, keyVersion: 1 });
    expect(await refusal(editor.rotate(id))).toBe('not-owner');
    await owner.rotate(id);
    expect((await owner.list())[0]).toMatchObject({ rotationDue: false, keyVersion: 2 });
    const space = server.spaces.get(id);
    expect([...(space?.sealed.get('editor')?.keys() ?? [])]).toEqual([1, 2]);
    expect([...(space?.sealed.get('viewer')?.keys() ?? [])]).toEqual([1]);
    expect((await editor.list())[0]).toMatchObject({ name: 'Health team', keyVersion: 2 });
  });

  it('refuses to rotate to a key the server swapped after the owner confirmed it', async () => {
    const { server, owner, editor, id } = await team();
    for (const member of (await owner.members(id)).members) {
      if (member.status === 'accepted') await owner.confirm(id, member);
    }
    expect(
      (await owner.members(id)).members.map((member) => [member.userId, member.keyCheck]),
    ).toEqual([
      ['owner', null],
      ['editor', 'matches'],
      ['viewer', 'matches'],
    ]);
    const mallory = await createMemberKeys(webCrypto, await dataKey(), 'mallory');
    server.swapPublicKey('editor', encodeBase64(mallory.stored.publicKey));
    const swapped = (await owner.members(id)).members.find((member) => member.userId === 'editor');
    expect(swapped?.keyCheck).toBe('differs');

    // Removing the viewer rotates to those who stay, the editor among them: refused, unchanged.
    const refused = await owner.remove(id, 'viewer').then(
      () => null,
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    );
    expect(refused).toBe(
      'editor@example.org’s key is not the one you confirmed: no new key was made. Compare fingerprints with them and confirm them again, or remove them.',
    );
    const space = server.spaces.get(id);
    expect(space?.keyVersion).toBe(1);
    expect(space?.rows.map((row) => row.userId)).toContain('viewer');
    await expect(owner.rotate(id)).rejects.toThrow('is not the one you confirmed');
    expect(space?.keyVersion).toBe(1);

    // Removing the member whose key was swapped needs no trust in that key.
    await owner.remove(id, 'editor');
    expect(space?.keyVersion).toBe(2);
    expect([...(space?.sealed.get('editor')?.keys() ?? [])]).toEqual([1]);
    expect(await editor.list()).toEqual([]);
  });

  it('asks an owner with no record of a member’s key to confirm them again, then rotates', async () => {
    const { server, owner, id } = await team();
    for (const member of (await owner.members(id)).members) {
      if (member.status === 'accepted') await owner.confirm(id, member);
    }
    // Records the server dropped, or that a forged one replaced, are no record at all.
    const space = server.spaces.get(id);
    space?.confirmations.delete('viewer|owner');
    space?.confirmations.set('editor|owner', encodeBase64(new Uint8Array(64)));
    const checks = (await owner.members(id)).members.map((member) => member.keyCheck);
    expect(checks).toEqual([null, 'unreadable', 'none']);
    await expect(owner.rotate(id)).rejects.toThrow(
      'editor@example.org’s key is not the one you confirmed',
    );
    for (const member of (await owner.members(id)).members) {
      if (member.keyCheck !== null && member.keyCheck !== 'matches') {
        await owner.confirmAgain(id, member);
      }
    }
    expect((await owner.members(id)).members.map((member) => member.keyCheck)).toEqual([
      null,
      'matches',
      'matches',
    ]);
    await owner.rotate(id);
    expect(space?.keyVersion).toBe(2);
  });

  it('a second owner has no record of members the first confirmed until they confirm them again', async () => {
    const { owner, editor, id } = await team();
    for (const member of (await owner.members(id)).members) {
      if (member.status === 'accepted') await owner.confirm(id, member);
    }
    expect(await refusal(editor.changeRole(id, 'editor', 'owner'))).toBe('not-owner');
    await owner.changeRole(id, 'editor', 'owner');
    const seen = (await editor.members(id)).members.map((member) => [
      member.userId,
      member.role,
      member.keyCheck,
    ]);
    expect(seen).toEqual([
      ['owner', 'owner', 'none'],
      ['editor', 'owner', null],
      ['viewer', 'viewer', 'none'],
    ]);
    await expect(editor.rotate(id)).rejects.toThrow(
      'You have not compared owner@example.org’s key yourself',
    );
    for (const member of (await editor.members(id)).members) {
      if (member.keyCheck === 'none') await editor.confirmAgain(id, member);
    }
    await editor.rotate(id);
    // The first owner's records still hold for them.
    expect((await owner.members(id)).members.map((member) => member.keyCheck)).toEqual([
      null,
      'matches',
      'matches',
    ]);
    // The last owner cannot step down.
    await owner.changeRole(id, 'owner', 'editor');
    expect(await refusal(editor.changeRole(id, 'editor', 'viewer'))).toBe('last-owner');
  });

  it('refuses a rotation when the server lists another key as the owner’s own', async () => {
    const { server, owner, id } = await team();
    const mallory = await createMemberKeys(webCrypto, await dataKey(), 'mallory');
    server.swapPublicKey('owner', encodeBase64(mallory.stored.publicKey));
    await expect(owner.rotate(id)).rejects.toThrow('The server lists another key as yours');
    expect(server.spaces.get(id)?.keyVersion).toBe(1);
  });

  it('declines an invitation, which is then gone', async () => {
    const server = createFakeWorkspaceServer();
    const owner = await person(server, 'owner');
    const guest = await person(server, 'guest');
    const made = await owner.create('Health team');
    await owner.invite(made.id, 'guest@example.org', 'viewer');
    expect(await guest.invitations()).toHaveLength(1);
    await guest.decline(made.id);
    expect(await guest.invitations()).toEqual([]);
  });
});
