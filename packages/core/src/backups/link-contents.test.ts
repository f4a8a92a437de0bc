import { describe, expect, it } from 'vitest';
import { createAnnotation } from '../commands/annotation-commands.ts';
import { setPosition, setPositionReason } from '../commands/position-commands.ts';
import { createTag, tagBills } from '../commands/tag-commands.ts';
import { dismissBill, laterBill, trackBill } from '../commands/triage-commands.ts';
import {
  BackupOpenError,
  openBytes,
  packContents,
  sealBytes,
  unpackJson,
} from './backup-crypto.ts';
import { linkSealContext, openLinkContents, sealLinkContents } from './public-link-crypto.ts';
import type { OpaqueCryptoKey, WebCryptoPort } from '../crypto/web-crypto.ts';
import { decodeBase64, encodeBase64 } from '../encoding/base64.ts';
import { billIdOf, storeWithBills, T0 } from '../test-support/bill-command-harness.ts';
import {
  BackupContentsError,
  buildBackupContents,
  type BackupContents,
} from './backup-contents.ts';
import {
  countLink,
  defaultLinkChoices,
  describeLink,
  describeLinkCounts,
  linkCountsSchema,
  LINK_FORMAT,
  makeLinkPayload,
  makeListLinkPayload,
  parseLinkPayload,
  selectLinkContents,
  type LinkChoices,
} from './link-contents.ts';

const crypto = (globalThis as unknown as { crypto: WebCryptoPort }).crypto;

const TRACKED_NOTE = 'Call the sponsor before the hearing';
const DISMISSED_NOTE = 'Dead on arrival, keep this to ourselves';
const LONE_NOTE = 'Only a note on this one';
const REASON = 'Protects the <b>aquifer</b>; see the hearing';

// Bill 1 tracked, tagged, supported and noted; 2 for later, tagged; 3 dismissed, with a tag of
// its own, a position and a note; 4 undecided with only a note; 5 with only a cleared position;
// 6 untouched. A tag nobody carries.
async function workedStore() {
  const { store, context } = await storeWithBills(6);
  const water = await createTag(context, { name: 'Water', color: '#1a7f37' });
  const kill = await createTag(context, { name: 'Kill it', color: '#cf222e' });
  await createTag(context, { name: 'Unused', color: '#0969da' });
  await trackBill(context, billIdOf(1));
  await laterBill(context, billIdOf(2));
  await dismissBill(context, billIdOf(3));
  await tagBills(context, [billIdOf(1), billIdOf(2)], water.id);
  await tagBills(context, [billIdOf(3)], kill.id);
  await setPosition(context, billIdOf(1), 'support');
  await setPositionReason(context, billIdOf(1), REASON);
  await setPosition(context, billIdOf(3), 'oppose');
  await setPosition(context, billIdOf(5), 'none');
  const note = (number: number, text: string) =>
    createAnnotation(context, {
      billId: billIdOf(number),
      target: 'title',
      start: 0,
      end: 6,
      color: '#ffcc00',
      note: text,
    });
  await note(1, TRACKED_NOTE);
  await note(3, DISMISSED_NOTE);
  await note(4, LONE_NOTE);
  return store;
}

async function workedContents(): Promise<BackupContents> {
  return buildBackupContents(await workedStore(), new Date(T0).toISOString());
}

const billsOf = (contents: BackupContents) => contents.bills.map((bill) => bill.id).sort();
const tagNames = (contents: BackupContents) => contents.tags.map((tag) => tag.name).sort();
const notesOf = (contents: BackupContents) => contents.annotations.map((row) => row.note).sort();
const choose = (change: Partial<LinkChoices>): LinkChoices => ({
  ...defaultLinkChoices,
  ...change,
});

