import {
  countLink,
  defaultLinkChoices,
  describeLink,
  type LinkChoices,
  makeLinkPayload,
  publicLinkUrl,
  sealLinkContents,
  selectLinkContents,
} from '@docket/core/backups';
import type { LinkSummary } from '@docket/protocol/public-links';
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { ApiClient } from '../api/api-client.ts';
import { browserCrypto } from '../crypto/browser-crypto.ts';
import {
  forgetLinkKey,
  type KeptLink,
  loadLinkKeys,
  saveLinkKey,
} from '../public-links/link-keys-store.ts';
import { createLink, listLinks, revokeLink } from '../public-links/public-links-api.ts';
import { useAppServices } from '../services/app-services.ts';
import { type StatusToast, useStatusToast } from '../toasts/status-toast.ts';
import { useAlert } from '../ui/lazy-overlays.ts';
import { useCommand } from '../ui/use-command.ts';
import type { OpenedBackup } from './backup-actions.ts';
import { formatWhen } from './backup-words.ts';
import type { OpenedBackupState } from './use-opened-backup.ts';

// Publishing a backup as read-only links (/backup-link/:id, screens/backup-link-screen.tsx): the
// backup's links, the sharer's choices for a new one, and making, copying, sharing and revoking.
// Only what the sharer chose is sealed, with a fresh key that travels after "#" in the link; the
// server keeps the ciphertext alone.

const DAY_MS = 24 * 60 * 60 * 1000;
export const expiryChoices = [
  { value: 'never', label: 'Never', ms: null },
  { value: '1', label: 'In 1 day', ms: DAY_MS },
  { value: '7', label: 'In 7 days', ms: 7 * DAY_MS },
  { value: '30', label: 'In 30 days', ms: 30 * DAY_MS },
  { value: '365', label: 'In a year', ms: 365 * DAY_MS },
] as const;
export type Expiry = (typeof expiryChoices)[number]['value'];

/** The expiry a <select>'s value names, or undefined for any other value. */
export function expiryOf(value: string): Expiry | undefined {
  return expiryChoices.find((item) => item.value === value)?.value;
}

/** When a link made at `nowMs` expires, as the server takes it; null when it never does. */
export function expiresAtFor(expiry: Expiry, nowMs: number): string | null {
  const ms = expiryChoices.find((item) => item.value === expiry)?.ms ?? null;
  return ms === null ? null : new Date(nowMs + ms).toISOString();
}

/** "Open until …", "Expired …" or "Revoked …": a link's state for its card. */
export function linkState(link: LinkSummary, nowMs: number = Date.now()): string {
  if (link.revokedAt !== null) return `Revoked ${formatWhen(link.revokedAt)}`;
  if (link.expiresAt !== null && Date.parse(link.expiresAt) <= nowMs) {
    return `Expired ${formatWhen(link.expiresAt)}`;
  }
  return link.expiresAt === null
    ? 'Open, never expires'
    : `Open until ${formatWhen(link.expiresAt)}`;
}

/** One link as its card shows it. */
export interface LinkRow {
  readonly link: LinkSummary;
  /** What this device kept of it; undefined for a link made on another device. */
  readonly kept: KeptLink | undefined;
  /** Its fragment key, when this screen made it or this device kept it. */
  readonly key: string | null;
  /** Not revoked (an expired link is still live: it can be revoked). */
  readonly live: boolean;
  /** The address to copy or share; null without the key. */
  readonly url: string | null;
}

/** The links as their cards show them, newest first. */
export function linkRows(
  links: readonly LinkSummary[],
  kept: ReadonlyMap<string, KeptLink>,
  madeHere: ReadonlyMap<string, string>,
  origin: string,
): LinkRow[] {
  return [...links].reverse().map((link) => {
    const keptLink = kept.get(link.id);
    const key = madeHere.get(link.id) ?? keptLink?.key ?? null;
    return {
      link,
      kept: keptLink,
      key,
      live: link.revokedAt === null,
      url: key === null ? null : publicLinkUrl(origin, link.id, key),
    };
  });
}

