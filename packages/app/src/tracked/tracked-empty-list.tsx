import type { BillListQuery } from '@docket/core/lists';
import { IonButton } from '@ionic/react';
import { Link } from 'react-router-dom';
import { decisionListWords } from './tracked-filters.tsx';
import { withoutFilters } from './use-list-query.ts';

// What the Tracked list says when it lists no bill: why, and the way to some.

export function TrackedEmptyList({
  query,
  filtered,
  onClear,
}: {
  readonly query: BillListQuery;
  readonly filtered: boolean;
  readonly onClear: (change: Partial<BillListQuery>) => void;
}) {
  if (filtered) {
    return (
      <div className="tracked-empty">
        <h2>Nothing matches</h2>
        <p>No bill matches this search and these filters.</p>
        <IonButton
          onClick={() => {
            onClear(withoutFilters(query));
          }}
        >
          Clear filters
        </IonButton>
      </div>
    );
  }
  if (query.decision !== null && query.decision !== 'track') {
    return (
      <div className="tracked-empty">
        <h2>No bills in {decisionListWords[query.decision]}</h2>
        <p>
          Bills come here from the <Link to="/tabs/bills">Bills deck</Link> and from each bill’s
          details.
        </p>
      </div>
    );
  }
  if (query.all) {
    return (
      <div className="tracked-empty">
        <h2>No bills yet</h2>
        <p>
          Bills come from datasets. <Link to="/add-dataset">Add a dataset</Link> to import some.
        </p>
      </div>
    );
  }
  return (
    <div className="tracked-empty">
      <h2>No tracked bills yet</h2>
      <p>
        Track bills from the <Link to="/tabs/bills">Bills deck</Link> (swipe right or press
        “Track”), or show all bills here and track them from the list.
      </p>
      <IonButton
        fill="outline"
        onClick={() => {
          onClear({ all: true });
        }}
      >
        Show all bills
      </IonButton>
    </div>
  );
}
