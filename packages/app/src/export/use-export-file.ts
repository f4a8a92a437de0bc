import type { ExportFormat, ExportSelection } from '@docket/core/export';
import { useState } from 'react';
import { useAppServices } from '../services/app-services.ts';
import { useStatusToast } from '../toasts/status-toast.ts';
import { plural } from '../ui/formatting.ts';
import { useCommand } from '../ui/use-command.ts';
import { userDataWorker } from '../user-data-worker/user-data-client.ts';

// The export screen's file: built in the user-data worker (user-data-worker/), so thousands of
// bills do not freeze the page, and handed to the user as a file (platform.saveFile: a download
// on the web, the share sheet on native).

const formatWords: Readonly<Record<ExportFormat, string>> = {
  csv: 'CSV',
  report: 'report',
  json: 'JSON',
  annotations: 'annotations',
};

/** An export under way or failed, and the way to start one. */
export interface ExportFile {
  readonly busy: boolean;
  readonly failure: string | null;
  /** What is being prepared; '' when nothing is. */
  readonly status: string;
  readonly exportAs: (format: ExportFormat) => void;
}

/** Exports `selection` as a file of the format asked for; a missing tag is said as a failure. */
export function useExportFile(selection: ExportSelection | null): ExportFile {
  const { platform } = useAppServices();
  const { busy, error: failure, setError: setFailure, run } = useCommand();
  const [status, setStatus] = useState('');
  const toast = useStatusToast();

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

  return { busy, failure, status, exportAs };
}
