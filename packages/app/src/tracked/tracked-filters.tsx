import { type ReactNode, useId, useState } from 'react';
import { billStatuses, jurisdictionName, statusWord } from '@docket/core/bills';
import {
  type BillListQuery,
  type BillListSort,
  billListSorts,
  type DecisionFilter,
  decisionFilters,
} from '@docket/core/lists';
import { type Dataset, positions, type Tag } from '@docket/core/store';
import { jurisdictionChange, sessionChoices } from '../bills/place-choices.ts';
import { IonToggle } from '../ui/ionic/ion-toggle.ts';
import { IonInput } from '../ui/ionic/ion-input.ts';
import { type FilterFolding, useFilterFolding } from './use-filter-folding.ts';

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

type QueryChange = TrackedFiltersProps['onChange'];

/** "Decision": the triage lists, each with how many bills it holds once that is known. */
function decisionChoice(
  decision: BillListQuery['decision'],
  decisionCounts: TrackedFiltersProps['decisionCounts'],
  onChange: QueryChange,
): FilterChoice {
  return {
    label: 'Decision',
    value: decision,
    options: decisionFilters.map((option) => ({
      value: option,
      label:
        decisionCounts === null
          ? decisionListWords[option]
          : `${decisionListWords[option]} (${decisionCounts[option].toLocaleString()})`,
    })),
    words: (value) => decisionListWords[value as DecisionFilter],
    onChange: (value) => {
      onChange({ decision: value as BillListQuery['decision'] });
    },
  };
}

/** "Jurisdiction" and "Session": the jurisdictions held, and the sessions of the chosen one. */
function placeChoices(
  query: BillListQuery,
  jurisdictions: readonly string[],
  sessions: readonly string[],
  onChange: QueryChange,
): readonly FilterChoice[] {
  return [
    {
      label: 'Jurisdiction',
      value: query.jurisdiction,
      options: jurisdictions.map((code) => ({ value: code, label: jurisdictionName(code) })),
      onChange: (value) => {
        onChange(jurisdictionChange(query.session, value));
      },
    },
    {
      label: 'Session',
      value: query.session,
      options: sessionChoices(sessions, query.jurisdiction),
      onChange: (value) => {
        onChange({ session: value });
      },
    },
  ];
}

/** Every filter of the list, in the order the panel shows them. */
function filterChoices({
  query,
  tags,
  datasets,
  jurisdictions,
  sessions,
  decisionCounts,
  onChange,
}: TrackedFiltersProps): readonly FilterChoice[] {
  return [
    decisionChoice(query.decision, decisionCounts, onChange),
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
    ...placeChoices(query, jurisdictions, sessions, onChange),
  ];
}

/**
 * The search field's text: the field keeps what is typed and the URL's `q` follows it. Without
 * its own state a slow URL round trip could move the caret or drop a letter.
 */
function useSearchText(q: string): readonly [string, (text: string) => void] {
  const [text, setText] = useState(q);
  const [urlText, setUrlText] = useState(q);
  if (q !== urlText) {
    // The URL moved by itself (a link, "Clear filters"): the field follows it.
    setUrlText(q);
    if (text.trim() !== q.trim()) setText(q);
  }
  return [text, setText];
}

/** The Tracked tab's search field, filters, order and tracked/all switch. */
export function TrackedFilters(props: TrackedFiltersProps) {
  const { query, sponsorName, onChange } = props;
  const [text, setText] = useSearchText(query.q);
  const folding = useFilterFolding();
  const choices = filterChoices(props);
  const chosen = choices.filter((choice) => choice.value !== null);

  return (
    <div className="tracked-filters">
      <SearchRow
        text={text}
        chosen={chosen.length}
        folding={folding}
        onText={(value) => {
          setText(value);
          onChange({ q: value });
        }}
      />
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
      <ActiveFilters
        sponsor={query.sponsor}
        sponsorName={sponsorName}
        chips={folding.narrow ? chosen : []}
        onRemoved={folding.removed}
        onChange={onChange}
      />
      <FilterPanel folding={folding} choices={choices} sort={query.sort} onChange={onChange} />
    </div>
  );
}

/** The search field and, on a phone, "Filter" with how many filters are chosen. */
function SearchRow({
  text,
  chosen,
  folding,
  onText,
}: {
  readonly text: string;
  /** How many filters narrow the list. */
  readonly chosen: number;
  readonly folding: FilterFolding;
  readonly onText: (text: string) => void;
}) {
  const { narrow, open, setOpen } = folding;
  return (
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
          onText(event.detail.value ?? '');
        }}
      />
      {narrow && (
        <button
          id={folding.buttonId}
          type="button"
          className="toggle-button tracked-filter-button"
          aria-expanded={open}
          aria-controls={folding.panelId}
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
          {chosen > 0 && ` (${chosen.toLocaleString()})`}
        </button>
      )}
    </div>
  );
}

/** The filters in words, each with its remover: the sponsor's, and the chosen ones on a phone. */
function ActiveFilters({
  sponsor,
  sponsorName,
  chips,
  onRemoved,
  onChange,
}: {
  readonly sponsor: string | null;
  readonly sponsorName: string | null | undefined;
  /** The chosen filters shown as chips: on a phone, where their selects fold. */
  readonly chips: readonly FilterChoice[];
  /** Called as a chip goes, before its filter is removed. */
  readonly onRemoved: () => void;
  readonly onChange: QueryChange;
}) {
  if (sponsor === null && chips.length === 0) return null;
  return (
    <ul className="tracked-chips" aria-label="Active filters">
      {sponsor !== null && (
        <FilterChip
          words={`sponsored by ${sponsorName ?? sponsorKeyLabel(sponsor)}`}
          onRemove={() => {
            onRemoved();
            onChange({ sponsor: null });
          }}
        >
          Sponsored by <bdi>{sponsorName ?? sponsorKeyLabel(sponsor)}</bdi>
        </FilterChip>
      )}
      {chips.map((choice) => {
        const words = choiceWords(choice, choice.value ?? '');
        return (
          <FilterChip
            key={choice.label}
            words={`${choice.label.toLowerCase()} ${words}`}
            onRemove={() => {
              onRemoved();
              choice.onChange(null);
            }}
          >
            {choice.label}: <bdi>{words}</bdi>
          </FilterChip>
        );
      })}
    </ul>
  );
}

/** The filters' selects and the order; folded behind "Filter" on a phone, where Escape folds them. */
function FilterPanel({
  folding,
  choices,
  sort,
  onChange,
}: {
  readonly folding: FilterFolding;
  readonly choices: readonly FilterChoice[];
  readonly sort: BillListSort;
  readonly onChange: QueryChange;
}) {
  const { narrow, open, close } = folding;
  return (
    <div
      id={folding.panelId}
      className="tracked-filter-grid"
      hidden={folding.folded}
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
      <SortChoice sort={sort} onChange={onChange} />
    </div>
  );
}

/** "Sort by": the list's order. */
function SortChoice({
  sort,
  onChange,
}: {
  readonly sort: BillListSort;
  readonly onChange: QueryChange;
}) {
  const sortId = useId();
  return (
    <div className="tracked-filter">
      <label htmlFor={sortId}>Sort by</label>
      <select
        id={sortId}
        value={sort}
        onChange={(event) => {
          onChange({ sort: event.target.value as BillListSort });
        }}
      >
        {billListSorts.map((option) => (
          <option key={option} value={option}>
            {sortWords[option]}
          </option>
        ))}
      </select>
    </div>
  );
}