describe('what a link shares', () => {
  it('by default: the kept bills with tags, positions, marks and notes; no dismissed bill', async () => {
    const contents = await workedContents();
    expect(defaultLinkChoices).toEqual({ dismissedBills: false, decisions: true, notes: true });
    const shared = selectLinkContents(contents, defaultLinkChoices);
    expect(billsOf(shared)).toEqual([billIdOf(1), billIdOf(2), billIdOf(4)]);
    expect(tagNames(shared)).toEqual(['Water']);
    expect(shared.billTags.map((row) => row.billId).sort()).toEqual([billIdOf(1), billIdOf(2)]);
    expect(shared.positions.map((row) => [row.billId, row.position])).toEqual([
      [billIdOf(1), 'support'],
    ]);
    expect(shared.decisions.map((row) => [row.billId, row.decision]).sort()).toEqual([
      [billIdOf(1), 'track'],
      [billIdOf(2), 'later'],
    ]);
    expect(notesOf(shared)).toEqual([TRACKED_NOTE, LONE_NOTE].sort());
    // Never the owner's sources, their datasets or the sync clocks.
    expect(contents.datasets.length + Object.keys(contents.clocks).length).toBeGreaterThan(0);
    expect(shared.datasets).toEqual([]);
    expect(shared.clocks).toEqual({});
    expect(shared.bills.every((bill) => bill.datasetIds.length === 0)).toBe(true);
    expect(shared.createdAt).toBe(contents.createdAt);
  });

  it('with dismissed bills: the dismissed bill, its own tag, position, mark and note', async () => {
    const shared = selectLinkContents(await workedContents(), choose({ dismissedBills: true }));
    expect(billsOf(shared)).toEqual([billIdOf(1), billIdOf(2), billIdOf(3), billIdOf(4)]);
    expect(tagNames(shared)).toEqual(['Kill it', 'Water']);
    expect(shared.positions.map((row) => row.billId).sort()).toEqual([billIdOf(1), billIdOf(3)]);
    expect(shared.decisions.find((row) => row.billId === billIdOf(3))?.decision).toBe('dismiss');
    expect(notesOf(shared)).toContain(DISMISSED_NOTE);
  });

  it('without decisions: the same bills, with no marks', async () => {
    const contents = await workedContents();
    const shared = selectLinkContents(contents, choose({ decisions: false }));
    expect(shared.decisions).toEqual([]);
    expect(billsOf(shared)).toEqual(billsOf(selectLinkContents(contents, defaultLinkChoices)));
    const withDismissed = selectLinkContents(
      contents,
      choose({ decisions: false, dismissedBills: true }),
    );
    expect(billsOf(withDismissed)).toContain(billIdOf(3));
    expect(withDismissed.decisions).toEqual([]);
  });

  it('without notes: no annotation, and no bill that was there only for its note', async () => {
    const shared = selectLinkContents(await workedContents(), choose({ notes: false }));
    expect(shared.annotations).toEqual([]);
    expect(billsOf(shared)).toEqual([billIdOf(1), billIdOf(2)]);
  });

  it('says what it holds', async () => {
    const contents = await workedContents();
    const words = (choices: LinkChoices) =>
      describeLink({ choices, contents: selectLinkContents(contents, choices) });
    expect(words(defaultLinkChoices)).toBe(
      '1 tracked bill, 1 bill for later, 1 other bill, 1 tag, 1 position, notes included',
    );
    expect(words(choose({ notes: false }))).toBe(
      '1 tracked bill, 1 bill for later, 1 tag, 1 position, notes left out',
    );
    expect(words(choose({ decisions: false, dismissedBills: true }))).toBe(
      '4 bills, 2 tags, 2 positions, notes included, decisions left out',
    );
    expect(describeLink({ choices: null, contents: { ...contents, bills: [] } })).toMatch(
      /^no bills, 3 tags/,
    );
    // The same words from the counts and choices a device keeps beside a link's key.
    for (const choices of [defaultLinkChoices, choose({ notes: false, decisions: false })]) {
      const counts = countLink(selectLinkContents(contents, choices));
      expect(linkCountsSchema.parse(JSON.parse(JSON.stringify(counts)))).toEqual(counts);
      expect(describeLinkCounts(counts, choices)).toBe(words(choices));
    }
    expect(linkCountsSchema.safeParse({ bills: -1 }).success).toBe(false);
    expect(countLink(selectLinkContents(contents, choose({ dismissedBills: true })))).toEqual({
      bills: 4,
      tracked: 1,
      later: 1,
      dismissed: 1,
      undecided: 1,
      tags: 2,
      positions: 2,
      notes: 3,
    });
  });
});

async function rawPayload(ciphertext: string, fragmentKey: string, linkId: string) {
  const raw = decodeBase64(fragmentKey) ?? new Uint8Array();
  const key: OpaqueCryptoKey = await crypto.subtle.importKey(
    'raw',
    new Uint8Array(raw),
    { name: 'AES-GCM' },
    false,
    ['decrypt'],
  );
  const sealed = decodeBase64(ciphertext) ?? new Uint8Array();
  return unpackJson(await openBytes(crypto, key, sealed, linkSealContext(linkId)));
}

