import { matchesTraceFilter, traceExportJson, type TraceFilter } from '@docket/core/device';
import { useState } from 'react';
import { readTraceEntries } from '../local-store/live-trace.ts';
import { useAppServices } from '../services/app-services.ts';
import { useStatusToast } from '../toasts/status-toast.ts';
import { plural } from '../ui/formatting.ts';

// The trace screen's "Export trace": the entries the filter holds, as a JSON file saved through
// the platform (a download on the web, the share sheet on native).

/** An export's failure in words, and the way to start one. */
export interface TraceExport {
  readonly failure: string | null;
  readonly exportTrace: () => void;
}

/** Exports the entries `filter` holds now; a toast says the file's name when it is saved. */
export function useTraceExport(filter: TraceFilter): TraceExport {
  const { platform } = useAppServices();
  const toast = useStatusToast();
  const [failure, setFailure] = useState<string | null>(null);

  const exportTrace = () => {
    setFailure(null);
    const now = Date.now();
    readTraceEntries(filter, now)
      .then(async (entries) => {
        // The live query's window moved on since; the file holds what the filter holds now.
        const kept = entries.filter((entry) => matchesTraceFilter(entry, filter, now));
        const at = new Date(now).toISOString();
        const name = `docket-trace-${at.slice(0, 19).replace(/:/g, '-')}.json`;
        const json = traceExportJson(kept, filter, at);
        await platform.saveFile(name, new Blob([json]), 'application/json');
        toast.done(`Exported ${plural(kept.length, 'entry', 'entries')} to ${name}.`);
      })
      .catch((error: unknown) => {
        setFailure(`The export failed: ${error instanceof Error ? error.message : String(error)}`);
      });
  };

  return { failure, exportTrace };
}
