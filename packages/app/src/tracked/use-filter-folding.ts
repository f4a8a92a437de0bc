import { useId, useState } from 'react';
import { catchFallingFocus } from '../ui/falling-focus.ts';
import { useNarrowScreen } from '../ui/use-narrow-screen.ts';

// The Tracked tab's filters folded on a phone: there the filters and the order fold behind
// "Filter", so the search field, the count and the first results fit above the keyboard; what is
// chosen shows as chips. On a wider screen nothing folds.

export interface FilterFolding {
  /** Whether the screen is a phone's: only there do the filters fold. */
  readonly narrow: boolean;
  /** Whether "Filter" has unfolded them. */
  readonly open: boolean;
  /** Whether the filters are hidden now: on a phone, until "Filter" unfolds them. */
  readonly folded: boolean;
  /** The id of the "Filter" button. */
  readonly buttonId: string;
  /** The id of the panel "Filter" folds and unfolds. */
  readonly panelId: string;
  readonly setOpen: (open: boolean) => void;
  /** Folds the filters again and gives the keyboard back to "Filter". */
  readonly close: () => void;
  /** After a chip goes with its filter: the keyboard stays near, on "Filter", not on the page. */
  readonly removed: () => void;
}

/** Whether the filters fold behind "Filter" (on a phone) and its opening and closing. */
export function useFilterFolding(): FilterFolding {
  const panelId = useId();
  const narrow = useNarrowScreen();
  const [open, setOpen] = useState(false);
  const buttonId = useId();
  const filterButton = () => document.getElementById(buttonId);
  return {
    narrow,
    open,
    folded: narrow && !open,
    buttonId,
    panelId,
    setOpen,
    close: () => {
      setOpen(false);
      filterButton()?.focus();
    },
    removed: () => {
      catchFallingFocus(filterButton);
    },
  };
}
