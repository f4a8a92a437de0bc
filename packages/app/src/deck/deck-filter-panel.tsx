import { useState } from 'react';
import { deckFilterIsActive } from '@docket/core/deck';
import { DeckFilterForm, type DeckFilterFormProps } from './deck-filter-form.tsx';

/** The filter, folded away unless it was on when the deck opened; after that the user decides.
 *  Escape folds it and leaves the keyboard on "Filter" (a search field's Escape empties it first).
 *  On a phone the open filter scrolls within part of the screen (deck.css), so the count and the
 *  card stay in view below it. */
export function FilterPanel(props: DeckFilterFormProps) {
  const [openAtFirst] = useState(() => deckFilterIsActive(props.filter));
  return (
    <details
      className="deck-filter-panel"
      open={openAtFirst}
      onKeyDown={(event) => {
        const panel = event.currentTarget;
        const field = event.target;
        if (event.key !== 'Escape' || !panel.open) return;
        if (field instanceof HTMLInputElement && field.type === 'search' && field.value !== '') {
          return;
        }
        event.preventDefault();
        panel.open = false;
        panel.querySelector('summary')?.focus();
      }}
    >
      <summary>Filter</summary>
      <DeckFilterForm {...props} />
    </details>
  );
}
