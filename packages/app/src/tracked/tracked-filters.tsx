import { type ReactNode, useId, useState } from 'react';
import {
  billStatuses,
  jurisdictionName,
  sessionLabel,
  sessionOfKey,
  statusWord,
} from '@docket/core/bills';
import {
  type BillListQuery,
  type BillListSort,
  billListSorts,
  type DecisionFilter,
  decisionFilters,
} from '@docket/core/lists';
import { type Dataset, positions, type Tag } from '@docket/core/store';
import { IonToggle } from '../ui/ionic/ion-toggle.ts';
import { IonInput } from '../ui/ionic/ion-input.ts';
import { catchFallingFocus } from '../ui/falling-focus.ts';
import { useNarrowScreen } from '../ui/use-narrow-screen.ts';

// The search field, the filters, the order and the tracked/all switch. Plain selects: they are
// keyboard- and screen-reader-friendly everywhere and open the phone's own picker. On a phone the
// filters and the order fold behind one "Filter" button, and each filter chosen shows as a chip
// with its remover, so the search, the count and the first results come first.

const sortWords: Record<BillListSort, string> = {
  'latest-action': 'Latest action',
  introduced: 'Introduced',
  identifier: 'Identifier',
};
const positionWords = { support: 'Support', oppose: 'Oppose', watch: 'Watch', none: 'None' };
/** The triage lists by the names the deck's buttons give them. */
export const decisionListWords: Record<DecisionFilter, string> = {
  track: 'Tracked',
  later: 'Later',
  dismiss: 'Dismissed',
  undecided: 'Undecided',
};

export interface TrackedFiltersProps {
  readonly query: BillListQuery;
  readonly tags: readonly Tag[];
  readonly datasets: readonly Dataset[];
  readonly jurisdictions: readonly string[];
  /** The sessions held, as `sessionKey`s ("us-ak:27"). */
  readonly sessions: readonly string[];
  /** How many bills each triage list holds; null while unknown. */
  readonly decisionCounts: Readonly<Record<DecisionFilter, number>> | null;
  /** The name of the person of the sponsor filter, as a bill spells it; null or undefined while
   *  no bill held names them (or before the list answered). */
  readonly sponsorName?: string | null | undefined;
  readonly onChange: (change: Partial<BillListQuery>) => void;
}

/** Who a sponsor key stands for when no bill held names them: the id, or the folded name. */
function sponsorKeyLabel(key: string): string {
  return key.replace(/^(id|name):/, '');
}

/** One filter said in words, with its remover: the sponsor (set from a bill's details, with no
 *  field of its own) everywhere, and on a phone each filter folded behind "Filter". */
function FilterChip({
  children,
  words,
  onRemove,
}: {
  readonly children: ReactNode;
  /** The filter as the remover names it: "Remove the filter: <words>". */
  readonly words: string;
  readonly onRemove: () => void;
}) {
  return (
    <li className="tracked-chip">
      <span>{children}</span>
      <button
        type="button"
        className="tracked-chip-remove"
        aria-label={`Remove the filter: ${words}`}
        onClick={onRemove}
      >
        <span aria-hidden="true">×</span>
      </button>
    </li>
  );
}

/** A filter of the list: its select, and its chip while it narrows the list. */
interface FilterChoice {
  readonly label: string;
  readonly value: string | null;
  readonly options: readonly { readonly value: string; readonly label: string }[];
  /** The chosen value in words, when its option says more (a count). */
  readonly words?: (value: string) => string;
  readonly onChange: (value: string | null) => void;
}

function choiceWords(choice: FilterChoice, value: string): string {
  return (
    choice.words?.(value) ?? choice.options.find((option) => option.value === value)?.label ?? value
  );
}

function Choice({
  label,
  value,
  options,
  onChange,
}: {
  readonly label: string;
  readonly value: string | null;
  readonly options: readonly { readonly value: string; readonly label: string }[];
  readonly onChange: (value: string | null) => void;
}) {
  const id = useId();
  return (
    <div className="tracked-filter">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        value={value ?? ''}
        onChange={(event) => {
          onChange(event.target.value === '' ? null : event.target.value);
        }}
      >
        <option value="">Any</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
        {/* A value from a link the choices do not hold (a deleted tag) still shows. */}
        {value !== null && !options.some((option) => option.value === value) && (
          <option value={value}>{value}</option>
        )}
      </select>
    </div>
  );
}

