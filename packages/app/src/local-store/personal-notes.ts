import type { Annotation, LocalStore } from '@docket/core/store';
import { useEffect, useState } from 'react';
import { activeAccountDatabase, activeWorkspaceId } from './account-databases.ts';
import { openIndexedDbLocalStore } from './indexeddb-local-store.ts';

// A bill's notes in the account's personal space, read from a team workspace's space (issue 39):
// the page works in the workspace's database, and the personal one is opened beside it, only to
// read, so a person sees their own notes next to the team's. Nothing is written there from here;
// its rows are sealed under the same account's vault as the workspace's.

let opened: { readonly name: string; readonly store: Promise<LocalStore> } | null = null;

function personalStore(name: string): Promise<LocalStore> {
  if (opened?.name !== name) {
    const store = openIndexedDbLocalStore({ name }).catch((error: unknown) => {
      opened = null;
      throw error;
    });
    opened = { name, store };
  }
  return opened.store;
}

/**
 * The bill's annotations in the personal space, oldest first; null when the page works in the
 * personal space itself (its own notes are those) or nobody is signed in.
 */
export async function readPersonalAnnotations(billId: string): Promise<Annotation[] | null> {
  const personal = activeAccountDatabase();
  if (activeWorkspaceId() === null || personal === null) return null;
  const store = await personalStore(personal);
  const rows = await store.read(['annotations'], (tx) => tx.where('annotations', 'billId', billId));
  return rows.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
}

export type PersonalNotes =
  | { readonly status: 'none' }
  | { readonly status: 'reading' }
  | { readonly status: 'read'; readonly annotations: readonly Annotation[] }
  | { readonly status: 'failed'; readonly message: string };

/** `readPersonalAnnotations` for a screen, read again when the bill changes. */
export function usePersonalAnnotations(billId: string): PersonalNotes {
  const [notes, setNotes] = useState<{ of: string; value: PersonalNotes } | null>(null);
  useEffect(() => {
    let live = true;
    readPersonalAnnotations(billId).then(
      (annotations) => {
        if (!live) return;
        setNotes({
          of: billId,
          value: annotations === null ? { status: 'none' } : { status: 'read', annotations },
        });
      },
      (error: unknown) => {
        console.error('Could not read the personal notes', error);
        if (!live) return;
        setNotes({
          of: billId,
          value: {
            status: 'failed',
            message: `Your personal notes could not be read here: ${
              error instanceof Error ? error.message : String(error)
            }. Open your personal space to see them.`,
          },
        });
      },
    );
    return () => {
      live = false;
    };
  }, [billId]);
  if (notes?.of === billId) return notes.value;
  return activeWorkspaceId() === null ? { status: 'none' } : { status: 'reading' };
}