export const createdKeptStatus =
  'Link created. Copy it and send it to whoever should see these bills.';
export const createdNotKeptStatus =
  'Link created. Copy it now and send it to whoever should see these bills: its key is not kept on this device, so it cannot be copied again once you leave this screen.';

/** What the sharer chose for the next link. */
export interface LinkRequest {
  readonly choices: LinkChoices;
  readonly expiry: Expiry;
  readonly keepLink: boolean;
}

/** Seals what was chosen of the backup, uploads it as a new link and keeps what it holds. */
export async function publishLink(
  api: ApiClient,
  backup: OpenedBackup,
  request: LinkRequest,
): Promise<{ readonly linkId: string; readonly fragmentKey: string }> {
  const linkId = crypto.randomUUID();
  // Only what the sharer chose is sealed: the rest never leaves this device.
  const payload = makeLinkPayload(backup.contents, backup.metadata, request.choices);
  const sealed = await sealLinkContents(browserCrypto, payload, linkId);
  await createLink(api, {
    id: linkId,
    backupId: backup.summary.id,
    ciphertext: sealed.ciphertext,
    expiresAt: expiresAtFor(request.expiry, Date.now()),
  });
  // What it holds is kept here beside the key: the server can only keep it sealed.
  await saveLinkKey(linkId, request.keepLink ? sealed.fragmentKey : null, {
    choices: payload.choices,
    counts: countLink(payload.contents),
  });
  return { linkId, fragmentKey: sealed.fragmentKey };
}

/** The backup's links from the server, with what this device kept of each. */
function useLinkList(api: ApiClient, backupId: string | undefined, setError: (e: string) => void) {
  const [links, setLinks] = useState<LinkSummary[] | null>(null);
  const [linkKeys, setLinkKeys] = useState<Map<string, KeptLink>>(new Map());
  const reload = useCallback(() => {
    if (backupId === undefined) return;
    listLinks(api, backupId)
      .then(async (found) => {
        setLinks(found);
        setLinkKeys(await loadLinkKeys(found.map((link) => link.id)));
      })
      .catch((failure: unknown) => {
        setError(failure instanceof Error ? failure.message : 'The links could not be loaded.');
      });
  }, [api, backupId, setError]);
  useEffect(reload, [reload]);
  return { links, linkKeys, reload };
}

/** The sharer's choices for the next link, and what a link made of them would hold. */
export interface LinkDraft extends LinkRequest {
  readonly setExpiry: (expiry: Expiry) => void;
  readonly setChoice: (key: keyof LinkChoices, checked: boolean) => void;
  readonly setKeepLink: (keep: boolean) => void;
  /** "12 bills, with …": what the link would hold, or '' until the backup is open. */
  readonly holds: string;
}

function useLinkDraft(opened: OpenedBackupState): LinkDraft {
  const [expiry, setExpiry] = useState<Expiry>('never');
  const [choices, setChoices] = useState<LinkChoices>(defaultLinkChoices);
  const [keepLink, setKeepLink] = useState(false);
  const setChoice = useCallback((key: keyof LinkChoices, checked: boolean) => {
    setChoices((current) => ({ ...current, [key]: checked }));
  }, []);
  const backupContents = opened.status === 'open' ? opened.backup.contents : null;
  const holds = useMemo(
    () =>
      backupContents === null
        ? ''
        : describeLink({ choices, contents: selectLinkContents(backupContents, choices) }),
    [backupContents, choices],
  );
  return { expiry, choices, keepLink, setExpiry, setChoice, setKeepLink, holds };
}

