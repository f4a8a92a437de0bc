import { IonButton } from '@ionic/react';
import { useEffect, useId, useRef, useState } from 'react';
import {
  type BillStatus,
  billStatuses,
  type Chamber,
  jurisdictionName,
  sessionLabel,
  sessionOfKey,
  statusWord,
} from '@docket/core/bills';
import {
  DECK_FILTER_TEXT_LIMIT,
  type DeckFilter,
  deckFilterIsActive,
  type DeckOrder,
  emptyDeckFilter,
} from '@docket/core/deck';
import type { Dataset } from '@docket/core/store';

// The deck's filter. Native selects and inputs: they are labelled, keyboard-driven and announced
// the same everywhere. Typed text is applied after a pause, so each keystroke does not start a
// new pass over the bills.

const TYPING_PAUSE_MS = 300;

const chamberChoices: readonly { value: Chamber; label: string }[] = [
  { value: 'upper', label: 'Senate (upper)' },
  { value: 'lower', label: 'House or Assembly (lower)' },
  { value: 'legislature', label: 'Unicameral legislature' },
];

const orderChoices: readonly { value: DeckOrder; label: string }[] = [
  { value: 'recent', label: 'Most recent activity first' },
  { value: 'place', label: 'By jurisdiction and session' },
];

export interface DeckFilterFormProps {
  readonly filter: DeckFilter;
  readonly onChange: (filter: DeckFilter) => void;
  readonly datasets: readonly Dataset[];
  readonly jurisdictions: readonly string[];
  /** The sessions held, as `sessionKey`s ("us-ak:34"). */
  readonly sessions: readonly string[];
}