describe('a shared list (the Tracked tab\'s "Share")', () => {
  const at = new Date(T0).toISOString();

  it("its backup holds exactly the listed bills, in the list's order, with their rows only", async () => {
    const store = await workedStore();
    const dataset = (id: string, name: string) => ({
      id,
      name,
      origin: { kind: 'url' as const, url: `https://example.org/${id}.json` },
      jurisdiction: 'us',
      session: '119',
      format: 'congress-json',
      billCount: 6,
      lastImportAt: at,
      lastJobId: null,
      state: 'ready' as const,
      createdAt: at,
      updatedAt: at,
    });
    await store.write(['datasets'], (tx) =>
      tx.putMany('datasets', [dataset('dataset-1', 'Congress'), dataset('dataset-2', 'Other')]),
    );
    // The list showed bill 2 (Later), then 1 (Tracked), then 6 (untouched, as in "All bills").
    const listed = [billIdOf(2), billIdOf(1), billIdOf(6)];
    const contents = await buildBackupContents(store, at, { billIds: listed });
    expect(contents.bills.map((bill) => bill.id)).toEqual(listed);
    expect(tagNames(contents)).toEqual(['Water']);
    expect(contents.decisions.map((row) => row.billId).sort()).toEqual([billIdOf(1), billIdOf(2)]);
    expect(contents.positions.map((row) => row.billId)).toEqual([billIdOf(1)]);
    expect(notesOf(contents)).toEqual([TRACKED_NOTE]);
    // Nothing of the bills left out: not the dismissed bill's tag, note or clocks.
    const text = JSON.stringify(contents);
    for (const absent of [DISMISSED_NOTE, LONE_NOTE, 'Kill it', 'Unused', billIdOf(3)]) {
      expect(text).not.toContain(absent);
    }
    // The sharer's own backup keeps the datasets and clocks of those bills, as a backup does.
    expect(contents.datasets.map((row) => row.id)).toEqual(['dataset-1']);
    expect(Object.keys(contents.clocks).length).toBeGreaterThan(0);
    // An empty list is an empty backup, not the whole of it.
    const none = await buildBackupContents(store, at, { billIds: [] });
    expect(none.bills.length + none.tags.length + none.decisions.length).toBe(0);
  });

  it('its link holds every listed bill, marked a list, without sources, clocks or left-out notes', async () => {
    const store = await workedStore();
    const listed = [billIdOf(3), billIdOf(6)];
    const contents = await buildBackupContents(store, at, { billIds: listed });
    const title = { name: 'Dismissed · Kill it', description: '' };
    const payload = makeListLinkPayload(contents, title, { notes: false });
    const { ciphertext, fragmentKey } = await sealLinkContents(crypto, payload, 'list-1');
    const decrypted = JSON.stringify(await rawPayload(ciphertext, fragmentKey, 'list-1'));
    expect(decrypted).not.toContain(DISMISSED_NOTE);
    expect(decrypted).not.toContain('dataset-1');
    const opened = await openLinkContents(crypto, ciphertext, fragmentKey, 'list-1');
    expect(opened).toMatchObject({ kind: 'list', name: 'Dismissed · Kill it' });
    // The untouched bill 6 is there too: the list chose the bills, not the user's rows.
    expect(opened.contents.bills.map((bill) => bill.id)).toEqual(listed);
    expect(opened.contents.bills.every((bill) => bill.datasetIds.length === 0)).toBe(true);
    expect(opened.contents.datasets).toEqual([]);
    expect(opened.contents.clocks).toEqual({});
    expect(opened.contents.annotations).toEqual([]);
    expect(describeLink(opened)).toBe(
      '1 dismissed bill, 1 other bill, 1 tag, 1 position, notes left out',
    );
    const withNotes = makeListLinkPayload(contents, title, { notes: true });
    expect(notesOf(withNotes.contents)).toEqual([DISMISSED_NOTE]);
    // From the personal space: no workspace, in the bytes or on the page.
    expect(decrypted).not.toContain('workspace');
    expect(opened.workspace).toBeNull();
  });

  it('names the team workspace it was shared from, and a damaged name is refused', async () => {
    const store = await workedStore();
    const contents = await buildBackupContents(store, at, { billIds: [billIdOf(3)] });
    const payload = makeListLinkPayload(
      contents,
      { name: 'Tracked', description: '', workspace: '  Health team ' },
      { notes: false },
    );
    const { ciphertext, fragmentKey } = await sealLinkContents(crypto, payload, 'list-2');
    const opened = await openLinkContents(crypto, ciphertext, fragmentKey, 'list-2');
    expect(opened.workspace).toBe('Health team');
    // A blank name is left out, not sealed empty.
    expect(
      makeListLinkPayload(
        contents,
        { name: 'T', description: '', workspace: ' ' },
        { notes: false },
      ).workspace,
    ).toBeUndefined();
    for (const workspace of ['', 'x'.repeat(201), 7]) {
      expect(() => parseLinkPayload({ ...payload, workspace })).toThrow(BackupContentsError);
    }
  });
});