/** Copying and sharing a link's address; where either fails, the status says what to do. */
function useLinkSharing(toast: StatusToast, setStatus: (status: string) => void) {
  const { platform } = useAppServices();
  const copy = (url: string) => {
    navigator.clipboard.writeText(url).then(
      () => {
        setStatus('');
        toast.done('Link copied.');
      },
      () => {
        setStatus('Copying is not allowed here; select the link and copy it yourself.');
      },
    );
  };
  // On phones and in the native shells the system share sheet is the natural way on; where
  // there is none (most desktop browsers) copying is all there is.
  const canShare = platform.canShareLinks();
  const share = (url: string) => {
    platform.shareLink(url, 'Shared bills').catch((failure: unknown) => {
      console.error('Could not share a link', failure);
      setStatus('Sharing did not work here; copy the link instead.');
    });
  };
  return { canShare, copy, share };
}

/** Revoking a link, once the sharer confirmed it. */
function useRevokeLink(
  toast: StatusToast,
  reload: () => void,
  setStatus: (status: string) => void,
  setError: (error: string) => void,
) {
  const { api } = useAppServices();
  const [presentAlert] = useAlert();
  const revoke = (link: LinkSummary) => {
    revokeLink(api, link.id)
      .then(async () => {
        await forgetLinkKey(link.id);
        setStatus('');
        toast.done('Link revoked.');
        reload();
      })
      .catch((failure: unknown) => {
        setError(failure instanceof Error ? failure.message : 'The link was not revoked.');
      });
  };
  return (link: LinkSummary) => {
    presentAlert({
      header: 'Revoke link?',
      message:
        'Nobody will be able to open this link any more, including people who already have it.',
      buttons: [
        { text: 'Cancel', role: 'cancel' },
        {
          text: 'Revoke',
          role: 'destructive',
          handler: () => {
            revoke(link);
          },
        },
      ],
    }).catch((failure: unknown) => {
      console.error('Could not ask before revoking a link', failure);
    });
  };
}

export interface PublishLink {
  readonly draft: LinkDraft;
  /** Makes a link of the draft; a failure is said in `error`. */
  readonly create: () => void;
  readonly busy: boolean;
  /** What the last action did, or why a copy or share did not work. */
  readonly status: string;
  readonly error: string | null;
  /** The backup's links, newest first; null while they load. */
  readonly links: readonly LinkRow[] | null;
  /** Whether this device has a share sheet; without one, copying is the way. */
  readonly canShare: boolean;
  readonly copy: (url: string) => void;
  readonly share: (url: string) => void;
  /** Asks, then revokes the link. */
  readonly askRevoke: (link: LinkSummary) => void;
}

/** The "publish a link" use case of one backup: its links, and making, sharing, revoking them. */
export function usePublishLink(
  backupId: string | undefined,
  opened: OpenedBackupState,
): PublishLink {
  const { api } = useAppServices();
  const { busy, error, setError, run } = useCommand();
  const [status, setStatus] = useState('');
  const { links, linkKeys, reload } = useLinkList(api, backupId, setError);
  const draft = useLinkDraft(opened);
  // The keys of links made on this screen, in memory only: a link whose key is not kept can be
  // copied until the screen is left.
  const [madeHere, setMadeHere] = useState<ReadonlyMap<string, string>>(new Map());
  const toast = useStatusToast();
  const sharing = useLinkSharing(toast, setStatus);
  const askRevoke = useRevokeLink(toast, reload, setStatus, setError);

  const create = async () => {
    if (opened.status !== 'open') return;
    const linkNotCreated = (failure: unknown) =>
      failure instanceof Error ? failure.message : 'The link was not created.';
    await run(linkNotCreated, async () => {
      const { linkId, fragmentKey } = await publishLink(api, opened.backup, draft);
      setMadeHere((made) => new Map(made).set(linkId, fragmentKey));
      setStatus(draft.keepLink ? createdKeptStatus : createdNotKeptStatus);
      reload();
    });
  };

  const origin = window.location.origin;
  return {
    draft,
    create: () => {
      create().catch((failure: unknown) => {
        console.error('Could not create a link', failure);
      });
    },
    busy,
    status,
    error,
    links: links === null ? null : linkRows(links, linkKeys, madeHere, origin),
    ...sharing,
    askRevoke,
  };
}
