import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { uniqueEmail } from './pages/login-page.ts';
import { BillTagsPage } from './pages/bill-tags-page.ts';
import { expectPainted, screenshotsAtBothSizes } from './pages/painted.ts';
import { SOON, signedInDevice, submitCloudPassword } from './pages/sync-device.ts';

// Team workspaces, membership (issue 39): three accounts on three browser contexts. The owner
// makes "Health team" and invites an editor and a viewer; both accept; the owner confirms each
// after comparing the fingerprint shown on its Confirm with the one the member sees as "Your
// fingerprint"; the members then see the workspace with their roles; the owner and the editor
// open the workspace's own space (the header's switcher names it), where the owner's tag reaches
// the editor within one sync, sealed on the server; the viewer, in the space too, reads it with
// no control that changes it, and a raw push from the viewer's session is refused 403; a
// viewer's invitation is refused by the server and the refusal is shown; the owner makes the
// viewer an owner, who must compare the editor's fingerprint and "Confirm again" before any new
// key goes to the editor; the owner removes the editor (the new key sealed only to keys the owner
// confirmed), whose list then no longer shows it, whose pulls are refused, and to whose device
// the owner's next tag never comes. The server's database files, read from the disk, hold no
// word of the workspace's name or its tags.
//
// Invitations go to verified addresses only. This spec runs a server of its own (PGlite, its own
// folder) that logs at info, where the server without SMTP writes each verification link
// (mail-sender.ts), and each account follows its link as a person would from their mailbox.

// Three cloud passwords (Argon2id, twice each) take most of the time on a busy machine.
test.describe.configure({ timeout: 600_000 });

const VIEWER_WORDS =
  'You are a viewer in this workspace: you read its bills, tags and notes; an editor or an owner changes them.';

// Past the app's port, the source simulator's and sync-two-servers' two.
const port = Number(process.env.E2E_PORT ?? '20000') + 4;
const origin = `http://127.0.0.1:${String(port)}`;
const CLOUD_PASSWORD = 'lantern orchard 42 copper';
let server: ChildProcess | null = null;
const dataDir = mkdtempSync(join(tmpdir(), 'docket-e2e-workspaces-'));
const links = new Map<string, string>();

async function healthy(process: ChildProcess): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (process.exitCode !== null) throw new Error('The workspaces spec’s server exited.');
    const ok = await fetch(`${origin}/api/health`)
      .then((response) => response.ok)
      .catch(() => false);
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('The workspaces spec’s server did not start.');
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const child = spawn('npx', ['tsx', 'packages/server/src/main.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DOCKET_DATA_DIR: dataDir,
      AUTH_RATE_LIMIT_MAX: '1000',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let buffered = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) {
      const found = /E-mail verification link for (\S+): (\S+?)"/.exec(line);
      if (found?.[1] !== undefined && found[2] !== undefined) links.set(found[1], found[2]);
    }
  });
  server = child;
  await healthy(child);
});

test.afterAll(() => {
  server?.kill('SIGTERM');
});

/** A new account on a context of its own: its address verified, its cloud password set. */
async function member(browser: Parameters<typeof signedInDevice>[0]): Promise<{
  page: Page;
  email: string;
}> {
  const email = uniqueEmail();
  const page = await signedInDevice(browser, email, true, origin);
  await expect.poll(() => links.has(email), SOON).toBe(true);
  const link = new URL(links.get(email) ?? '');
  await page.goto(`${link.pathname}${link.search}`);
  await page.goto('/tabs/more');
  await expect(page.getByText('Set a cloud password to start syncing.')).toBeVisible(SOON);
  await submitCloudPassword(
    page,
    'Set a cloud password',
    CLOUD_PASSWORD,
    'The cloud password is set.',
  );
  return { page, email };
}

async function openWorkspaces(page: Page): Promise<void> {
  await page.goto('/tabs/more');
  await page.getByRole('link', { name: 'Workspaces', exact: true }).click();
  await expectPainted(page.getByRole('heading', { name: 'Workspaces', level: 1 }));
  await expect(page).toHaveTitle('Workspaces · Docket');
}

