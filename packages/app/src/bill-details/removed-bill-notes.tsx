import { IonButton } from '@ionic/react';
import { deleteRemovedBillNotes } from '@docket/core/commands';
import { readRemovedBillNotes, type RemovedBillNotes } from '@docket/core/lists';
import { useState } from 'react';
import { editCommandContext } from '../bills/bill-command-services.ts';
import { useLiveRead } from '../local-store/live-database.ts';
import { useStatusToast } from '../toasts/status-toast.ts';
import { commandFailureMessage } from '../ui/command-failure.ts';
import { plural } from '../ui/formatting.ts';
import { useAlert } from '../ui/lazy-overlays.ts';
import { decisionWord, positionWord } from './bill-details-words.ts';

// "Notes on removed bills" (core's lists/removed-bill-notes.ts): the user's tags, positions,
// decisions and notes on bills no longer on this device. The Tracked tab lists them
// (tracked/removed-bill-notes-list.tsx); bill details shows one bill's (KeptBillNotes) instead of
// only saying the bill is not here; both delete them after asking, through core's command.

/** The notes on removed bills, live; with `billId`, that bill's. Undefined while loading. */
export function useRemovedBillNotes(billId?: string | null): RemovedBillNotes[] | undefined {
  return useLiveRead(
    (store) => (billId === null ? Promise.resolve([]) : readRemovedBillNotes(store, billId)),
    [billId],
  );
}

/** The bill's number as its rows kept it, else its id. */
export function removedBillName(entry: RemovedBillNotes): string {
  return entry.label?.identifier ?? entry.billId;
}

/** "Tracked · Support · 2 tags · 1 note": what is kept, in a line. */
export function removedBillSummary(entry: RemovedBillNotes): string {
  const parts: string[] = [];
  if (entry.decision !== null) parts.push(decisionWord(entry.decision.decision));
  if (entry.position !== null && entry.position.position !== 'none') {
    parts.push(positionWord(entry.position.position));
  }
  if ((entry.position?.reason ?? '') !== '') parts.push('Why');
  if (entry.tags.length > 0) parts.push(entry.tags.map((tag) => tag.name).join(', '));
  if (entry.annotations.length > 0) parts.push(plural(entry.annotations.length, 'note'));
  return parts.join(' · ');
}

/** "Delete": asks, then deletes every kept row of these bills here and, by sync, elsewhere. */
export function DeleteRemovedBillNotesButton({
  entries,
  label,
  onDeleted,
}: {
  readonly entries: readonly RemovedBillNotes[];
  /** The button's accessible name, naming what it deletes. */
  readonly label: string;
  readonly onDeleted?: () => void;
}) {
  const [presentAlert] = useAlert();
  const toast = useStatusToast();
  const [busy, setBusy] = useState(false);
  const one = entries.length === 1 ? entries[0] : undefined;

  const remove = () => {
    setBusy(true);
    editCommandContext()
      .then((context) =>
        deleteRemovedBillNotes(
          context,
          entries.map((entry) => entry.billId),
        ),
      )
      .then(
        (result) => {
          toast.done(
            `Deleted your notes on ${one === undefined ? plural(result.bills, 'removed bill') : removedBillName(one)}.`,
          );
          onDeleted?.();
        },
        (error: unknown) => {
          toast.failed(commandFailureMessage(error, 'delete the notes'));
        },
      )
      .finally(() => {
        setBusy(false);
      });
  };

  const ask = () => {
    presentAlert({
      header: 'Delete these notes?',
      message:
        one === undefined
          ? `Your tags, positions, decisions and notes on ${plural(entries.length, 'removed bill')} are deleted on this device and your other devices.`
          : `Your tags, position, decision and notes on ${removedBillName(one)} are deleted on this device and your other devices.`,
      buttons: [
        { text: 'Cancel', role: 'cancel' },
        { text: 'Delete', role: 'destructive', handler: remove },
      ],
    }).catch((error: unknown) => {
      toast.failed(commandFailureMessage(error, 'delete the notes'));
    });
  };

  return (
    <IonButton
      size="small"
      fill="outline"
      color="danger"
      disabled={busy || entries.length === 0}
      aria-label={label}
      onClick={ask}
    >
      Delete
    </IonButton>
  );
}

/** Bill details of a bill not on the device: what the user's rows kept of it. */
export function KeptBillNotes({
  entry,
  onDeleted,
}: {
  readonly entry: RemovedBillNotes;
  readonly onDeleted: () => void;
}) {
  const name = removedBillName(entry);
  return (
    <article className="bill-details" aria-labelledby="bill-details-heading">
      <h1 id="bill-details-heading">{name}</h1>
      {entry.label !== null && (
        <p className="bill-title" dir="auto">
          {entry.label.title}
        </p>
      )}
      <p role="note">
        This bill is no longer on this device: its dataset was deleted, or it was never imported
        here. Your notes on it are kept. Add its dataset again to see the whole bill.
      </p>
      <div className="bill-actions">
        <DeleteRemovedBillNotesButton
          entries={[entry]}
          label={`Delete notes on ${name}`}
          onDeleted={onDeleted}
        />
      </div>
      <KeptTags tags={entry.tags} />
      <KeptPosition position={entry.position} />
      <section aria-labelledby="kept-decision-heading">
        <h2 id="kept-decision-heading">Decision</h2>
        <p>{decisionWord(entry.decision?.decision ?? null)}</p>
      </section>
      <KeptAnnotations annotations={entry.annotations} />
    </article>
  );
}

/** The kept bill's "Tags": each tag's swatch and name. */
function KeptTags({ tags }: { readonly tags: RemovedBillNotes['tags'] }) {
  return (
    <section aria-labelledby="kept-tags-heading">
      <h2 id="kept-tags-heading">Tags</h2>
      {tags.length === 0 ? (
        <p className="bill-muted">No tags.</p>
      ) : (
        <ul className="bill-tag-list" aria-labelledby="kept-tags-heading">
          {tags.map((tag) => (
            <li key={tag.id} className="bill-tag">
              <span className="tag-swatch" style={{ background: tag.color }} aria-hidden="true" />
              <span className="tag-name" dir="auto">
                {tag.name}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The kept bill's "Position", with its "Why" when it has one. */
function KeptPosition({ position }: { readonly position: RemovedBillNotes['position'] }) {
  const reason = position?.reason ?? '';
  return (
    <section aria-labelledby="kept-position-heading">
      <h2 id="kept-position-heading">Position</h2>
      <p>{position === null ? 'None' : positionWord(position.position)}</p>
      {reason !== '' && (
        <>
          <h3>Why</h3>
          <p className="bill-prose" dir="auto">
            {reason}
          </p>
        </>
      )}
    </section>
  );
}

/** The kept bill's "Annotations": each quote in its highlight's colour, with its note. */
function KeptAnnotations({
  annotations,
}: {
  readonly annotations: RemovedBillNotes['annotations'];
}) {
  return (
    <section aria-labelledby="kept-annotations-heading">
      <h2 id="kept-annotations-heading">Annotations</h2>
      {annotations.length === 0 ? (
        <p className="bill-muted">No annotations.</p>
      ) : (
        <ul className="bill-annotations" aria-labelledby="kept-annotations-heading">
          {annotations.map((annotation) => (
            <li
              key={annotation.id}
              className="bill-annotation"
              style={{ borderInlineStartColor: annotation.color }}
            >
              <blockquote className="bill-annotation-quote" dir="auto">
                {annotation.quote.exact}
              </blockquote>
              {annotation.note !== '' && (
                <p className="bill-prose" dir="auto">
                  {annotation.note}
                </p>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
