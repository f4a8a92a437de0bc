import { IonButton } from '@ionic/react';
import { useId, type ReactNode } from 'react';

// The confirmation that stands in place of a full backup's dangerous button (Delete, Restore)
// until the user answers it.

/**
 * A question with the dangerous answer and Cancel. The question names the group; it is shown in
 * bold above the explanation, or, when the explanation says it already, only read out.
 */
export function FullBackupConfirm({
  question,
  showQuestion,
  confirm,
  busy = false,
  size,
  onConfirm,
  onCancel,
  children,
}: {
  readonly question: string;
  readonly showQuestion: boolean;
  /** The dangerous button's words. */
  readonly confirm: string;
  readonly busy?: boolean;
  readonly size?: 'small';
  readonly onConfirm: () => void;
  readonly onCancel: () => void;
  /** What the answer does, in a paragraph. */
  readonly children: ReactNode;
}) {
  const questionId = useId();
  const sized = size === undefined ? {} : { size };
  return (
    <div
      className="full-backup-confirm"
      role="group"
      {...(showQuestion ? { 'aria-labelledby': questionId } : { 'aria-label': question })}
    >
      {showQuestion && (
        <p id={questionId}>
          <strong>{question}</strong>
        </p>
      )}
      {children}
      <div className="screen-actions">
        <IonButton {...sized} color="danger" disabled={busy} onClick={onConfirm}>
          {confirm}
        </IonButton>
        <IonButton {...sized} fill="outline" onClick={onCancel}>
          Cancel
        </IonButton>
      </div>
    </div>
  );
}
