import type { DeviceDataSummary } from '@docket/core/device';
import type { LiveLink } from '../public-links/link-keys-store.ts';
import { plural } from '../ui/formatting.ts';
import { deviceDataWords } from './device-data-words.ts';

// The question "Remove from this device?" at sign-out (issue 38), apart from the hook that asks
// it (sign-out-choice.ts) so its words and buttons can be tested: what is deleted, what is lost,
// and the public links made here that stay live, by name, with the offer to revoke them first.

/** "“Committee list”, “Tracked” and 1 more": the links by their backup's name, as known. */
export function linkNames(links: readonly LiveLink[]): string {
  const named = links.flatMap((link) => (link.name === null ? [] : [`“${link.name}”`]));
  if (named.length === 0) return '';
  const unnamed = links.length - named.length;
  const words = unnamed > 0 ? [...named, `${String(unnamed)} more`] : named;
  if (words.length === 1) return words[0] ?? '';
  return `${words.slice(0, -1).join(', ')} and ${words[words.length - 1] ?? ''}`;
}

/** What removing the account's work deletes, loses, and leaves live. */
export function removeMessage(summary: DeviceDataSummary, links: readonly LiveLink[]): string {
  const one = links.length === 1;
  const names = linkNames(links);
  return (
    `Your work on this device is deleted from it: ${deviceDataWords(summary)}, with the trace ` +
    'and drafts. ' +
    (summary.unsynced > 0
      ? `${plural(summary.unsynced, 'change was', 'changes were')} never synced and will be lost. `
      : 'What was synced stays on the server. ') +
    (links.length > 0
      ? `${plural(links.length, 'public link', 'public links')} made here ${one ? 'stays' : 'stay'} live${names === '' ? '' : ` (${names})`}: anyone holding ${one ? 'it' : 'them'} can still open ${one ? 'it' : 'them'} until revoked. `
      : '') +
    'Make a full backup first to keep a copy.'
  );
}

export interface RemoveAlertButton {
  readonly text: string;
  readonly role?: 'destructive' | 'cancel';
  readonly handler?: () => void;
}

export interface RemoveActions {
  /** Goes to "Make a full backup" instead. */
  readonly backUpFirst: () => void;
  /** Removes the account's work and signs out. */
  readonly remove: () => void;
  /** Revokes the links (each by id), then removes; nothing is removed if one fails. */
  readonly revokeThenRemove: (linkIds: readonly string[]) => void;
}

/** The question's header, message and buttons. */
export function removeAlert(
  summary: DeviceDataSummary,
  links: readonly LiveLink[],
  actions: RemoveActions,
): { header: string; message: string; buttons: RemoveAlertButton[] } {
  return {
    header: 'Remove from this device?',
    message: removeMessage(summary, links),
    buttons: [
      { text: 'Make a full backup first', handler: actions.backUpFirst },
      ...(links.length > 0
        ? [
            {
              text: `Revoke the ${plural(links.length, 'link')} and remove`,
              role: 'destructive' as const,
              handler: () => {
                actions.revokeThenRemove(links.map((link) => link.id));
              },
            },
          ]
        : []),
      { text: 'Remove', role: 'destructive', handler: actions.remove },
      { text: 'Cancel', role: 'cancel' },
    ],
  };
}

/** Revokes each link by its id; rejects if any could not be revoked. */
export async function revokeEach(
  linkIds: readonly string[],
  revoke: (linkId: string) => Promise<unknown>,
): Promise<void> {
  await Promise.all(linkIds.map((id) => revoke(id)));
}
