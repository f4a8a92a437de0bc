import { useCallback, useState } from 'react';
import { pageLocalStore } from '../bills/bill-command-services.ts';
import { pageSourceFetch } from '../import-worker/source-fetcher.ts';
import { useAppServices } from '../services/app-services.ts';
import { relaySourceRequest } from '../import-worker/source-relay.ts';
import { type GetTextProgress, getVersionText } from '../import-worker/version-text-download.ts';

// "Get text" for one version: its progress and, when it fails, why.

export type GetTextState =
  | { kind: 'idle' }
  | { kind: 'busy'; progress: GetTextProgress }
  | { kind: 'done' }
  | { kind: 'failed'; message: string };

export function useGetText(version: {
  billId: string;
  index: number;
  url: string | null;
  /** LegiScan's doc_id of the version (getBillText, for a dataset of LegiScan's API). */
  docId?: number | undefined;
}) {
  const { platform } = useAppServices();
  const [state, setState] = useState<GetTextState>({ kind: 'idle' });
  const { billId, index, url, docId } = version;
  const run = useCallback(async () => {
    if (url === null) return;
    setState({ kind: 'busy', progress: { step: 'downloading' } });
    try {
      await getVersionText(
        { billId, index, url, docId },
        {
          store: await pageLocalStore(),
          // The native shells fetch through their own HTTP, which no CORS policy stops.
          fetch: pageSourceFetch(platform.sourceFetcher),
          relay: relaySourceRequest,
          now: () => new Date().toISOString(),
          readPdf: async (bytes, onPage) =>
            (await import('../import-worker/pdf-reader.ts')).readPdf(bytes, onPage),
        },
        (progress) => {
          setState({ kind: 'busy', progress });
        },
      );
      setState({ kind: 'done' });
    } catch (error) {
      setState({
        kind: 'failed',
        message: error instanceof Error ? error.message : 'Could not get the text.',
      });
    }
  }, [billId, index, url, docId, platform.sourceFetcher]);
  return { state, run };
}

export function progressWords(progress: GetTextProgress): string {
  switch (progress.step) {
    case 'downloading':
      return 'Downloading the text…';
    case 'reading':
      return 'Reading the text…';
    case 'pdf':
      return `Reading the PDF: page ${progress.page.toLocaleString()} of ${progress.pages.toLocaleString()}…`;
  }
}
