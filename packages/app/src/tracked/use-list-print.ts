import { readBillReport, type BillReportEntry } from '@docket/core/export';
import { useCallback, useEffect, useState } from 'react';
import { pageLocalStore } from '../bills/bill-command-services.ts';
import type { BillList } from './use-bill-list.ts';

// "Print" on the Tracked tab. The list on screen is virtualised (only rows near the viewport
// exist), so printing it would print a screenful: "Print" reads every bill of the list's
// current result (the search worker's ids, in its order; core's readBillReport for the rest),
// renders the report for paper, then asks the browser to print. The report goes once the
// printing is over, or when the list shows another result.

export type ListPrint =
  | { readonly phase: 'idle' }
  | { readonly phase: 'preparing' }
  | { readonly phase: 'ready'; readonly entries: readonly BillReportEntry[] }
  | { readonly phase: 'failed'; readonly message: string };

interface Prepared {
  readonly resultId: number | null;
  readonly state: ListPrint;
  /** Whether the browser's print is still to be asked for, once the report is on the page. */
  readonly printWhenShown: boolean;
}

const idle: Prepared = { resultId: null, state: { phase: 'idle' }, printWhenShown: false };

export function useListPrint(list: BillList): { readonly state: ListPrint; print: () => void } {
  const [prepared, setPrepared] = useState<Prepared>(idle);
  const { resultId, allIds } = list;
  // A report of an older result is not this list's.
  const current = prepared.resultId === resultId ? prepared : idle;

  const print = useCallback(() => {
    const forResult = resultId;
    setPrepared({ resultId: forResult, state: { phase: 'preparing' }, printWhenShown: false });
    (async () => {
      const ids = await allIds();
      const entries = await readBillReport(await pageLocalStore(), ids);
      setPrepared({
        resultId: forResult,
        state: { phase: 'ready', entries },
        printWhenShown: true,
      });
    })().catch((error: unknown) => {
      const detail = error instanceof Error ? error.message : String(error);
      setPrepared({
        resultId: forResult,
        state: { phase: 'failed', message: `Could not prepare the report: ${detail}` },
        printWhenShown: false,
      });
    });
  }, [resultId, allIds]);

  const { printWhenShown } = current;
  useEffect(() => {
    if (!printWhenShown) return;
    // After the report is painted: the browser prints what the page holds when asked.
    const frame = requestAnimationFrame(() => {
      setPrepared((before) => ({ ...before, printWhenShown: false }));
      window.print();
    });
    return () => {
      cancelAnimationFrame(frame);
    };
  }, [printWhenShown]);

  useEffect(() => {
    const done = () => {
      setPrepared(idle);
    };
    window.addEventListener('afterprint', done);
    return () => {
      window.removeEventListener('afterprint', done);
    };
  }, []);

  return { state: current.state, print };
}