describe('a sealed link', () => {
  it('carries the name and description, and what was left out is absent from its bytes', async () => {
    const contents = await workedContents();
    const payload = makeLinkPayload(
      contents,
      { name: 'Water bills', description: 'For the coalition' },
      choose({ notes: false }),
    );
    const { ciphertext, fragmentKey } = await sealLinkContents(crypto, payload, 'link-1');
    // Decrypted by hand, as anyone holding the link could: no note, no dismissed bill.
    const decrypted = JSON.stringify(await rawPayload(ciphertext, fragmentKey, 'link-1'));
    expect(decrypted).toContain('"format":"docket-public-link"');
    for (const absent of [TRACKED_NOTE, LONE_NOTE, DISMISSED_NOTE, 'Kill it', 'Unused']) {
      expect(decrypted).not.toContain(absent);
    }
    expect(decrypted).not.toContain(billIdOf(3));
    expect(decrypted).not.toContain('dataset-1');
    const opened = await openLinkContents(crypto, ciphertext, fragmentKey, 'link-1');
    expect(opened).toMatchObject({
      kind: 'backup',
      name: 'Water bills',
      description: 'For the coalition',
      backedUpAt: contents.createdAt,
      choices: { dismissedBills: false, decisions: true, notes: false },
    });
    expect(opened.contents).toEqual(payload.contents);
    // A position goes with its reason, as the owner typed it.
    expect(opened.contents.positions).toEqual([
      expect.objectContaining({ billId: billIdOf(1), position: 'support', reason: REASON }),
    ]);

    const withEverything = makeLinkPayload(
      contents,
      { name: 'All', description: '' },
      choose({ dismissedBills: true }),
    );
    const sealed = await sealLinkContents(crypto, withEverything, 'link-2');
    const all = JSON.stringify(await rawPayload(sealed.ciphertext, sealed.fragmentKey, 'link-2'));
    expect(all).toContain(DISMISSED_NOTE);
    expect(all).toContain(billIdOf(3));
  });

  it('made before names and choices (a bare backup) still opens, without a name', async () => {
    const contents = selectLinkContents(await workedContents(), defaultLinkChoices);
    const raw = crypto.getRandomValues(new Uint8Array(32));
    const key = await crypto.subtle.importKey('raw', raw, { name: 'AES-GCM' }, false, ['encrypt']);
    const sealed = await sealBytes(crypto, key, packContents(contents), linkSealContext('old'));
    const fragmentKey = encodeBase64(raw)
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
      .replace(/=+$/, '');
    const opened = await openLinkContents(crypto, encodeBase64(sealed), fragmentKey, 'old');
    expect(opened).toMatchObject({ name: null, description: '', choices: null });
    expect(opened.contents).toEqual(contents);
  });

  it('cut short or changed on the way says so', async () => {
    const payload = makeLinkPayload(
      await workedContents(),
      { name: 'Water bills', description: '' },
      defaultLinkChoices,
    );
    const { ciphertext, fragmentKey } = await sealLinkContents(crypto, payload, 'link-1');
    const bytes = decodeBase64(ciphertext) ?? new Uint8Array();
    const half = encodeBase64(bytes.slice(0, Math.floor(bytes.length / 2)));
    await expect(openLinkContents(crypto, half, fragmentKey, 'link-1')).rejects.toThrow(
      /what the server sent was changed/,
    );
    const stub = encodeBase64(bytes.slice(0, 10));
    const cut = openLinkContents(crypto, stub, fragmentKey, 'link-1');
    await expect(cut).rejects.toBeInstanceOf(BackupOpenError);
    await expect(cut).rejects.toThrow('This link is damaged: what the server sent is cut short.');
  });

  it('refuses a damaged envelope or one from a newer version, with words for the viewer', () => {
    const good = {
      format: LINK_FORMAT,
      version: 1,
      name: 'Water bills',
      description: '',
      choices: defaultLinkChoices,
    };
    expect(() => parseLinkPayload({ ...good, version: 2, contents: {} })).toThrow(/newer version/);
    expect(() => parseLinkPayload({ ...good, name: '', contents: {} })).toThrow(
      /its name or choices are not valid/,
    );
    expect(() => parseLinkPayload({ format: 'something' })).toThrow(/does not hold shared bills/);
    expect(() => parseLinkPayload(null)).toThrow(/does not hold shared bills/);
    expect(() => parseLinkPayload({ ...good, contents: { format: 'docket-backup' } })).toThrow(
      /damaged/,
    );
  });
});
