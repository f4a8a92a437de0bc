import { IonButton } from '@ionic/react';
import { useSpaceReadOnly } from '../local-store/space-role.ts';
import { AuthoredBy } from '../authors/authored-by.tsx';
import type { Tag } from '@docket/core/store';
import { deleteTag, mergeTags, recolourTag, renameTag, tagUsage } from '@docket/core/commands';
import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { editCommandContext } from '../bills/bill-command-services.ts';
import { commandFailureMessage, isUsageChanged } from '../ui/command-failure.ts';
import { useCommand } from '../ui/use-command.ts';
import { TagColourField } from './tag-colour-field.tsx';
import { TagNameField } from './tag-name-field.tsx';
import { tagColourName } from './tag-palette.ts';
import {
  billCountWord,
  deleteDone,
  deleteQuestion,
  mergeDone,
  mergeQuestion,
  trackedByTagPath,
} from './tag-words.ts';
import '../ui/forms.css';

// One tag on the bill-tags screen: its name, colour and bills, and the four things that can be
// done to it. One panel is open at a time on the whole screen (the screen holds which), so the
// page never has two "Tag name" fields at once.

export type TagPanel = 'rename' | 'colour' | 'merge' | 'delete';

export interface TagScreenReport {
  /**
   * Says what was done and closes the panel. Focus, which the closed panel's button had, goes to
   * the row of `focusTagId` (the tag renamed, recoloured, merged into, made), else to the screen's
   * heading.
   */
  readonly done: (message: string, focusTagId?: string) => void;
}

/** The heading of a tag's row on the screen on show, once it is there. */
export function tagRowHeading(tagId: string): HTMLElement | null {
  return document.querySelector<HTMLElement>(
    `.ion-page:not(.ion-page-hidden) [data-tag-id="${CSS.escape(tagId)}"] h2`,
  );
}

interface PanelProps {
  readonly tag: Tag;
  readonly close: () => void;
  readonly report: TagScreenReport;
}

/** Moves focus into a panel when it opens, so keyboard and screen-reader users land in it. */
function useFocusOnOpen<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  return ref;
}

/** A panel's failure, if any, then its submit button and Cancel. `ready` false holds the submit
 *  button back (nothing chosen yet); `describedBy` names the question it answers. */
function PanelButtons({
  busy,
  submitLabel,
  close,
  error = null,
  ready = true,
  describedBy,
  danger = false,
}: {
  busy: boolean;
  submitLabel: string;
  close: () => void;
  error?: string | null;
  ready?: boolean;
  describedBy?: string | undefined;
  danger?: boolean;
}) {
  return (
    <>
      {error !== null && (
        <p className="tag-field-error" role="alert">
          {error}
        </p>
      )}
      <div className="tag-actions">
        <IonButton
          type="submit"
          {...(danger ? { color: 'danger' } : {})}
          disabled={busy || !ready}
          aria-describedby={describedBy}
        >
          {submitLabel}
        </IonButton>
        <IonButton fill="outline" disabled={busy} onClick={close}>
          Cancel
        </IonButton>
      </div>
    </>
  );
}

function RenamePanel({ tag, close, report }: PanelProps) {
  const [name, setName] = useState(tag.name);
  const { busy, error, run } = useCommand();
  const save = () =>
    run('rename the tag', async () => {
      const renamed = await renameTag(await editCommandContext(), tag.id, name);
      report.done(`Renamed "${tag.name}" to "${renamed.name}".`, tag.id);
      close();
    });
  return (
    <form
      className="tag-panel"
      noValidate
      aria-label={`Rename ${tag.name}`}
      onSubmit={(event) => {
        event.preventDefault();
        save().catch(() => undefined);
      }}
    >
      <TagNameField value={name} error={error} autoFocus onChange={setName} />
      <PanelButtons busy={busy} submitLabel="Save" close={close} />
    </form>
  );
}