async function myFingerprint(page: Page): Promise<string> {
  const shown = page.getByRole('region', { name: 'Your fingerprint' }).getByRole('definition');
  await expect(shown).toHaveText(/^[a-z]+(-[a-z]+){5}$/, SOON);
  return (await shown.textContent()) ?? '';
}

function memberRow(page: Page, email: string) {
  return page.getByRole('listitem').filter({ hasText: email });
}

test('an owner invites, confirms by fingerprint and removes; refusals are shown', async ({
  browser,
}) => {
  const owner = await member(browser);
  const editor = await member(browser);
  const viewer = await member(browser);

  // The owner makes "Health team".
  await openWorkspaces(owner.page);
  await myFingerprint(owner.page);
  await owner.page.getByLabel('Name', { exact: true }).fill('Health team');
  await owner.page.getByRole('button', { name: 'New workspace' }).click();
  const team = owner.page.getByRole('link', { name: 'Health team' });
  await expect(team).toBeVisible(SOON);
  await team.click();
  await expectPainted(owner.page.getByRole('heading', { name: 'Health team', level: 1 }));
  await expect(owner.page).toHaveTitle('Health team · Docket');
  const teamUrl = owner.page.url();

  // … and invites an editor and a viewer.
  for (const [who, role] of [
    [editor.email, 'Editor'],
    [viewer.email, 'Viewer'],
  ] as const) {
    await owner.page.getByLabel('Email', { exact: true }).fill(who);
    await owner.page.getByRole('radio', { name: role }).check();
    await owner.page.getByRole('button', { name: 'Invite', exact: true }).click();
    await expect(
      owner.page.getByRole('status').filter({ hasText: `${who} is invited` }),
    ).toBeVisible(SOON);
  }

  // Both accept, naming who invited them; each waits for the owner's confirmation.
  const fingerprints = new Map<string, string>();
  for (const invitee of [editor, viewer]) {
    await openWorkspaces(invitee.page);
    fingerprints.set(invitee.email, await myFingerprint(invitee.page));
    const invitation = invitee.page.getByRole('listitem').filter({ hasText: owner.email });
    await expect(invitation).toBeVisible(SOON);
    await invitation.getByRole('button', { name: 'Accept' }).click();
    await expect(
      invitee.page.getByText('Waiting for the owner to confirm you', { exact: false }).first(),
    ).toBeVisible(SOON);
  }
  await screenshotsAtBothSizes(editor.page, 'workspaces-waiting');

  // The owner confirms each, the fingerprint on Confirm equal to the member's own.
  await owner.page.goto(teamUrl);
  for (const invitee of [editor, viewer]) {
    const row = memberRow(owner.page, invitee.email);
    await expect(row.getByRole('button', { name: 'Confirm', exact: true })).toBeVisible(SOON);
    await row.getByRole('button', { name: 'Confirm', exact: true }).click();
    const confirm = owner.page.getByRole('group', { name: `Confirm ${invitee.email}` });
    if (invitee === editor) {
      // Cancel, by keyboard, closes it unsealed and gives the focus back to Confirm.
      await expect(confirm).toBeFocused();
      await confirm.getByRole('button', { name: 'Cancel' }).focus();
      await owner.page.keyboard.press('Enter');
      await expect(confirm).toHaveCount(0);
      await expect(row.getByRole('button', { name: 'Confirm', exact: true })).toBeFocused();
      await owner.page.keyboard.press('Enter');
    }
    const shown = confirm.getByRole('definition');
    await expect(shown).toHaveText(/^[a-z]+(-[a-z]+){5}$/);
    if (invitee === editor) await screenshotsAtBothSizes(owner.page, 'workspace-confirm');
    expect(await shown.textContent()).toBe(fingerprints.get(invitee.email));
    await confirm.getByRole('button', { name: 'The words match: confirm' }).click();
    await expect(row.getByText('Confirmed')).toBeVisible(SOON);
  }

  // The members see "Health team" with their roles.
  for (const [invitee, role] of [
    [editor, 'Editor'],
    [viewer, 'Viewer'],
  ] as const) {
    await openWorkspaces(invitee.page);
    const listed = invitee.page.getByRole('listitem').filter({
      has: invitee.page.getByRole('link', { name: 'Health team' }),
    });
    await expect(listed).toContainText(role, SOON);
  }
  await screenshotsAtBothSizes(viewer.page, 'workspaces-member');

  // The workspace's own space: the owner opens it and makes a tag; the editor, in the same space,
  // sees it within one sync; the server holds it sealed. A viewer's raw push is refused.
  const teamId = decodeURIComponent(new URL(teamUrl).pathname.split('/').pop() ?? '');
  const ownerTags = await openTeamSpace(owner.page);
  await screenshotsAtBothSizes(owner.page, 'workspace-space');
  await ownerTags.open();
  await ownerTags.create('Housing');
  const editorTags = await openTeamSpace(editor.page);
  await editorTags.open();
  await expect(editorTags.row('Housing')).toBeVisible(SOON);
  // Each sees who made it and when: the owner's name to the others, "You" to the owner.
  const ownerName = owner.email.split('@')[0] ?? '';
  const madeByOwner = new RegExp(`${ownerName} · (just now|\\d+ min ago)`);
  await expect(editorTags.row('Housing')).toContainText(madeByOwner, SOON);
  await expect(ownerTags.row('Housing')).toContainText(/You · (just now|\d+ min ago)/, SOON);
  const sealedLog = async () => {
    const pulled = await owner.page.request.get(`/api/workspaces/${teamId}/sync/pull?since=0`);
    expect(pulled.status()).toBe(200);
    return JSON.stringify(await pulled.json());
  };
  expect(await sealedLog()).not.toContain('Housing');
  // The viewer opens the space by keyboard alone, reads the tag and is offered nothing that
  // changes it: no new tag, no rename, no deck to decide on.
  const viewerTags = await openTeamSpace(viewer.page, 'keyboard');
  await expect(viewer.page.getByText(VIEWER_WORDS)).toBeVisible();
  await expect(viewer.page.getByRole('button', { name: 'Track', exact: true })).toHaveCount(0);
  await viewerTags.open();
  await expect(viewerTags.row('Housing')).toBeVisible(SOON);
  await expect(viewerTags.row('Housing')).toContainText(madeByOwner, SOON);
  await expect(viewer.page.getByText(VIEWER_WORDS)).toBeVisible();
  await expect(viewer.page.getByRole('button', { name: 'New tag', exact: true })).toHaveCount(0);
  await expect(viewerTags.row('Housing').getByRole('button')).toHaveCount(0);
  await screenshotsAtBothSizes(viewer.page, 'workspace-viewer');
  await openWorkspaces(viewer.page);
  const raw = await viewer.page.request.post(`/api/workspaces/${teamId}/sync/push`, {
    data: {
      batchId: 'viewer-device.raw.1',
      deviceId: 'viewer-device',
      epoch: 1,
      envelopes: [{ id: '001796083200000-0000-viewer-device', ciphertext: 'AAAAAAAAAAAA' }],
    },
  });
  expect(raw.status()).toBe(403);

  // A viewer's invitation: the server refuses it, the screen says so, nothing changes.
  await viewer.page.getByRole('link', { name: 'Health team', exact: true }).click();
  await expectPainted(viewer.page.getByRole('heading', { name: 'Health team', level: 1 }));
  await viewer.page.getByLabel('Email', { exact: true }).fill('someone@example.test');
  await viewer.page.getByRole('button', { name: 'Invite', exact: true }).click();
  await expect(viewer.page.getByRole('alert').filter({ hasText: /only an owner/i })).toBeVisible(
    SOON,
  );
  await screenshotsAtBothSizes(viewer.page, 'workspace-refused');
  await owner.page.goto(teamUrl);
  await expect(memberRow(owner.page, viewer.email)).toBeVisible(SOON);
  await expect(memberRow(owner.page, 'someone@example.test')).toHaveCount(0);

  // The owner makes the viewer an owner too. The new owner never compared the editor's key, so
  // the editor's row says so and offers Confirm again; a new key is sealed only after that.
  // By keyboard: type to pick the role, Tab to the button, Enter; the focus then stays on the
  // choice (the button is disabled once the choice is the role).
  const viewerRow = memberRow(owner.page, viewer.email);
  const roleChoice = viewerRow.getByLabel(/^Role of /);
  await roleChoice.focus();
  await owner.page.keyboard.press('o');
  await expect(roleChoice).toHaveValue('owner');
  await owner.page.keyboard.press('Tab');
  await owner.page.keyboard.press('Enter');
  await expect(
    owner.page.getByRole('status').filter({ hasText: `${viewer.email}) is now owner.` }),
  ).toBeVisible(SOON);
  await expect(viewerRow.getByRole('button', { name: 'Change role' })).toBeDisabled();
  await expect(roleChoice).toBeFocused();
  await viewer.page.reload();
  const editorRow = memberRow(viewer.page, editor.email);
  await expect(editorRow).toContainText('You have not compared this member’s key yourself', SOON);
  await screenshotsAtBothSizes(viewer.page, 'workspace-confirm-again');
  await editorRow.getByRole('button', { name: 'Confirm again' }).click();
  const again = viewer.page.getByRole('group', { name: `Confirm ${editor.email}` });
  expect(await again.getByRole('definition').textContent()).toBe(fingerprints.get(editor.email));
  // By keyboard: Confirm again goes away once done, and the focus stays on the member's row.
  await again.getByRole('button', { name: 'The words match: confirm' }).focus();
  await viewer.page.keyboard.press('Enter');
  await expect(
    viewer.page.getByRole('status').filter({ hasText: 'is confirmed again' }),
  ).toBeVisible(SOON);
  await expect(editorRow).not.toContainText('You have not compared');
  await expect(editorRow.getByRole('button', { name: 'Confirm again' })).toHaveCount(0);
  await expect(editorRow).toBeFocused();

  // The owner removes the editor, whose list then no longer shows the workspace.
  await memberRow(owner.page, editor.email).getByRole('button', { name: 'Remove member' }).click();
  await expect(
    owner.page.getByRole('status').filter({ hasText: 'the workspace has a new key' }),
  ).toBeVisible(SOON);
  await expect(memberRow(owner.page, editor.email)).toHaveCount(0);
  await screenshotsAtBothSizes(owner.page, 'workspace-owner');
  await openWorkspaces(editor.page);
  await expect(
    editor.page.getByText('You belong to no workspace yet.', { exact: false }),
  ).toBeVisible(SOON);
  await expect(editor.page.getByRole('link', { name: 'Health team' })).toHaveCount(0);

  // The owner's tag made after the removal is sealed under the new key and never reaches the
  // editor, whose pulls the server now refuses.
  await ownerTags.open();
  await ownerTags.create('After the removal');
  await expect.poll(async () => (await sealedLog()).match(/"seqno"/g)?.length ?? 0, SOON).toBe(2);
  const refused = await editor.page.request.get(`/api/workspaces/${teamId}/sync/pull?since=0`);
  expect(refused.status()).toBe(403);
  await editorTags.open();
  await expect(editorTags.row('Housing')).toBeVisible(SOON);
  await expect(editorTags.row('After the removal')).toHaveCount(0);

  // Every file of the server's database, as it lies on disk (tables, indexes, the write-ahead
  // log): the members' addresses are there, and no word of the workspace's name or its tags.
  const stored = Buffer.concat(filesUnder(dataDir).map((file) => readFileSync(file)));
  expect(stored.includes(Buffer.from(owner.email))).toBe(true);
  for (const word of ['Health team', 'Housing', 'After the removal']) {
    expect(stored.includes(Buffer.from(word)), word).toBe(false);
  }
});

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

/**
 * Opens Health team's space from the Workspaces screen, by pointer or by keyboard alone: the page
 * loads again in it, on the Bills deck.
 */
async function openTeamSpace(
  page: Page,
  by: 'pointer' | 'keyboard' = 'pointer',
): Promise<BillTagsPage> {
  await openWorkspaces(page);
  const open = page.getByRole('button', { name: /^Open workspace Health team/ });
  if (by === 'pointer') {
    await open.click();
  } else {
    await open.focus();
    await page.keyboard.press('Enter');
  }
  await expect(page).toHaveURL(/\/tabs\/bills/, SOON);
  await expect(
    page.getByRole('link', { name: /^Health team\s?: the space you work in/ }),
  ).toBeVisible(SOON);
  return new BillTagsPage(page);
}
