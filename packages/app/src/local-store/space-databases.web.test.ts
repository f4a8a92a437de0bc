import Dexie from 'dexie';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  activeDatabaseName,
  docketDatabaseNames,
  enterAccountDatabase,
  finishRemovals,
  leaveAccountDatabase,
  removeAccountAtSignOut,
  removeEveryDatabase,
} from './account-databases.ts';
import { holdPasswordForDevice } from '../auth/held-password.ts';
import { putTag, tagNames } from './web-test-tags.ts';
import { enterSpace } from './enter-space.ts';
import { activeSpaceOf } from './space-databases.ts';

// A team workspace's own database on this device (issue 39), on Chromium's IndexedDB, OPFS and
// localStorage: entered and left by the signed-in account, sealed under that account's vault
// (locked at its sign-out, opened by its password), gone with the account.

Dexie.debug = false;

const PASSWORD = 'correct horse battery staple 7';

function signIn(userId: string): ReturnType<typeof enterAccountDatabase> {
  holdPasswordForDevice(PASSWORD);
  return enterAccountDatabase(userId);
}

describe('a workspace’s own database', () => {
  beforeEach(async () => {
    await removeEveryDatabase();
    localStorage.clear();
  });

  it('is entered and left by the signed-in account, apart from its personal work', async () => {
    await signIn('user-x');
    const personal = activeDatabaseName();
    await putTag(personal, 'Mine');

    await enterSpace('user-x', 'ws-health');
    const team = activeDatabaseName();
    expect(team).not.toBe(personal);
    expect(team.startsWith(`${personal}.space-`)).toBe(true);
    // Named by random hex, never by the workspace's id.
    expect(team).not.toContain('health');
    expect(activeSpaceOf(personal)).toBe('ws-health');
    expect(await tagNames(team)).toEqual([]);
    await putTag(team, 'Team');

    await enterSpace('user-x', 'ws-other');
    expect(activeDatabaseName()).not.toBe(team);
    await enterSpace('user-x', 'ws-health');
    expect(activeDatabaseName()).toBe(team);
    expect(await tagNames(team)).toEqual(['Team']);

    await enterSpace('user-x', null);
    expect(activeDatabaseName()).toBe(personal);
    expect(await tagNames(personal)).toEqual(['Mine']);
  });

  it('is sealed under the account’s vault: locked at sign-out, opened by its password, closed to another account', async () => {
    await signIn('user-x');
    await enterSpace('user-x', 'ws-health');
    const team = activeDatabaseName();
    await putTag(team, 'Team note');
    leaveAccountDatabase();
    await finishRemovals();
    // Signed out, the next sign-in starts in the personal space, and the team's rows are sealed.
    await expect(tagNames(team)).rejects.toMatchObject({ name: 'DeviceLockedError' });

    await signIn('user-y');
    await expect(enterSpace('user-x', 'ws-health')).rejects.toThrow(/Sign in/);
    await expect(tagNames(team)).rejects.toMatchObject({ name: 'DeviceLockedError' });
    leaveAccountDatabase();

    await signIn('user-x');
    expect(activeDatabaseName()).not.toBe(team);
    await enterSpace('user-x', 'ws-health');
    expect(activeDatabaseName()).toBe(team);
    expect(await tagNames(team)).toEqual(['Team note']);
  });

  it('asks for a reload when the page holds the personal database open', async () => {
    await signIn('user-x');
    const { createDocketDatabase } = await import('./docket-database.ts');
    const kept = createDocketDatabase();
    await kept.open();
    expect((await enterSpace('user-x', 'ws-health')).reload).toBe(true);
    kept.close();
  });

  it('goes with the account removed at sign-out', async () => {
    await signIn('user-x');
    const personal = activeDatabaseName();
    await enterSpace('user-x', 'ws-health');
    const team = activeDatabaseName();
    await putTag(team, 'Team');
    await signIn('user-y');
    const other = activeDatabaseName();

    removeAccountAtSignOut('user-x');
    await finishRemovals();
    expect(await docketDatabaseNames()).toEqual([other]);
    expect(await docketDatabaseNames()).not.toContain(personal);
    // Signing in as X again starts without the workspace's old database.
    await signIn('user-x');
    await enterSpace('user-x', 'ws-health');
    expect(activeDatabaseName()).not.toBe(team);
    expect(await tagNames(activeDatabaseName())).toEqual([]);
  });
});
