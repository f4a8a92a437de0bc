import { defaultLinkChoices } from '@docket/core/backups';
import { type RefObject, useEffect, useRef, useState } from 'react';
import type { BackupKeys } from '../backups/backup-keys.ts';
import { useAppServices } from '../services/app-services.ts';
import { useStatusToast } from '../toasts/status-toast.ts';
import { focusControl } from '../ui/falling-focus.ts';
import { shareListAsLink, type SharedListLink } from './share-list-action.ts';

// The making of the link on the sheet "Share" opens on the Tracked tab: its steps (to confirm,
// being made, made, failed), "Create link", then "Share link" (the platform's share sheet) or
// "Copy link", and the focus on that next tap once the link is made.

/** Where the sheet is: what goes out said, the link being made, made, or not made. */
export type SharePhase =
  | { readonly step: 'confirm' }
  | { readonly step: 'making' }
  | { readonly step: 'made'; readonly link: SharedListLink }
  | { readonly step: 'failed'; readonly message: string };

export interface ShareListLink {
  readonly phase: SharePhase;
  /** Whether the highlights and notes on the bills' text go too ("Notes"). */
  readonly notes: boolean;
  readonly setNotes: (notes: boolean) => void;
  /** Why sharing or copying the made link did not work; '' when it did. */
  readonly status: string;
  /** The next tap once the link is made ("Share link", else "Copy link"): it takes the focus. */
  readonly next: RefObject<HTMLIonButtonElement | null>;
  /** Whether the platform has a share sheet for links. */
  readonly canShare: boolean;
  /** "Create link": the list's bills sealed and uploaded as a backup with a link to it. */
  readonly create: (owner: Extract<BackupKeys, { readonly status: 'ready' }>) => Promise<void>;
  /** "Copy link": the link to the clipboard. */
  readonly copy: (url: string) => void;
  /** "Share link": the link to the platform's share sheet. */
  readonly share: (url: string) => void;
}

/** The link to the list named `name`, whose bills `allIds` reads when it is made. */
export function useShareListLink(name: string, allIds: () => Promise<string[]>): ShareListLink {
  const { api, platform } = useAppServices();
  const toast = useStatusToast();
  const [notes, setNotes] = useState(defaultLinkChoices.notes);
  const [phase, setPhase] = useState<SharePhase>({ step: 'confirm' });
  const [status, setStatus] = useState('');
  const next = useRef<HTMLIonButtonElement>(null);

  // Once made, the focus goes to the next tap: "Share link", or "Copy link" where there is none.
  const made = phase.step === 'made';
  useEffect(() => {
    if (made) focusControl(next.current);
  }, [made]);

  const create = async (owner: Extract<BackupKeys, { readonly status: 'ready' }>) => {
    setPhase({ step: 'making' });
    setStatus('');
    try {
      const billIds = await allIds();
      if (billIds.length === 0) throw new Error('The list shows no bills now: nothing to share.');
      const link = await shareListAsLink({
        api,
        userId: owner.userId,
        keys: owner.keys,
        name,
        billIds,
        notes,
        origin: window.location.origin,
      });
      setPhase({ step: 'made', link });
    } catch (failure) {
      setPhase({
        step: 'failed',
        message: failure instanceof Error ? failure.message : 'The link was not created.',
      });
    }
  };

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

  const share = (url: string) => {
    platform.shareLink(url, name).catch((failure: unknown) => {
      console.error('Could not share a link', failure);
      setStatus('Sharing did not work here; copy the link instead.');
    });
  };

  return {
    phase,
    notes,
    setNotes,
    status,
    next,
    canShare: platform.canShareLinks(),
    create,
    copy,
    share,
  };
}
