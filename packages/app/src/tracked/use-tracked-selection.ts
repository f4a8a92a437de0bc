import { BillCommandError, decideBills, tagBills } from '@docket/core/commands';
import type { Tag } from '@docket/core/store';
import { useCallback, useState } from 'react';
import { editCommandContext } from '../bills/bill-command-services.ts';
import { plural } from '../ui/formatting.ts';
import { decisionListWords } from './tracked-filters.tsx';

// The Tracked list's selection and what it does with the bills picked: "Select all", "Tag
// selected" (through the tag picker) and "Track / Later / Dismiss selected", each said in a polite
// announcement. Every bulk action is one core command, one transaction: all the bills or none.

/** The lists "… selected" moves bills to: Tracked, Later or Dismissed. */
export type BulkDecision = 'track' | 'later' | 'dismiss';

export interface TrackedSelection {
  /** Whether the list shows its checkboxes ("Select" pressed). */
  readonly selecting: boolean;
  readonly selected: ReadonlySet<string>;
  /** Whether the tag picker is open for the selected bills. */
  readonly choosing: boolean;
  /** A bulk action is being written: the buttons that start another wait. */
  readonly busy: boolean;
  /** What the last action did (or why it did not), for the polite status. */
  readonly announcement: string;
  /** "Select": shows or hides the checkboxes, and starts from none selected either way. */
  readonly toggleSelecting: () => void;
  readonly toggle: (billId: string, on: boolean) => void;
  readonly selectAll: () => void;
  readonly openTagPicker: () => void;
  readonly closeTagPicker: () => void;
  /** The picker shows what this throws and stays open; it closes once the bills are tagged. */
  readonly tagSelected: (tag: Tag) => Promise<void>;
  readonly decideSelected: (decision: BulkDecision) => void;
}

const bills = (count: number) => plural(count, 'bill');

function commandMessage(error: unknown): string {
  return error instanceof BillCommandError ? error.message : 'That did not work. Try again.';
}

function decidedWords(decision: BulkDecision, count: number): string {
  return decision === 'track'
    ? `Tracked ${bills(count)}`
    : `Moved ${bills(count)} to ${decisionListWords[decision]}`;
}

/** `allIds` gives every bill of the list's current result, for "Select all". */
export function useTrackedSelection(allIds: () => Promise<readonly string[]>): TrackedSelection {
  const [selecting, setSelecting] = useState(false);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [choosing, setChoosing] = useState(false);
  const [busy, setBusy] = useState(false);
  const [announcement, setAnnouncement] = useState('');

  const toggle = useCallback((billId: string, on: boolean) => {
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(billId);
      else next.delete(billId);
      return next;
    });
  }, []);

  const selectAll = () => {
    allIds().then(
      (ids) => {
        setSelected(new Set(ids));
        setAnnouncement(`Selected ${bills(ids.length)}`);
      },
      (error: unknown) => {
        setAnnouncement(commandMessage(error));
      },
    );
  };

  const tagSelected = async (tag: Tag) => {
    const ids = [...selected];
    setBusy(true);
    try {
      await tagBills(await editCommandContext(), ids, tag.id);
      setChoosing(false);
      setAnnouncement(`Tagged ${bills(ids.length)} with ${tag.name}`);
    } finally {
      setBusy(false);
    }
  };

  const decideSelected = (decision: BulkDecision) => {
    const ids = [...selected];
    setBusy(true);
    const decide = async () => {
      try {
        await decideBills(await editCommandContext(), ids, decision);
        setAnnouncement(decidedWords(decision, ids.length));
      } catch (error) {
        setAnnouncement(commandMessage(error));
      } finally {
        setBusy(false);
      }
    };
    decide().catch(() => undefined);
  };

  return {
    selecting,
    selected,
    choosing,
    busy,
    announcement,
    toggleSelecting: () => {
      setSelecting(!selecting);
      setSelected(new Set());
    },
    toggle,
    selectAll,
    openTagPicker: () => {
      setChoosing(true);
    },
    closeTagPicker: () => {
      setChoosing(false);
    },
    tagSelected,
    decideSelected,
  };
}
