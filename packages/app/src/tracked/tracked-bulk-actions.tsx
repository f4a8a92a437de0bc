import type { BillListQuery } from '@docket/core/lists';
import { IonButton } from '@ionic/react';
import { plural } from '../ui/formatting.ts';
import type { TrackedSelection } from './use-tracked-selection.ts';

// The Tracked list's bar while selecting: how many are selected, "Select all", "Tag selected"
// and the lists the selected bills can move to (use-tracked-selection.ts does the work).

export function TrackedBulkActions({
  query,
  total,
  selection,
}: {
  readonly query: BillListQuery;
  readonly total: number | undefined;
  readonly selection: TrackedSelection;
}) {
  const none = selection.selected.size === 0;
  return (
    <div className="tracked-bulk" role="group" aria-label="Selected bills">
      <p>{plural(selection.selected.size, 'bill')} selected</p>
      <IonButton size="small" fill="outline" disabled={total === 0} onClick={selection.selectAll}>
        Select all
      </IonButton>
      <IonButton size="small" disabled={none || selection.busy} onClick={selection.openTagPicker}>
        Tag selected
      </IonButton>
      {(query.all || (query.decision !== null && query.decision !== 'track')) && (
        <IonButton
          size="small"
          fill="outline"
          disabled={none || selection.busy}
          onClick={() => {
            selection.decideSelected('track');
          }}
        >
          Track selected
        </IonButton>
      )}
      {/* Set aside from any list but their own: Later or Dismissed, as on the deck. */}
      {(['later', 'dismiss'] as const)
        .filter((decision) => query.decision !== decision)
        .map((decision) => (
          <IonButton
            key={decision}
            size="small"
            fill="outline"
            disabled={none || selection.busy}
            onClick={() => {
              selection.decideSelected(decision);
            }}
          >
            {decision === 'later' ? 'Later selected' : 'Dismiss selected'}
          </IonButton>
        ))}
    </div>
  );
}
