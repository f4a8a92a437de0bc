import { useId } from 'react';
import { Link } from 'react-router-dom';
import { billDetailsPath } from '../bills/bill-words.ts';
import {
  DeleteRemovedBillNotesButton,
  removedBillName,
  removedBillSummary,
  useRemovedBillNotes,
} from '../bill-details/removed-bill-notes.tsx';

// The Tracked tab's "Notes on removed bills" (PRODUCT.md's words): the user's work on bills no
// longer on this device, each opening its bill details (which shows what is kept), with the
// export of them all and a delete per bill. Shown only when there are some.

/** Where the export screen opens with "Notes on removed bills" chosen. */
export const REMOVED_NOTES_EXPORT_PATH = '/export?scope=removed';

export function RemovedBillNotesList() {
  const headingId = useId();
  const notes = useRemovedBillNotes();
  if (notes === undefined || notes.length === 0) return null;
  return (
    <section className="removed-bill-notes" aria-labelledby={headingId}>
      <h2 id={headingId}>Notes on removed bills</h2>
      <p className="removed-bill-notes-hint">
        Your tags, positions, decisions and notes on bills that are no longer on this device.{' '}
        <Link to={REMOVED_NOTES_EXPORT_PATH}>Export them</Link>
      </p>
      <ul aria-labelledby={headingId}>
        {notes.map((entry) => {
          const name = removedBillName(entry);
          return (
            <li key={entry.billId}>
              <div className="removed-bill-notes-text">
                <Link to={billDetailsPath(entry.billId)}>
                  <strong>{name}</strong>
                  {entry.label !== null && (
                    <>
                      {' '}
                      <span dir="auto">{entry.label.title}</span>
                    </>
                  )}
                </Link>
                <p>{removedBillSummary(entry)}</p>
              </div>
              <DeleteRemovedBillNotesButton entries={[entry]} label={`Delete notes on ${name}`} />
            </li>
          );
        })}
      </ul>
    </section>
  );
}