function ColourPanel({ tag, close, report }: PanelProps) {
  const [colour, setColour] = useState(tag.color);
  const { busy, error, run } = useCommand();
  const focus = useFocusOnOpen<HTMLFormElement>();
  const save = () =>
    run('change the colour', async () => {
      const changed = await recolourTag(await editCommandContext(), tag.id, colour);
      report.done(`"${tag.name}" is now ${tagColourName(changed.color)}.`, tag.id);
      close();
    });
  return (
    <form
      ref={focus}
      tabIndex={-1}
      className="tag-panel"
      noValidate
      aria-label={`Colour of ${tag.name}`}
      onSubmit={(event) => {
        event.preventDefault();
        save().catch(() => undefined);
      }}
    >
      <TagColourField legend={`Colour of ${tag.name}`} value={colour} onChange={setColour} />
      <PanelButtons busy={busy} submitLabel="Save" close={close} error={error} />
    </form>
  );
}

function MergePanel({
  tag,
  close,
  report,
  otherTags,
  billCount,
}: PanelProps & { otherTags: readonly Tag[]; billCount: number }) {
  const [targetId, setTargetId] = useState('');
  const { busy, error, run } = useCommand();
  const selectId = useId();
  const questionId = useId();
  const focus = useFocusOnOpen<HTMLSelectElement>();
  const target = otherTags.find((other) => other.id === targetId);
  const merge = async () => {
    if (target === undefined) return;
    await run('merge the tags', async () => {
      const result = await mergeTags(await editCommandContext(), tag.id, target.id);
      // The row unmounts with its tag: the screen keeps the message.
      report.done(mergeDone(tag.name, target.name, result), target.id);
    });
  };
  if (otherTags.length === 0) {
    return (
      <div className="tag-panel">
        <p>There is no other tag to merge &quot;{tag.name}&quot; into. Make one first.</p>
        <div className="tag-actions">
          <IonButton fill="outline" onClick={close}>
            Cancel
          </IonButton>
        </div>
      </div>
    );
  }
  return (
    <form
      className="tag-panel"
      noValidate
      aria-label={`Merge ${tag.name}`}
      onSubmit={(event) => {
        event.preventDefault();
        merge().catch(() => undefined);
      }}
    >
      <label htmlFor={selectId}>Merge &quot;{tag.name}&quot; into</label>
      <select
        ref={focus}
        id={selectId}
        value={targetId}
        onChange={(event) => {
          setTargetId(event.currentTarget.value);
        }}
      >
        <option value="">Choose a tag…</option>
        {otherTags.map((other) => (
          <option key={other.id} value={other.id}>
            {other.name}
          </option>
        ))}
      </select>
      {target !== undefined && (
        <p id={questionId} role="status">
          {mergeQuestion(tag.name, target.name, billCount)}
        </p>
      )}
      <PanelButtons
        busy={busy}
        submitLabel="Merge tags"
        close={close}
        error={error}
        ready={target !== undefined}
        describedBy={target === undefined ? undefined : questionId}
      />
    </form>
  );
}

function DeletePanel({ tag, close, report }: PanelProps) {
  // Read when the panel opens, and again when core says it moved: the count the user is asked
  // about is the count the delete is checked against.
  const [usage, setUsage] = useState<number | null>(null);
  const { busy, error, setError, run } = useCommand();
  const questionId = useId();
  const focus = useFocusOnOpen<HTMLParagraphElement>();

  const [reading, setReading] = useState(0);
  useEffect(() => {
    let current = true;
    editCommandContext()
      .then((context) => tagUsage(context, tag.id))
      .then(
        ({ billCount }) => {
          if (current) setUsage(billCount);
        },
        (failure: unknown) => {
          if (current) setError(commandFailureMessage(failure, 'count the bills with this tag'));
        },
      );
    return () => {
      current = false;
    };
  }, [tag.id, reading, setError]);

  const remove = async () => {
    if (usage === null) return;
    await run(
      'delete the tag',
      async () => {
        const { billsTouched } = await deleteTag(await editCommandContext(), tag.id, {
          expectedBillCount: usage,
        });
        report.done(deleteDone(tag.name, billsTouched));
      },
      (failure) => {
        if (isUsageChanged(failure)) {
          setUsage(null);
          setReading((count) => count + 1);
        }
      },
    );
  };
  return (
    <form
      className="tag-panel"
      noValidate
      aria-label={`Delete ${tag.name}`}
      onSubmit={(event) => {
        event.preventDefault();
        // run() says a failure itself and never rejects.
        void remove();
      }}
    >
      <p id={questionId} ref={focus} tabIndex={-1}>
        {usage === null ? 'Counting the bills with this tag…' : deleteQuestion(tag.name, usage)}
      </p>
      <PanelButtons
        busy={busy}
        submitLabel="Delete tag"
        close={close}
        error={error}
        ready={usage !== null}
        describedBy={questionId}
        danger
      />
    </form>
  );
}

