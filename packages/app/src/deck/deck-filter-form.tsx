import { IonButton } from '@ionic/react';
import { useEffect, useId, useRef, useState } from 'react';
import {
  type BillStatus,
  billStatuses,
  type Chamber,
  jurisdictionName,
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
import { jurisdictionChange, sessionChoices } from '../bills/place-choices.ts';

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

/** A field's choice: the value it stands for and its words. */
interface FieldOption {
  readonly value: string;
  readonly label: string;
}

/** The filter changed by a field, with the text typed so far. */
type FilterChange = (changes: Partial<DeckFilter>) => void;

/** What a group of the filter's fields is given: their ids, the filter and the way to change it. */
interface FieldsProps {
  /** The id of the field of that name. */
  readonly field: (name: string) => string;
  readonly filter: DeckFilter;
  readonly change: FilterChange;
}

/** A select's "Any …" option, '', as no narrowing. */
function anyAsNull(value: string): string | null {
  return value === '' ? null : value;
}

/**
 * The filter's typed text (search and subject): kept as typed, and applied after a pause, so
 * each keystroke does not start a new pass over the bills; a filter changed from outside
 * (cleared) resets it.
 */
function useTypedText(filter: DeckFilter, onChange: (filter: DeckFilter) => void) {
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
  return { search, subject, setSearch, setSubject };
}

/** The deck's filter form: its fields, and "Clear filter", which keeps the order. */
export function DeckFilterForm({
  filter,
  onChange,
  datasets,
  jurisdictions,
  sessions,
}: DeckFilterFormProps) {
  const id = useId();
  const { search, subject, setSearch, setSubject } = useTypedText(filter, onChange);
  const change = (changes: Partial<DeckFilter>) => {
    onChange({ ...filter, search, subject, ...changes });
  };
  const active = deckFilterIsActive({ ...filter, search, subject });
  const field = (name: string) => `${id}-${name}`;
  const fields = { field, filter, change };

  return (
    <form
      className="deck-filter"
      aria-label="Deck filter"
      onSubmit={(event) => {
        event.preventDefault();
        change({});
      }}
    >
      <TextField
        id={field('search')}
        label="Search the deck"
        type="search"
        wide
        value={search}
        onChange={setSearch}
      />
      <PlaceFields
        {...fields}
        datasets={datasets}
        jurisdictions={jurisdictions}
        sessions={sessions}
      />
      <BillFields {...fields} />
      <TextField
        id={field('subject')}
        label="Subject"
        type="text"
        value={subject}
        onChange={setSubject}
      />
      <OrderFields {...fields} />
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

/** A field of typed text, applied after a pause (`useTypedText`). */
function TextField({
  id,
  label,
  type,
  wide = false,
  value,
  onChange,
}: {
  readonly id: string;
  readonly label: string;
  readonly type: 'search' | 'text';
  /** Whether it takes a row of its own. */
  readonly wide?: boolean;
  readonly value: string;
  readonly onChange: (value: string) => void;
}) {
  return (
    <div className={wide ? 'deck-filter-field deck-filter-field--wide' : 'deck-filter-field'}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type={type}
        value={value}
        maxLength={DECK_FILTER_TEXT_LIMIT}
        autoComplete="off"
        onChange={(event) => {
          onChange(event.target.value);
        }}
      />
    </div>
  );
}

/** A select of the filter, with its label; "Any …" first where it may narrow nothing. */
function SelectField({
  id,
  label,
  value,
  anyLabel,
  options,
  onChange,
}: {
  readonly id: string;
  readonly label: string;
  readonly value: string;
  /** The first option's words ("Any dataset"), its value ''; none where a value is always chosen. */
  readonly anyLabel?: string;
  readonly options: readonly FieldOption[];
  readonly onChange: (value: string) => void;
}) {
  return (
    <div className="deck-filter-field">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        value={value}
        onChange={(event) => {
          onChange(event.target.value);
        }}
      >
        {anyLabel !== undefined && <option value="">{anyLabel}</option>}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Where the bills come from: "Dataset", "Jurisdiction" and "Session" (the chosen place's). */
function PlaceFields({
  field,
  filter,
  change,
  datasets,
  jurisdictions,
  sessions,
}: FieldsProps & Pick<DeckFilterFormProps, 'datasets' | 'jurisdictions' | 'sessions'>) {
  return (
    <>
      <SelectField
        id={field('dataset')}
        label="Dataset"
        value={filter.datasetId ?? ''}
        anyLabel="Any dataset"
        options={datasets.map((dataset) => ({ value: dataset.id, label: dataset.name }))}
        onChange={(value) => {
          change({ datasetId: anyAsNull(value) });
        }}
      />
      <SelectField
        id={field('jurisdiction')}
        label="Jurisdiction"
        value={filter.jurisdiction ?? ''}
        anyLabel="Any jurisdiction"
        options={jurisdictions.map((code) => ({ value: code, label: jurisdictionName(code) }))}
        onChange={(value) => {
          // A session of another jurisdiction would leave no card to deal.
          change(jurisdictionChange(filter.session, anyAsNull(value)));
        }}
      />
      <SelectField
        id={field('session')}
        label="Session"
        value={filter.session ?? ''}
        anyLabel="Any session"
        options={sessionChoices(sessions, filter.jurisdiction)}
        onChange={(value) => {
          change({ session: anyAsNull(value) });
        }}
      />
    </>
  );
}

/** What the bills are: "Status" and "Chamber". */
function BillFields({ field, filter, change }: FieldsProps) {
  return (
    <>
      <SelectField
        id={field('status')}
        label="Status"
        value={filter.status ?? ''}
        anyLabel="Any status"
        options={billStatuses.map((status) => ({ value: status, label: statusWord(status) }))}
        onChange={(value) => {
          change({
            status: (billStatuses as readonly string[]).includes(value)
              ? (value as BillStatus)
              : null,
          });
        }}
      />
      <SelectField
        id={field('chamber')}
        label="Chamber"
        value={filter.chamber ?? ''}
        anyLabel="Any chamber"
        options={chamberChoices}
        onChange={(value) => {
          const choice = chamberChoices.find((item) => item.value === value);
          change({ chamber: choice?.value ?? null });
        }}
      />
    </>
  );
}

/** How the deck deals: "Order" and "Include bills saved for later". */
function OrderFields({ field, filter, change }: FieldsProps) {
  return (
    <>
      <SelectField
        id={field('order')}
        label="Order"
        value={filter.order}
        options={orderChoices}
        onChange={(value) => {
          const choice = orderChoices.find((item) => item.value === value);
          change({ order: choice?.value ?? emptyDeckFilter.order });
        }}
      />
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
    </>
  );
}
