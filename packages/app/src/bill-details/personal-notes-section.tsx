import { usePersonalAnnotations } from '../local-store/personal-notes.ts';

// In a team workspace's space, a bill's details show the person's own notes on it beside the
// team's (issue 39): read from the personal space, read-only here, and said to be only theirs.

export function PersonalNotesSection({ billId }: { readonly billId: string }) {
  const notes = usePersonalAnnotations(billId);
  if (notes.status === 'none') return null;
  return (
    <section aria-labelledby="bill-personal-notes-heading">
      <h2 id="bill-personal-notes-heading">Your personal notes</h2>
      <p className="bill-muted">
        Only you read them: they stay in your personal space, where you change them (More,
        Workspaces, “Open personal space”).
      </p>
      {notes.status === 'reading' ? (
        <p role="status">Reading your personal notes…</p>
      ) : notes.status === 'failed' ? (
        <p role="alert">{notes.message}</p>
      ) : notes.annotations.length === 0 ? (
        <p className="bill-muted">You have no personal notes on this bill.</p>
      ) : (
        <ul className="bill-annotations" aria-labelledby="bill-personal-notes-heading">
          {notes.annotations.map((annotation) => (
            <li key={annotation.id}>
              <blockquote dir="auto">{annotation.quote.exact}</blockquote>
              {annotation.note !== '' && <p dir="auto">{annotation.note}</p>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