export function TrackedFilters({
  query,
  tags,
  datasets,
  jurisdictions,
  sessions,
  decisionCounts,
  sponsorName,
  onChange,
}: TrackedFiltersProps) {
  // The field keeps what is typed; the URL follows it. Without its own state a slow URL round
  // trip could move the caret or drop a letter.
  const [text, setText] = useState(query.q);
  const [urlText, setUrlText] = useState(query.q);
  if (query.q !== urlText) {
    // The URL moved by itself (a link, "Clear filters"): the field follows it.
    setUrlText(query.q);
    if (text.trim() !== query.q.trim()) setText(query.q);
  }
  const sortId = useId();
  const panelId = useId();
  // On a phone the filters and the order fold behind "Filter", so the search field, the count
  // and the first results fit above the keyboard; what is chosen shows as chips.
  const narrow = useNarrowScreen();
  const [open, setOpen] = useState(false);
  const filterButtonId = useId();
  const filterButton = () => document.getElementById(filterButtonId);
  const folded = narrow && !open;
  const close = () => {
    setOpen(false);
    filterButton()?.focus();
  };
  /** A chip goes with its filter: the keyboard stays near, on "Filter", not on the page. */
  const removed = () => {
    catchFallingFocus(filterButton);
  };

  const choices: readonly FilterChoice[] = [
    {
      label: 'Decision',
      value: query.decision,
      options: decisionFilters.map((decision) => ({
        value: decision,
        label:
          decisionCounts === null
            ? decisionListWords[decision]
            : `${decisionListWords[decision]} (${decisionCounts[decision].toLocaleString()})`,
      })),
      words: (value) => decisionListWords[value as DecisionFilter],
      onChange: (value) => {
        onChange({ decision: value as BillListQuery['decision'] });
      },
    },
    {
      label: 'Status',
      value: query.status,
      options: billStatuses.map((status) => ({ value: status, label: statusWord(status) })),
      onChange: (value) => {
        onChange({ status: value as BillListQuery['status'] });
      },
    },
    {
      label: 'Tag',
      value: query.tagId,
      options: tags.map((tag) => ({ value: tag.id, label: tag.name })),
      onChange: (value) => {
        onChange({ tagId: value });
      },
    },
    {
      label: 'Position',
      value: query.position,
      options: positions.map((position) => ({ value: position, label: positionWords[position] })),
      onChange: (value) => {
        onChange({ position: value as BillListQuery['position'] });
      },
    },
    {
      label: 'Dataset',
      value: query.datasetId,
      options: datasets.map((dataset) => ({ value: dataset.id, label: dataset.name })),
      onChange: (value) => {
        onChange({ datasetId: value });
      },
    },
    {
      label: 'Jurisdiction',
      value: query.jurisdiction,
      options: jurisdictions.map((code) => ({ value: code, label: jurisdictionName(code) })),
      onChange: (value) => {
        // A session of another jurisdiction would leave nothing to list.
        const keep =
          query.session !== null &&
          (value === null || sessionOfKey(query.session).jurisdiction === value);
        onChange({ jurisdiction: value, ...(keep ? {} : { session: null }) });
      },
    },
    {
      label: 'Session',
      value: query.session,
      options: sessions
        .map((key) => ({ key, ...sessionOfKey(key) }))
        .filter(
          ({ jurisdiction }) => query.jurisdiction === null || jurisdiction === query.jurisdiction,
        )
        .map(({ key, jurisdiction, session }) => ({
          value: key,
          label: `${jurisdictionName(jurisdiction)} · ${sessionLabel(jurisdiction, session)}`,
        })),
      onChange: (value) => {
        onChange({ session: value });
      },
    },
  ];
  const chosen = choices.filter((choice) => choice.value !== null);

  return (
    <div className="tracked-filters">
      <div className="tracked-search-row">
        <IonInput
          className="tracked-search"
          label="Search"
          labelPlacement="stacked"
          fill="outline"
          type="search"
          inputmode="search"
          enterkeyhint="search"
          autocomplete="off"
          spellcheck={false}
          maxlength={500}
          value={text}
          onIonInput={(event) => {
            const value = event.detail.value ?? '';
            setText(value);
            onChange({ q: value });
          }}
        />
        {narrow && (
          <button
            id={filterButtonId}
            type="button"
            className="toggle-button tracked-filter-button"
            aria-expanded={open}
            aria-controls={panelId}
            onClick={() => {
              setOpen(!open);
            }}
            onKeyDown={(event) => {
              if (event.key === 'Escape' && open) {
                event.preventDefault();
                setOpen(false);
              }
            }}
          >
            Filter
            {chosen.length > 0 && ` (${chosen.length.toLocaleString()})`}
          </button>
        )}
      </div>
      <IonToggle
        className="tracked-all-toggle"
        checked={query.all}
        justify="start"
        onIonChange={(event) => {
          onChange({ all: event.detail.checked });
        }}
      >
        Show all bills, not only tracked ones
      </IonToggle>
      {(query.sponsor !== null || (narrow && chosen.length > 0)) && (
        <ul className="tracked-chips" aria-label="Active filters">
          {query.sponsor !== null && (
            <FilterChip
              words={`sponsored by ${sponsorName ?? sponsorKeyLabel(query.sponsor)}`}
              onRemove={() => {
                removed();
                onChange({ sponsor: null });
              }}
            >
              Sponsored by <bdi>{sponsorName ?? sponsorKeyLabel(query.sponsor)}</bdi>
            </FilterChip>
          )}
          {narrow &&
            chosen.map((choice) => {
              const words = choiceWords(choice, choice.value ?? '');
              return (
                <FilterChip
                  key={choice.label}
                  words={`${choice.label.toLowerCase()} ${words}`}
                  onRemove={() => {
                    removed();
                    choice.onChange(null);
                  }}
                >
                  {choice.label}: <bdi>{words}</bdi>
                </FilterChip>
              );
            })}
        </ul>
      )}
      <div
        id={panelId}
        className="tracked-filter-grid"
        hidden={folded}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && narrow && open) {
            event.preventDefault();
            close();
          }
        }}
      >
        {choices.map((choice) => (
          <Choice
            key={choice.label}
            label={choice.label}
            value={choice.value}
            options={choice.options}
            onChange={choice.onChange}
          />
        ))}
        <div className="tracked-filter">
          <label htmlFor={sortId}>Sort by</label>
          <select
            id={sortId}
            value={query.sort}
            onChange={(event) => {
              onChange({ sort: event.target.value as BillListSort });
            }}
          >
            {billListSorts.map((sort) => (
              <option key={sort} value={sort}>
                {sortWords[sort]}
              </option>
            ))}
          </select>
        </div>
      </div>
    </div>
  );
}
