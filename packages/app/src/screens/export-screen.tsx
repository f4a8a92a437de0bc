import { IonButton } from '@ionic/react';
import { Link } from 'react-router-dom';
import { ExportScopeFieldset } from '../export/export-scope-fieldset.tsx';
import { useExportChoice } from '../export/use-export-choice.ts';
import { useExportFile, type ExportFile } from '../export/use-export-file.ts';
import { useSelectionSize } from '../export/use-selection-size.ts';
import '../ui/forms.css';
import { plural } from '../ui/formatting.ts';
import '../ui/user-data-forms.css';
import { PageBody } from '../layout/page-body.tsx';
import { PageHeader } from '../layout/page-header.tsx';
import { FormError } from '../ui/form-error.tsx';

// Export: which bills (export/use-export-choice.ts), then one button per format. The file is
// built in the user-data worker and handed to the user as a file (export/use-export-file.ts).

export function ExportScreen() {
  const choice = useExportChoice();
  const { selection, removed } = choice;
  const size = useSelectionSize(selection);
  const file = useExportFile(selection);

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
          <ExportScopeFieldset choice={choice} />
          <p aria-live="polite">
            {size === undefined
              ? 'Counting…'
              : size === null
                ? 'The Tracked list’s search and filters are applied when the file is made.'
                : `${plural(size.bills, removed ? 'removed bill' : 'bill')} and ${plural(size.annotations, 'annotation')} chosen.`}
          </p>
          <ExportButtons file={file} chosen={selection !== null} removed={removed} />
        </form>
        <p role="status">{file.status}</p>
        <FormError message={file.failure} />
      </PageBody>
    </>
  );
}

/** One button per format; the notes on removed bills are JSON or annotations only. */
function ExportButtons({
  file,
  chosen,
  removed,
}: {
  readonly file: ExportFile;
  readonly chosen: boolean;
  readonly removed: boolean;
}) {
  const { busy, exportAs } = file;
  return (
    <div className="screen-actions">
      <IonButton
        disabled={busy || !chosen || removed}
        onClick={() => {
          exportAs('csv');
        }}
      >
        Export CSV
      </IonButton>
      <IonButton
        disabled={busy || !chosen || removed}
        onClick={() => {
          exportAs('report');
        }}
      >
        Export report
      </IonButton>
      <IonButton
        disabled={busy || !chosen}
        onClick={() => {
          exportAs('json');
        }}
      >
        Export JSON
      </IonButton>
      <IonButton
        fill="outline"
        disabled={busy || !chosen}
        onClick={() => {
          exportAs('annotations');
        }}
      >
        Export annotations
      </IonButton>
    </div>
  );
}
