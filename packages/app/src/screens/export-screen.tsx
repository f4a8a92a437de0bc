import { IonButton } from '@ionic/react';
import { type ExportFormat, type ExportSelection, readUserDataSnapshot } from '@docket/core/export';
import { useId, useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { billListSearch, parseBillListQuery } from '@docket/core/lists';
import { useAppServices } from '../services/app-services.ts';
import '../ui/forms.css';
import { plural } from '../ui/formatting.ts';
import '../ui/user-data-forms.css';
import { userDataWorker } from '../user-data-worker/user-data-client.ts';
import { useLiveRead } from '../local-store/live-database.ts';
import { useTags } from '../local-store/live-tags.ts';
import { PageBody } from '../layout/page-body.tsx';
import { PageHeader } from '../layout/page-header.tsx';
import { useStatusToast } from '../toasts/status-toast.ts';
import { useCommand } from '../ui/use-command.ts';
import { FormError } from '../ui/form-error.tsx';

// Export: which bills, then one button per format. The file is built in the user-data worker
// (user-data-worker/), so thousands of bills do not freeze the page, and handed to the
// user as a file (platform.saveFile: a download on the web, the share sheet on native).

type Scope = 'all' | 'tracked' | 'tag' | 'list' | 'removed';

const formatWords: Readonly<Record<ExportFormat, string>> = {
  csv: 'CSV',
  report: 'report',
  json: 'JSON',
  annotations: 'annotations',
};

/**
 * How many bills and annotations the choice covers, as the export will find them: core's own
 * reading of the selection (user-data-export.ts), so the numbers cannot drift from the file.
 */
function useSelectionSize(
  selection: ExportSelection | null,
): { bills: number; annotations: number } | null | undefined {
  return useLiveRead(
    async (store) => {
      if (selection === null) return { bills: 0, annotations: 0 };
      // The list's search and filters are worked out by the worker when the file is made.
      if (selection.kind === 'list') return null;
      // Everything: two counts, without reading 50,000 bills.
      if (selection.kind === 'all') {
        return store.read(['bills', 'annotations'], async (tx) => ({
          bills: await tx.count('bills'),
          annotations: await tx.count('annotations'),
        }));
      }
      const snapshot = await readUserDataSnapshot(store, selection);
      if (selection.kind === 'removed') {
        // No bill is in the file: the count is of the bills the notes are on.
        const rows = [
          ...snapshot.billTags,
          ...snapshot.positions,
          ...snapshot.decisions,
          ...snapshot.annotations,
        ];
        const billIds = new Set(rows.map((row) => row.billId));
        return { bills: billIds.size, annotations: snapshot.annotations.length };
      }
      return { bills: snapshot.bills.length, annotations: snapshot.annotations.length };
    },
    [selection === null ? '' : JSON.stringify(selection)],
  );
}

export function ExportScreen() {
  const id = useId();
  const { platform } = useAppServices();
  const tags = useTags();
  // Opened from the Tracked tab with its query (/export?status=…): that list is offered first.
  const { search } = useLocation();
  // From the Tracked tab's "Notes on removed bills" (/export?scope=removed): those are offered.
  const removedFirst = new URLSearchParams(search).get('scope') === 'removed';
  const listQuery = !removedFirst && search.length > 1 ? parseBillListQuery(search) : null;
  const [scope, setScope] = useState<Scope>(
    removedFirst ? 'removed' : listQuery === null ? 'all' : 'list',
  );
  const removed = scope === 'removed';
  const [tagId, setTagId] = useState('');
  const { busy, error: failure, setError: setFailure, run } = useCommand();
  const [status, setStatus] = useState('');
  const toast = useStatusToast();

  const chosenTag = tagId !== '' && tags?.some((tag) => tag.id === tagId) === true ? tagId : null;
  const selection: ExportSelection | null =
    scope === 'tag'
      ? chosenTag === null
        ? null
        : { kind: 'tag', tagId: chosenTag }
      : scope === 'list'
        ? listQuery === null
          ? null
          : { kind: 'list', query: listQuery }
        : { kind: scope };
  const size = useSelectionSize(selection);

  const exportAs = (format: ExportFormat) => {
    if (selection === null) {
      setFailure('Choose a tag first.');
      return;
    }
    setStatus(`Preparing the ${formatWords[format]} file…`);
    void run(
      (error) => `The export failed: ${error instanceof Error ? error.message : String(error)}`,
      async () => {
        const file = await userDataWorker().exportFile(selection, format);
        await platform.saveFile(file.name, new Blob([file.text]), file.mimeType);
        setStatus('');
        const done = `Exported ${plural(file.count, format === 'annotations' ? 'annotation' : 'bill')} to ${file.name}.`;
        toast.done(file.notice === undefined ? done : `${done} ${file.notice}`);
      },
      () => {
        setStatus('');
      },
    );
  };

  const scopeChoice = (value: Scope, label: string) => (
    <div className="choice">
      <input
        type="radio"
        id={`${id}-${value}`}
        name={`${id}-scope`}
        value={value}
        checked={scope === value}
        onChange={() => {
          setScope(value);
        }}
      />
      <label htmlFor={`${id}-${value}`}>{label}</label>
    </div>
  );

  return (
    <>
      <PageHeader title="Export" backHref="/tabs/more" />
      <PageBody>
        <h1>Export</h1>
        <p>
          Save bills with your tags, positions and decisions as a spreadsheet (CSV) or as Docket
          JSON, and your annotations as W3C Web Annotations. Any of these files can be{' '}
          <Link to="/import">imported</Link> again, on this device or another. A report is a
          spreadsheet to read and share: one plain row per bill, in words rather than codes.
        </p>
        <form
          className="user-data-form"
          onSubmit={(event) => {
            event.preventDefault();
          }}
        >
          <fieldset>
            <legend>Bills to export</legend>
            {listQuery !== null && (
              <>
                {scopeChoice('list', 'Bills in the Tracked list as filtered')}
                <p className="field-hint">
                  With the search and filters you{' '}
                  <Link to={`/tabs/tracked?${billListSearch(listQuery)}`}>
                    had on the Tracked tab
                  </Link>
                  , in its order.
                </p>
              </>
            )}
            {scopeChoice('all', 'All bills')}
            {scopeChoice('tracked', 'Tracked bills')}
            {scopeChoice('tag', 'Bills with a tag')}
            {scopeChoice('removed', 'Notes on removed bills')}
            {removed && (
              <p className="field-hint">
                Your tags, positions, decisions and notes on bills no longer on this device, each
                with the bill&apos;s number and title: as JSON, and the notes as annotations.
              </p>
            )}
            {scope === 'tag' && (
              <div className="form-field">
                <label htmlFor={`${id}-tag`}>Tag</label>
                <select
                  id={`${id}-tag`}
                  value={chosenTag ?? ''}
                  onChange={(event) => {
                    setTagId(event.target.value);
                  }}
                >
                  <option value="">Choose a tag</option>
                  {(tags ?? []).map((tag) => (
                    <option key={tag.id} value={tag.id}>
                      {tag.name}
                    </option>
                  ))}
                </select>
                {tags?.length === 0 && <p className="field-hint">You have no tags yet.</p>}
              </div>
            )}
          </fieldset>
          <p aria-live="polite">
            {size === undefined
              ? 'Counting…'
              : size === null
                ? 'The Tracked list’s search and filters are applied when the file is made.'
                : `${plural(size.bills, removed ? 'removed bill' : 'bill')} and ${plural(size.annotations, 'annotation')} chosen.`}
          </p>
          <div className="screen-actions">
            <IonButton
              disabled={busy || selection === null || removed}
              onClick={() => {
                exportAs('csv');
              }}
            >
              Export CSV
            </IonButton>
            <IonButton
              disabled={busy || selection === null || removed}
              onClick={() => {
                exportAs('report');
              }}
            >
              Export report
            </IonButton>
            <IonButton
              disabled={busy || selection === null}
              onClick={() => {
                exportAs('json');
              }}
            >
              Export JSON
            </IonButton>
            <IonButton
              fill="outline"
              disabled={busy || selection === null}
              onClick={() => {
                exportAs('annotations');
              }}
            >
              Export annotations
            </IonButton>
          </div>
        </form>
        <p role="status">{status}</p>
        <FormError message={failure} />
      </PageBody>
    </>
  );
}
