import { spawn, type ChildProcess } from 'node:child_process';
import type { ServerResponse } from 'node:http';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { uniqueEmail } from './pages/login-page.ts';
import { AnnotationPage } from './pages/annotation-page.ts';
import { BillDetailsPage } from './pages/bill-details-page.ts';
import { BillTagsPage } from './pages/bill-tags-page.ts';
import { AddDatasetPage, DatasetsPage, JobsPage } from './pages/dataset-pages.ts';
import { deckSample } from './pages/deck-page.ts';
import { TrackedPage } from './pages/tracked-page.ts';
import { SourceSimulatorServer, type SimulatedRequest } from './source-simulator.ts';
import { expectPainted, screenshotsAtBothSizes } from './pages/painted.ts';
import {
  cloudPasswordModal,
  expectCloudPasswordNotice,
  modalNamed,
  SOON,
  signedInDevice,
  submitCloudPassword,
  typeCloudPassword,
} from './pages/sync-device.ts';

// Team workspaces, membership (issue 39): three accounts on three browser contexts. The owner
// makes "Health team" and invites an editor and a viewer; both accept; the owner confirms each
// after comparing the fingerprint shown on its Confirm with the one the member sees as "Your
// fingerprint"; the members then see the workspace with their roles; the owner and the editor
// open the workspace's own space (the header's switcher names it), where the owner's tag reaches
// the editor within one sync, sealed on the server; the owner adds the team's dataset from a URL,
// which the editor's and the viewer's devices download themselves (they may not add or delete
// one); the editor tags a bill and gives a position with its reason, which the owner reads with
// the editor's name, and shares by public link, whose reader sees the workspace's name and no
// member's; the viewer, in the space too, reads them with no control that changes them,
// and a raw push from the viewer's session is refused 403; a
// viewer's invitation is refused by the server and the refusal is shown; the owner makes the
// viewer an owner, who must compare the editor's fingerprint and "Confirm again" before any new
// key goes to the editor; the owner removes the editor (the new key sealed only to keys the owner
// confirmed), whose list then no longer shows it, whose pulls are refused, and to whose device
// the owner's next tag and reason never come. The server's database files, read from the disk,
// hold no word of the workspace's name, its tags, reasons, dataset or bills.
//
// Invitations go to verified addresses only. This spec runs a server of its own (PGlite, its own
// folder) that logs at info, where the server without SMTP writes each verification link
// (mail-sender.ts), and each account follows its link as a person would from their mailbox.

// Three cloud passwords (Argon2id, twice each) take most of the time on a busy machine.
test.describe.configure({ timeout: 600_000 });

const VIEWER_WORDS =
  'You are a viewer in this workspace: you read its bills, tags and notes; an editor or an owner changes them.';
const SPACE_GONE_WORDS =
  'You are no longer a member of the workspace you were working in: its copy on this device was deleted, and you are back in your personal space.';
const DELETED_WORDS =
  'The workspace is deleted, for every member: its copy on this device goes too, and you are back in your personal space.';
const DATASET_OWNER_WORDS =
  'In this workspace an owner adds, changes and deletes datasets; your device fetches their bills itself.';
const TEAM_BILL = 'us-ca/2025-2026/ab-1';
const TEAM_DATASET = 'California team bills';
const EDITOR_WHY = 'Renters pay for meters nobody tests';
const EDITOR_PASSAGE = 'Meter Accuracy';
const EDITOR_NOTE = 'Ask the utility what a test costs';
const OWNER_WHY_AFTER = 'Hearing moved after the removal';

/** A file host on 127.0.0.1 (CORS open) serving a hand-made Docket CSV, which each member's
 *  device downloads itself: the server never sees the bills. */