export function DeckFilterForm({
  filter,
  onChange,
  datasets,
  jurisdictions,
  sessions,
}: DeckFilterFormProps) {
  const id = useId();
  const [search, setSearch] = useState(filter.search);
  const [subject, setSubject] = useState(filter.subject);
  // The latest filter, for the typing timer to build on (the user may change a select meanwhile).
  const latest = useRef(filter);
  useEffect(() => {
    latest.current = filter;
  }, [filter]);
  // A filter changed from outside (cleared) resets the typed text; adjusted while rendering, as
  // React advises for state derived from props.
  const [applied, setApplied] = useState({ search: filter.search, subject: filter.subject });
  if (applied.search !== filter.search || applied.subject !== filter.subject) {
    setApplied({ search: filter.search, subject: filter.subject });
    setSearch(filter.search);
    setSubject(filter.subject);
  }
  useEffect(() => {
    if (search === latest.current.search && subject === latest.current.subject) return;
    const timer = setTimeout(() => {
      onChange({ ...latest.current, search, subject });
    }, TYPING_PAUSE_MS);
    return () => {
      clearTimeout(timer);
    };
  }, [search, subject, onChange]);

  const change = (changes: Partial<DeckFilter>) => {
    onChange({ ...filter, search, subject, ...changes });
  };
  const active = deckFilterIsActive({ ...filter, search, subject });
  const field = (name: string) => `${id}-${name}`;

  return (
    <form
      className="deck-filter"
      aria-label="Deck filter"
      onSubmit={(event) => {
        event.preventDefault();
        change({});
      }}
    >
      <div className="deck-filter-field deck-filter-field--wide">
        <label htmlFor={field('search')}>Search the deck</label>
        <input
          id={field('search')}
          type="search"
          value={search}
          maxLength={DECK_FILTER_TEXT_LIMIT}
          autoComplete="off"
          onChange={(event) => {
            setSearch(event.target.value);
          }}
        />
      </div>
      <div className="deck-filter-field">
        <label htmlFor={field('dataset')}>Dataset</label>
        <select
          id={field('dataset')}
          value={filter.datasetId ?? ''}
          onChange={(event) => {
            change({ datasetId: event.target.value === '' ? null : event.target.value });
          }}
        >
          <option value="">Any dataset</option>
          {datasets.map((dataset) => (
            <option key={dataset.id} value={dataset.id}>
              {dataset.name}
            </option>
          ))}
        </select>
      </div>
      <div className="deck-filter-field">
        <label htmlFor={field('jurisdiction')}>Jurisdiction</label>
        <select
          id={field('jurisdiction')}
          value={filter.jurisdiction ?? ''}
          onChange={(event) => {
            const jurisdiction = event.target.value === '' ? null : event.target.value;
            // A session of another jurisdiction would leave no card to deal.
            const keep =
              filter.session !== null &&
              (jurisdiction === null || sessionOfKey(filter.session).jurisdiction === jurisdiction);
            change({ jurisdiction, ...(keep ? {} : { session: null }) });
          }}
        >
          <option value="">Any jurisdiction</option>
          {jurisdictions.map((code) => (
            <option key={code} value={code}>
              {jurisdictionName(code)}
            </option>
          ))}
        </select>
      </div>
      <div className="deck-filter-field">
        <label htmlFor={field('session')}>Session</label>
        <select
          id={field('session')}
          value={filter.session ?? ''}
          onChange={(event) => {
            change({ session: event.target.value === '' ? null : event.target.value });
          }}
        >
          <option value="">Any session</option>
          {sessions
            .map((key) => ({ key, ...sessionOfKey(key) }))
            .filter(
              ({ jurisdiction }) =>
                filter.jurisdiction === null || jurisdiction === filter.jurisdiction,
            )
            .map(({ key, jurisdiction, session }) => (
              <option key={key} value={key}>
                {`${jurisdictionName(jurisdiction)} · ${sessionLabel(jurisdiction, session)}`}
              </option>
            ))}
        </select>
      </div>
      <div className="deck-filter-field">
        <label htmlFor={field('status')}>Status</label>
        <select
          id={field('status')}
          value={filter.status ?? ''}
          onChange={(event) => {
            const value = event.target.value;
            change({
              status: (billStatuses as readonly string[]).includes(value)
                ? (value as BillStatus)
                : null,
            });
          }}
        >
          <option value="">Any status</option>
          {billStatuses.map((status) => (
            <option key={status} value={status}>
              {statusWord(status)}
            </option>
          ))}
        </select>
      </div>
      <div className="deck-filter-field">
        <label htmlFor={field('chamber')}>Chamber</label>
        <select
          id={field('chamber')}
          value={filter.chamber ?? ''}
          onChange={(event) => {
            const choice = chamberChoices.find((item) => item.value === event.target.value);
            change({ chamber: choice?.value ?? null });
          }}
        >
          <option value="">Any chamber</option>
          {chamberChoices.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </select>
      </div>
      <div className="deck-filter-field">
        <label htmlFor={field('subject')}>Subject</label>
        <input
          id={field('subject')}
          type="text"
          value={subject}
          maxLength={DECK_FILTER_TEXT_LIMIT}
          autoComplete="off"
          onChange={(event) => {
            setSubject(event.target.value);
          }}
        />
      </div>
      <div className="deck-filter-field">
        <label htmlFor={field('order')}>Order</label>
        <select
          id={field('order')}
          value={filter.order}
          onChange={(event) => {
            const choice = orderChoices.find((item) => item.value === event.target.value);
            change({ order: choice?.value ?? emptyDeckFilter.order });
          }}
        >
          {orderChoices.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </select>
      </div>
      <div className="deck-filter-check">
        <input
          id={field('later')}
          type="checkbox"
          checked={filter.includeLater}
          onChange={(event) => {
            change({ includeLater: event.target.checked });
          }}
        />
        <label htmlFor={field('later')}>Include bills saved for later</label>
      </div>
      <IonButton
        fill="outline"
        size="small"
        disabled={!active && !filter.includeLater}
        onClick={() => {
          setSearch('');
          setSubject('');
          // The order is how the user likes to work through the deck, not a narrowing: it stays.
          onChange({ ...emptyDeckFilter, order: filter.order });
        }}
      >
        Clear filter
      </IonButton>
    </form>
  );
}