const panelButtons: readonly { panel: TagPanel; label: string }[] = [
  { panel: 'rename', label: 'Rename' },
  { panel: 'colour', label: 'Colour' },
  { panel: 'merge', label: 'Merge into…' },
  { panel: 'delete', label: 'Delete' },
];

/** A tag's colour in words, the bills it is on (a way to them), and who named it. */
function TagFacts({
  tag,
  billCount,
}: {
  readonly tag: Tag;
  readonly billCount: number | undefined;
}) {
  return (
    <p>
      <span className="tag-muted">
        <span className="visually-hidden">Colour: </span>
        {tagColourName(tag.color)}
      </span>
      {' · '}
      {billCount === undefined ? (
        'Counting bills…'
      ) : billCount === 0 ? (
        'On no bills'
      ) : (
        <Link to={trackedByTagPath(tag.id)}>
          {billCountWord(billCount)}
          <span className="visually-hidden"> tagged {tag.name}</span>
        </Link>
      )}
      <AuthoredBy table="tags" rowId={tag.id} field="name" />
    </p>
  );
}

export function TagRow({
  tag,
  billCount,
  otherTags,
  panel,
  onPanel,
  report,
}: {
  tag: Tag;
  billCount: number | undefined;
  otherTags: readonly Tag[];
  panel: TagPanel | null;
  onPanel: (panel: TagPanel | null) => void;
  report: TagScreenReport;
}) {
  const headingId = useId();
  // A viewer in a team workspace sees the tag and its bills, never the controls that change it.
  const readOnly = useSpaceReadOnly();
  const close = () => {
    onPanel(null);
  };
  return (
    <li className="tag-row" aria-labelledby={headingId} data-tag-id={tag.id}>
      <h2 id={headingId}>
        <span className="tag-swatch" style={{ background: tag.color }} aria-hidden="true" />
        <span className="tag-name" dir="auto">
          {tag.name}
        </span>
      </h2>
      <TagFacts tag={tag} billCount={billCount} />
      {!readOnly && (
        <div className="tag-actions" role="group" aria-labelledby={headingId}>
          {panelButtons.map((button) => (
            // Native buttons: Ionic's copies aria-expanded once, when it first renders.
            <button
              key={button.panel}
              type="button"
              className={
                button.panel === 'delete' ? 'toggle-button tag-toggle-danger' : 'toggle-button'
              }
              aria-expanded={panel === button.panel}
              onClick={() => {
                onPanel(panel === button.panel ? null : button.panel);
              }}
            >
              {button.label}
            </button>
          ))}
        </div>
      )}
      {panel === 'rename' && <RenamePanel tag={tag} close={close} report={report} />}
      {panel === 'colour' && <ColourPanel tag={tag} close={close} report={report} />}
      {panel === 'merge' && (
        <MergePanel
          tag={tag}
          close={close}
          report={report}
          otherTags={otherTags}
          billCount={billCount ?? 0}
        />
      )}
      {panel === 'delete' && <DeletePanel tag={tag} close={close} report={report} />}
    </li>
  );
}