class TeamSource extends SourceSimulatorServer<string> {
  private readonly body = readFileSync(deckSample('deck-small.csv'));
  protected answer(request: SimulatedRequest, response: ServerResponse): string {
    response.setHeader('access-control-allow-origin', '*');
    response.setHeader('content-type', 'text/csv');
    response.end(this.body);
    return request.url.pathname;
  }
}

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
  // Each sees who made it and when: "You" to the owner, the owner's name to the others.
  await expect(ownerTags.row('Housing')).toContainText(/You · (just now|\d+ min ago)/, SOON);
  // Backups made in the space are the workspace's, listed and restored only there.
  await owner.page.goto('/tabs/backups');
  await expect(owner.page.getByText(/^Backups made here hold this workspace’s work/)).toBeVisible();
  // The owner adds the team's dataset, from a URL: only its definition is synced.
  const source = new TeamSource();
  const sourceUrl = `${await source.start()}/team-feed/california.csv`;
  await owner.page.goto('/datasets');
  await owner.page.getByRole('link', { name: 'New dataset' }).click();
  const form = new AddDatasetPage(owner.page);
  await form.waitForForm();
  await expect(owner.page.getByLabel('Files', { exact: true })).toHaveCount(0);
  await form.name().fill(TEAM_DATASET);
  await form.url().fill(sourceUrl);
  await form.importAndOpenJobs();
  await new JobsPage(owner.page).expectStatus(TEAM_DATASET, 'Done');
  const editorTags = await openTeamSpace(editor.page);
  await editorTags.open();
  await expect(editorTags.row('Housing')).toBeVisible(SOON);
  const ownerName = owner.email.split('@')[0] ?? '';
  const madeByOwner = new RegExp(`${ownerName} · (just now|\\d+ min ago)`);
  await expect(editorTags.row('Housing')).toContainText(madeByOwner, SOON);
  const sealedLog = async () => {
    const pulled = await owner.page.request.get(`/api/workspaces/${teamId}/sync/pull?since=0`);
    expect(pulled.status()).toBe(200);
    return JSON.stringify(await pulled.json());
  };
  expect(await sealedLog()).not.toContain('Housing');
  // The editor's device fetches the team's dataset itself, and manages none of it.
  const editorDatasets = new DatasetsPage(editor.page);
  await editorDatasets.open();
  await expect(editor.page.getByText(DATASET_OWNER_WORDS)).toBeVisible();
  await expect(editor.page.getByRole('link', { name: 'New dataset' })).toHaveCount(0);
  await expect(editorDatasets.dataset(TEAM_DATASET)).toContainText('3 bills', SOON);
  await expect(
    editorDatasets.dataset(TEAM_DATASET).getByRole('button', { name: 'Delete dataset' }),
  ).toHaveCount(0);
  await screenshotsAtBothSizes(editor.page, 'workspace-editor-datasets');
  expect(source.requests.length).toBeGreaterThanOrEqual(2);
  // The editor tags the bill and takes a position with a reason.
  const editorBill = new BillDetailsPage(editor.page);
  await editorBill.openBill(TEAM_BILL, 'AB 1');
  await editorBill.addTag('Housing', { create: false });
  await editorBill.position('Support').check();
  await editorBill.why().fill(EDITOR_WHY);
  await expect(editorBill.reasonSaved()).toBeVisible(SOON);
  await editorBill.decisionButton('Track').click();
  // Kept on the device before the editor leaves the page (a page load cuts off a write in flight).
  await expect(editorBill.decisionButton('Track')).toHaveAttribute('aria-pressed', 'true');
  // The editor highlights a passage of the bill's title and writes a note on it.
  const editorNotes = new AnnotationPage(editor.page);
  await editorNotes.open(TEAM_BILL);
  await editorNotes.selectWithMouse(EDITOR_PASSAGE);
  await editorNotes.note().fill(EDITOR_NOTE);
  await editorNotes.save().click();
  await expect(editorNotes.status('Highlight saved.')).toBeVisible(SOON);
  // The owner reads them with the editor's name.
  const editorName = editor.email.split('@')[0] ?? '';
  const byEditor = new RegExp(`${editorName} · (just now|\\d+ min ago)`);
  const ownerBill = new BillDetailsPage(owner.page);
  await ownerBill.openBill(TEAM_BILL, 'AB 1');
  await expect(ownerBill.tagsOnBill().getByRole('listitem')).toContainText(byEditor, SOON);
  await expect(ownerBill.section('Your position')).toContainText(
    new RegExp(`Support · ${editorName}`),
    SOON,
  );
  await expect(ownerBill.why()).toHaveValue(EDITOR_WHY, SOON);
  // The bill's notes say they are the team's, not the owner's own.
  await expect(ownerBill.section('Annotations')).toContainText(
    'Team notes: every member of this workspace reads them.',
  );
  // The editor's note reaches the owner with the editor's name.
  const ownerNotes = new AnnotationPage(owner.page);
  await ownerNotes.open(TEAM_BILL);
  await expect(ownerNotes.highlights().getByRole('listitem')).toContainText(EDITOR_NOTE, SOON);
  await expect(ownerNotes.highlights().getByRole('listitem')).toContainText(
    new RegExp(`Highlighted · ${editorName}`),
    SOON,
  );
  // Tracked names who took the position too.
  const ownerTracked = new TrackedPage(owner.page);
  await ownerTracked.open();
  await expect(ownerTracked.row('AB 1')).toContainText(
    new RegExp(`Position: Support · ${editorName}`),
    SOON,
  );
  await screenshotsAtBothSizes(owner.page, 'workspace-bill-by-editor');
  // The More tab counts what teammates did since the owner last looked; Activity says it, by
  // keyboard, and "Mark all as seen" clears the count.
  const moreTab = owner.page.getByRole('tab', { name: /^More/ });
  await expect(moreTab).toHaveAccessibleName(
    /^More\s+\d+ changes? by teammates not yet seen$/,
    SOON,
  );
  await owner.page.goto('/tabs/more/activity');
  await expect(owner.page.getByRole('heading', { level: 1, name: 'Activity' })).toBeVisible();
  const activity = owner.page.getByRole('list', { name: 'What teammates did' });
  for (const done of [
    'tracked AB 1',
    'took the position Support on AB 1',
    'tagged AB 1 “Housing”',
  ]) {
    await expect(activity.getByRole('listitem').filter({ hasText: done })).toContainText(
      new RegExp(`New ${editorName} ${done} · (just now|\\d+ min ago)`),
      SOON,
    );
  }
  await expect(
    owner.page.getByText(/\d+ changes? by teammates since you last looked\./),
  ).toBeVisible();
  await screenshotsAtBothSizes(owner.page, 'workspace-activity');
  const markSeen = owner.page.getByRole('button', { name: 'Mark all as seen' });
  await markSeen.focus();
  await owner.page.keyboard.press('Enter');
  await expect(owner.page.getByText('Nothing new since you last looked.')).toBeVisible(SOON);
  // The button is gone; the focus is on the words that say why, not lost to the page.
  await expect(owner.page.getByText('Nothing new since you last looked.')).toBeFocused();
  await expect(activity.getByText(/^New /)).toHaveCount(0);
  await expect(moreTab).toHaveAccessibleName(/^More$/, SOON);
  await ownerTracked.open();
  // The owner shares the list by public link: a reader sees the workspace's name, no member's.
  await owner.page.getByRole('button', { name: 'Share', exact: true }).click();
  const sheet = modalNamed(owner.page, 'Share this list');
  await sheet.getByRole('button', { name: 'Create link', exact: true }).click();
  const linkField = sheet.getByLabel('Link', { exact: true });
  await expect(linkField).toBeVisible({ timeout: 60_000 });
  const link = await linkField.inputValue();
  const readerContext = await browser.newContext();
  const reader = await readerContext.newPage();
  await reader.goto(link);
  await expect(reader.getByRole('heading', { level: 1, name: /^Tracked/ })).toBeVisible(SOON);
  await expect(reader.getByText('From Health team', { exact: true })).toBeVisible();
  await expect(reader.getByRole('heading', { name: /^AB 1:/ })).toBeVisible();
  for (const address of [owner.email, editor.email, ownerName, editorName]) {
    expect(await reader.content()).not.toContain(address);
  }
  await screenshotsAtBothSizes(reader, 'workspace-public-link');
  await readerContext.close();
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
  // … and the bill as the editor left it, with the editor's name, and nothing to change it by.
  const viewerBill = new BillDetailsPage(viewer.page);
  await viewerBill.openBill(TEAM_BILL, 'AB 1');
  await expect(viewerBill.tagsOnBill().getByRole('listitem')).toContainText(byEditor, SOON);
  await expect(viewerBill.section('Your position')).toContainText(EDITOR_WHY, SOON);
  await expect(viewerBill.section('Your position')).toContainText(
    new RegExp(`Support · ${editorName}`),
  );
  for (const control of [viewerBill.addTagButton(), viewerBill.removeTagButton('Housing')]) {
    await expect(control).toHaveCount(0);
  }
  await expect(viewer.page.getByRole('radio')).toHaveCount(0);
  await expect(viewer.page.getByRole('button', { name: 'Annotate' })).toHaveCount(0);
  await screenshotsAtBothSizes(viewer.page, 'workspace-viewer-bill');
  // The viewer reads the editor's note with the editor's name, and is offered no highlight to make.
  const viewerNotes = new AnnotationPage(viewer.page);
  await viewerNotes.open(TEAM_BILL);
  await expect(viewerNotes.highlights().getByRole('listitem')).toContainText(
    new RegExp(`Highlighted · ${editorName}`),
    SOON,
  );
  await expect(viewerNotes.highlights()).toContainText(EDITOR_NOTE);
  await expect(viewer.page.getByText(VIEWER_WORDS)).toBeVisible();
  // Titled for reading, with no hint of keys that select a passage to highlight.
  await expect(viewerNotes.heading()).toHaveText('Highlights');
  await expect(viewer.page.getByText(/Shift/)).toHaveCount(0);
  await expect(viewerNotes.note()).toHaveCount(0);
  await expect(viewerNotes.save()).toHaveCount(0);
  await screenshotsAtBothSizes(viewer.page, 'workspace-viewer-annotation');
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
  // The editor's page worked in the team's space: it loads again in the personal space and
  // says why, and the space's database leaves the device.
  await editor.page.goto('/tabs/more/workspaces');
  await expect(editor.page.getByText(SPACE_GONE_WORDS)).toBeVisible(SOON);
  await expect(
    editor.page.getByText('You belong to no workspace yet.', { exact: false }),
  ).toBeVisible(SOON);
  await expect(editor.page.getByRole('link', { name: 'Health team' })).toHaveCount(0);
  await screenshotsAtBothSizes(editor.page, 'workspace-removed');
  await expect.poll(() => spaceDatabases(editor.page), SOON).toEqual([]);

  // The owner's tag made after the removal is sealed under the new key and never reaches the
  // editor, whose pulls the server now refuses.
  const logLength = async () => (await sealedLog()).match(/"seqno"/g)?.length ?? 0;
  const before = await logLength();
  await ownerTags.open();
  await ownerTags.create('After the removal');
  await ownerBill.openBill(TEAM_BILL, 'AB 1');
  await ownerBill.why().fill(OWNER_WHY_AFTER);
  await expect(ownerBill.reasonSaved()).toBeVisible(SOON);
  // Both reach the member who stays (the former viewer, an owner now) before the editor looks.
  await expect.poll(logLength, SOON).toBeGreaterThan(before);
  await viewerBill.openBill(TEAM_BILL, 'AB 1');
  await expect(viewerBill.why()).toHaveValue(OWNER_WHY_AFTER, SOON);
  await viewerTags.open();
  await expect(viewerTags.row('After the removal')).toBeVisible(SOON);
  const refused = await editor.page.request.get(`/api/workspaces/${teamId}/sync/pull?since=0`);
  expect(refused.status()).toBe(403);
  // Nothing of the team is on the editor's device: not what it had, not what came after.
  await editorTags.open();
  await expect(editorTags.list().or(editor.page.getByText('No tags yet'))).toBeVisible(SOON);
  for (const tag of ['Housing', 'After the removal']) {
    await expect(editorTags.row(tag)).toHaveCount(0);
  }
  await editorBill.open(TEAM_BILL);
  await expect(editor.page.getByText(EDITOR_WHY)).toHaveCount(0);
  await expect(editor.page.getByText(OWNER_WHY_AFTER)).toHaveCount(0);
  expect(await spaceDatabases(editor.page)).toEqual([]);

  await source.stop();

  // Every file of the server's database, as it lies on disk (tables, indexes, the write-ahead
  // log): the members' addresses are there, and no word of the workspace's name or its tags.
  const stored = Buffer.concat(filesUnder(dataDir).map((file) => readFileSync(file)));
  expect(stored.includes(Buffer.from(owner.email))).toBe(true);
  for (const word of [
    'Health team',
    'Housing',
    'After the removal',
    EDITOR_WHY,
    OWNER_WHY_AFTER,
    TEAM_DATASET,
    'team-feed/california.csv',
    'Water Meter Accuracy Act',
  ]) {
    expect(stored.includes(Buffer.from(word)), word).toBe(false);
  }

  // The owner deletes the workspace, after a question that names it: the owner's page, which
  // worked in its space, loads again in the personal space and says so, and the space's database
  // leaves the device; the other owner's list no longer has it.
  // By keyboard alone: Escape leaves the question with nothing deleted.
  await owner.page.goto(teamUrl);
  const deleteWorkspace = owner.page.getByRole('button', { name: 'Delete workspace' });
  const question = owner.page.getByRole('alertdialog', { name: 'Delete workspace?' });
  await deleteWorkspace.focus();
  await owner.page.keyboard.press('Enter');
  await expect(question).toContainText('Health team');
  await screenshotsAtBothSizes(owner.page, 'workspace-delete-question');
  await owner.page.keyboard.press('Escape');
  await expect(question).toHaveCount(0);
  // Focus is back on the button that asked: Enter asks again.
  await expect(deleteWorkspace).toBeFocused();
  await owner.page.keyboard.press('Enter');
  const confirmDelete = question.getByRole('button', { name: 'Delete workspace' });
  await expect(question).toBeVisible();
  await tabTo(owner.page, confirmDelete);
  await owner.page.keyboard.press('Enter');
  await expect(owner.page.getByText(DELETED_WORDS)).toBeVisible(SOON);
  await expect(owner.page).toHaveURL(/\/tabs\/more\/workspaces$/);
  await expect.poll(() => spaceDatabases(owner.page), SOON).toEqual([]);
  await viewer.page.goto('/tabs/more/workspaces');
  await expect(viewer.page.getByText(SPACE_GONE_WORDS)).toBeVisible(SOON);
  await expect(viewer.page.getByRole('link', { name: 'Health team' })).toHaveCount(0);
});

