import { IonButton, useIonRouter } from '@ionic/react';
import {
  type BillCommandContext,
  dismissBill,
  laterBill,
  setPosition,
  tagBills,
  trackBill,
  untagBills,
} from '@docket/core/commands';
import type { Annotation, StoredBill, Tag } from '@docket/core/store';
import { useId, useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { editCommandContext } from '../bills/bill-command-services.ts';
import { commandFailureMessage } from '../ui/command-failure.ts';
import { TagPickerModal } from '../tags/tag-picker-modal.tsx';
import { annotationPath } from './bill-details-route.ts';
import { useSettledChoice } from '../ui/use-settled-choice.ts';
import { useSpaceReadOnly } from '../local-store/space-role.ts';
import { AuthoredBy, AuthoredLine } from '../authors/authored-by.tsx';
import { PositionReasonField } from './position-reason-field.tsx';
import type { AnnotationEntry, DecisionKind, PositionKind } from './bill-details-words.ts';
import {
  annotationEntries,
  decisionChoices,
  decisionWord,
  positionChoices,
  positionWord,
} from './bill-details-words.ts';
import { NotesSpaceLine } from '../authors/notes-space-line.tsx';
import '../ui/forms.css';
import { PersonalNotesSection } from './personal-notes-section.tsx';

// The user's own rows about a bill: tags, position, decision and annotations. Each change goes
// through one of core's commands; the live queries of the screen then show the result, and the
// screen's status toast says what happened (or why nothing did). A viewer in a team workspace
// (local-store/space-role.ts) is shown the rows without the controls that change them.

export interface CommandReport {
  readonly done: (message: string) => void;
  readonly failed: (message: string) => void;
}

/** Runs a command with the page's context and reports its outcome; never rejects. */
export function runCommand(
  report: CommandReport,
  doing: string,
  command: (context: BillCommandContext) => Promise<string>,
): Promise<void> {
  return editCommandContext()
    .then(command)
    .then(report.done, (error: unknown) => {
      report.failed(commandFailureMessage(error, doing));
    });
}

export function BillTagsSection({
  bill,
  tags,
  report,
}: {
  bill: StoredBill;
  tags: readonly Tag[] | undefined;
  report: CommandReport;
}) {
  const [picking, setPicking] = useState(false);
  const readOnly = useSpaceReadOnly();
  return (
    <section aria-labelledby="bill-tags-heading">
      <h2 id="bill-tags-heading">Tags</h2>
      {tags === undefined ? (
        <p role="status">Loading tags…</p>
      ) : tags.length === 0 ? (
        <p className="bill-muted">No tags on this bill yet.</p>
      ) : (
        <ul className="bill-tag-list" aria-label="Tags on this bill">
          {tags.map((tag) => (
            <li key={tag.id} className="bill-tag">
              <span className="tag-swatch" style={{ background: tag.color }} aria-hidden="true" />
              <span className="tag-name" dir="auto">
                {tag.name}
              </span>
              <AuthoredBy table="billTags" rowId={`${bill.id}|${tag.id}`} />
              {!readOnly && (
                <button
                  type="button"
                  className="bill-tag-remove"
                  aria-label={`Remove tag ${tag.name}`}
                  onClick={() => {
                    runCommand(report, 'remove the tag', async (context) => {
                      await untagBills(context, [bill.id], tag.id);
                      return `Removed the tag ${tag.name}.`;
                    }).catch(() => undefined);
                  }}
                >
                  <span aria-hidden="true">×</span>
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {!readOnly && (
        <div className="bill-actions">
          <IonButton
            fill="outline"
            onClick={() => {
              setPicking(true);
            }}
          >
            Add tag
          </IonButton>
          <Link to="/bill-tags" className="bill-side-link">
            Manage tags
          </Link>
        </div>
      )}
      <TagPickerModal
        isOpen={picking}
        title={`Add a tag to ${bill.identifier}`}
        excludeTagIds={(tags ?? []).map((tag) => tag.id)}
        onDismiss={() => {
          setPicking(false);
        }}
        onPick={async (tag) => {
          // A refusal is thrown to the picker, which shows it and stays open.
          await tagBills(await editCommandContext(), [bill.id], tag.id);
          setPicking(false);
          report.done('Tag added.');
        }}
      />
    </section>
  );
}

/**
 * The position chosen on the radios: shown at once, saved (and said) once the arrowing settles,
 * and back to what is stored if the command refuses.
 */
function usePositionChoice(position: PositionKind | undefined, report: CommandReport) {
  // The choice shows at once, until the stored position changes (the command's write reaching the
  // live query) or the command refuses, when what is stored shows again.
  const [chosen, setChosen] = useState<{
    kind: PositionKind;
    over: PositionKind | undefined;
  } | null>(null);
  const shown = chosen !== null && chosen.over === position ? chosen.kind : position;
  // Arrowing through the radios passes each position on the way: only the one it settles on is
  // saved (and said).
  // The bill is the one the choice was made on, even if the screen moved to another meanwhile.
  const { choose: settle, groupProps } = useSettledChoice<{ billId: string; kind: PositionKind }>(
    ({ billId: chosenBill, kind }) => {
      runCommand(
        {
          done: report.done,
          failed: (message) => {
            setChosen(null);
            report.failed(message);
          },
        },
        'set the position',
        async (context) => {
          await setPosition(context, chosenBill, kind);
          return `Position set to ${positionWord(kind)}.`;
        },
      ).catch(() => undefined);
    },
  );
  const choose = (billId: string, kind: PositionKind) => {
    setChosen({ kind, over: position });
    settle({ billId, kind });
  };
  return { shown, choose, groupProps };
}

export function PositionSection({
  billId,
  position,
  reason,
  report,
}: {
  billId: string;
  position: PositionKind | undefined;
  /** Why the user holds it ('' for no reason); undefined while loading. */
  reason: string | undefined;
  report: CommandReport;
}) {
  const name = useId();
  const readOnly = useSpaceReadOnly();
  const { shown, choose, groupProps } = usePositionChoice(position, report);
  return (
    <section aria-labelledby="bill-position-heading">
      <h2 id="bill-position-heading">Your position</h2>
      {position !== undefined && (
        <AuthoredLine
          lead={positionWord(position)}
          table="positions"
          rowId={billId}
          field="position"
        />
      )}
      {!readOnly && (
        <fieldset
          className="bill-choice-group no-print"
          disabled={position === undefined}
          {...groupProps}
        >
          <legend>Position</legend>
          {positionChoices.map((choice) => (
            <label key={choice.kind} className="bill-choice">
              <input
                type="radio"
                name={name}
                value={choice.kind}
                checked={shown === choice.kind}
                onChange={() => {
                  choose(billId, choice.kind);
                }}
              />
              {choice.label}
            </label>
          ))}
        </fieldset>
      )}
      {/* On paper (and to a viewer) the choice and the reason are text, not form controls. */}
      {position !== undefined && (
        <dl className={readOnly ? 'bill-facts' : 'bill-facts print-only'}>
          <dt>Position</dt>
          <dd>{positionWord(position)}</dd>
          {(reason ?? '').trim() !== '' && (
            <>
              <dt>Why</dt>
              <dd className="bill-prose" dir="auto">
                {reason}
              </dd>
            </>
          )}
        </dl>
      )}
      {reason !== undefined && !readOnly && (
        <PositionReasonField
          key={billId}
          billId={billId}
          stored={reason}
          onFailure={report.failed}
        />
      )}
    </section>
  );
}

const decisionCommands: Record<
  DecisionKind,
  (context: BillCommandContext, billId: string) => Promise<unknown>
> = { track: trackBill, dismiss: dismissBill, later: laterBill };

export function DecisionSection({
  billId,
  decision,
  report,
}: {
  billId: string;
  decision: DecisionKind | null | undefined;
  report: CommandReport;
}) {
  const readOnly = useSpaceReadOnly();
  return (
    <section aria-labelledby="bill-decision-heading">
      <h2 id="bill-decision-heading">Decision</h2>
      <p>
        {decision === undefined ? 'Loading…' : decisionWord(decision)}
        {decision === 'dismiss' && ' — it stays out of your deck.'}
      </p>
      {!readOnly && (
        <div className="bill-actions" role="group" aria-label="Change the decision">
          {decisionChoices.map((choice) => (
            // Native buttons: Ionic's copies aria-pressed once, when it first renders.
            <button
              key={choice.kind}
              type="button"
              className="toggle-button"
              aria-pressed={decision === choice.kind}
              disabled={decision === undefined}
              onClick={() => {
                runCommand(report, 'change the decision', async (context) => {
                  await decisionCommands[choice.kind](context, billId);
                  return `Decision: ${choice.done}.`;
                }).catch(() => undefined);
              }}
            >
              {choice.label}
            </button>
          ))}
        </div>
      )}
    </section>
  );
}

function AnnotationItem({ billId, entry }: { billId: string; entry: AnnotationEntry }) {
  const { annotation } = entry;
  return (
    <li className="bill-annotation" style={{ borderInlineStartColor: annotation.color }}>
      <p className="bill-muted">
        {entry.targetWord} · <span className="visually-hidden">Colour </span>
        <span
          className="tag-swatch"
          style={{ background: annotation.color }}
          aria-hidden="true"
        />{' '}
        {annotation.color}
        <AuthoredBy table="annotations" rowId={annotation.id} />
      </p>
      <blockquote className="bill-annotation-quote" dir="auto">
        {annotation.quote.exact}
      </blockquote>
      {annotation.note !== '' && (
        <p className="bill-prose" dir="auto">
          {annotation.note}
        </p>
      )}
      <Link to={annotationPath(billId, annotation.id)}>
        Open annotation<span className="visually-hidden">: {clip(annotation.quote.exact)}</span>
      </Link>
    </li>
  );
}

function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

export function AnnotationsSection({
  bill,
  annotations,
}: {
  bill: StoredBill;
  annotations: readonly Annotation[] | undefined;
}) {
  const ionRouter = useIonRouter();
  const readOnly = useSpaceReadOnly();
  const entries = useMemo(
    () => (annotations === undefined ? undefined : annotationEntries(bill, annotations)),
    [bill, annotations],
  );
  return (
    <>
      <section aria-labelledby="bill-annotations-heading">
        <h2 id="bill-annotations-heading">Annotations</h2>
        <NotesSpaceLine />
        {!readOnly && (
          <div className="bill-actions">
            <IonButton
              fill="outline"
              onClick={() => {
                ionRouter.push(annotationPath(bill.id), 'forward', 'push');
              }}
            >
              Annotate
            </IonButton>
          </div>
        )}
        {entries === undefined ? (
          <p role="status">Loading annotations…</p>
        ) : entries.placed.length + entries.orphans.length === 0 ? (
          <p className="bill-muted">No annotations on this bill yet.</p>
        ) : (
          <>
            {entries.placed.length > 0 && (
              <ul className="bill-annotations" aria-label="Annotations">
                {entries.placed.map((entry) => (
                  <AnnotationItem key={entry.annotation.id} billId={bill.id} entry={entry} />
                ))}
              </ul>
            )}
            {entries.orphans.length > 0 && (
              <>
                <h3 id="bill-orphans-heading">Annotations whose passage is gone</h3>
                <p className="bill-muted">
                  The bill&apos;s text changed and these passages are no longer in it. Their quotes
                  and notes are kept here.
                </p>
                <ul className="bill-annotations" aria-labelledby="bill-orphans-heading">
                  {entries.orphans.map((entry) => (
                    <AnnotationItem key={entry.annotation.id} billId={bill.id} entry={entry} />
                  ))}
                </ul>
              </>
            )}
          </>
        )}
      </section>
      {/* In a workspace's space, the person's own notes on the bill, beside the team's. */}
      <PersonalNotesSection billId={bill.id} />
    </>
  );
}