/** Presses Tab until `target` has the focus, as a person moving through a dialog's buttons. */
async function tabTo(page: Page, target: Locator): Promise<void> {
  for (let press = 0; press < 6; press += 1) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  await expect(target).toBeFocused();
}

/** The team workspaces' databases this browser holds (their names end `.space-` and hex). */
async function spaceDatabases(page: Page): Promise<string[]> {
  const names = await page.evaluate(async () =>
    (await indexedDB.databases()).map((database) => database.name ?? ''),
  );
  return names.filter((name) => name.includes('.space-'));
}

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
  await expect(page.getByRole('link', { name: /^Health team: the space you work in/ })).toBeVisible(
    SOON,
  );
  return new BillTagsPage(page);
}

// A cloud-password reset loses nothing of a team (issue 39): the only owner resets from a new
// device; that device makes the account a new member key (its fingerprint new, and said so), and
// the workspace waits; no owner holds its key, so the confirmed editor is shown the owner to
// confirm back, compares the new fingerprint and confirms; the owner reads the workspace again.
test('an only owner who resets the cloud password is confirmed back by an editor', async ({
  browser,
}) => {
  const owner = await member(browser);
  const editor = await member(browser);
  await openWorkspaces(owner.page);
  const before = await myFingerprint(owner.page);
  await owner.page.getByLabel('Name', { exact: true }).fill('Reset team');
  await owner.page.getByRole('button', { name: 'New workspace' }).click();
  await owner.page.getByRole('link', { name: 'Reset team' }).click();
  await expectPainted(owner.page.getByRole('heading', { name: 'Reset team', level: 1 }));
  const teamUrl = owner.page.url();
  await owner.page.getByLabel('Email', { exact: true }).fill(editor.email);
  await owner.page.getByRole('radio', { name: 'Editor' }).check();
  await owner.page.getByRole('button', { name: 'Invite', exact: true }).click();
  await expect(owner.page.getByRole('status').filter({ hasText: 'is invited' })).toBeVisible(SOON);
  await openWorkspaces(editor.page);
  await editor.page
    .getByRole('listitem')
    .filter({ hasText: owner.email })
    .getByRole('button', { name: 'Accept' })
    .click();
  await expect(editor.page.getByText('Waiting for the owner to confirm you').first()).toBeVisible(
    SOON,
  );
  await owner.page.goto(teamUrl);
  const editorRow = memberRow(owner.page, editor.email);
  await editorRow.getByRole('button', { name: 'Confirm', exact: true }).click();
  await owner.page
    .getByRole('group', { name: `Confirm ${editor.email}` })
    .getByRole('button', { name: 'The words match: confirm' })
    .click();
  await expect(editorRow.getByText('Confirmed')).toBeVisible(SOON);

  // The owner, on a new device without the cloud password, resets it.
  const fresh = await signedInDevice(browser, owner.email, false, origin);
  await fresh.getByRole('button', { name: 'Cloud password', exact: true }).click();
  const modal = cloudPasswordModal(fresh);
  await modal.getByRole('button', { name: 'Reset', exact: true }).click();
  await typeCloudPassword(fresh, 'a fresh start for the team');
  await modal.getByRole('button', { name: 'Reset password' }).click();
  await fresh.getByRole('alertdialog').getByRole('button', { name: 'Confirm' }).click();
  await expectCloudPasswordNotice(fresh, 'The cloud password is reset.');
  await openWorkspaces(fresh);
  const after = await myFingerprint(fresh);
  expect(after).not.toBe(before);
  await expect(fresh.getByText(/Docket made you a new key/)).toBeVisible();
  await expect(
    fresh.getByText(/^No owner holds this workspace’s key since your cloud password was reset/),
  ).toBeVisible(SOON);
  await screenshotsAtBothSizes(fresh, 'workspaces-new-key');

  // The editor keeps the workspace: the owner to confirm back, and nothing else to manage.
  await openWorkspaces(editor.page);
  await editor.page.getByRole('link', { name: 'Reset team' }).click();
  await expect(editor.page.getByText(/^No owner holds this workspace’s key/)).toBeVisible(SOON);
  const ownerRow = memberRow(editor.page, owner.email);
  await expect(editor.page.getByRole('button', { name: 'Remove member' })).toHaveCount(0);
  await ownerRow.getByRole('button', { name: 'Confirm', exact: true }).click();
  const confirm = editor.page.getByRole('group', { name: `Confirm ${owner.email}` });
  await expect(confirm.getByRole('definition')).toHaveText(after);
  await screenshotsAtBothSizes(editor.page, 'workspace-keeper-confirm');
  await confirm.getByRole('button', { name: 'The words match: confirm' }).click();
  await expect(
    editor.page.getByText(/is confirmed: the workspace key is sealed to them/),
  ).toBeVisible(SOON);

  // The owner reads the workspace again, as its owner.
  await openWorkspaces(fresh);
  const listed = fresh.getByRole('listitem').filter({
    has: fresh.getByRole('link', { name: 'Reset team' }),
  });
  await expect(listed).toContainText('Owner', SOON);
  await expect(listed.getByRole('button', { name: /^Open workspace Reset team/ })).toBeVisible();
});
