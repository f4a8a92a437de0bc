import { MAX_IMPORT_BYTES, type UserDataImportPlan } from '@docket/core/export';
import { transfer } from 'comlink';
import { useRef, useState, type RefObject } from 'react';
import { userDataWorker } from '../user-data-worker/user-data-client.ts';
import type { ImportCheck, PickedImportFile } from '../user-data-worker/user-data-runner.ts';

// The import screen's steps: a file picked is checked (what it would add and change), then
// imported in one transaction, or refused with a message that changes nothing. Reading, checking
// and writing happen in the user-data worker.

/** Where an import is: nothing picked, a file being checked, its preview, importing, its end. */
export type ImportStep =
  | { readonly kind: 'idle' }
  | { readonly kind: 'reading'; readonly name: string }
  | { readonly kind: 'preview'; readonly file: File; readonly plan: UserDataImportPlan }
  | { readonly kind: 'importing'; readonly file: File; readonly plan: UserDataImportPlan }
  | { readonly kind: 'done'; readonly name: string; readonly plan: UserDataImportPlan }
  | { readonly kind: 'refused'; readonly name: string; readonly message: string };

async function picked(file: File): Promise<PickedImportFile> {
  return { name: file.name, bytes: new Uint8Array(await file.arrayBuffer()) };
}

/** Hands the file's bytes to the worker (moved, not copied) for a preview or the import. */
async function send(file: File, step: 'previewImport' | 'applyImport'): Promise<ImportCheck> {
  const data = await picked(file);
  const result: ImportCheck = await userDataWorker()[step](transfer(data, [data.bytes.buffer]));
  return result;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The import's step and what moves it on. */
export interface ImportSteps {
  readonly step: ImportStep;
  /** The file input, emptied once a file is imported or the import is cancelled. */
  readonly input: RefObject<HTMLInputElement | null>;
  /** The file picked (undefined when the pick was emptied): checked, then previewed. */
  readonly choose: (file: File | undefined) => void;
  readonly apply: (file: File, plan: UserDataImportPlan) => void;
  readonly cancel: () => void;
}

/** Checks a picked file, then imports it or cancels, one step at a time. */
export function useImportSteps(): ImportSteps {
  const input = useRef<HTMLInputElement>(null);
  const [step, setStep] = useState<ImportStep>({ kind: 'idle' });

  const check = (file: File) => {
    if (file.size > MAX_IMPORT_BYTES) {
      // Refused before reading: a huge file would be held in memory twice on the way.
      setStep({
        kind: 'refused',
        name: file.name,
        message: `The file is larger than ${MAX_IMPORT_BYTES / (1024 * 1024)} MB; Docket exports are smaller.`,
      });
      return;
    }
    setStep({ kind: 'reading', name: file.name });
    send(file, 'previewImport')
      .then((result) => {
        setStep(
          result.ok
            ? { kind: 'preview', file, plan: result.plan }
            : { kind: 'refused', name: file.name, message: result.message },
        );
      })
      .catch((error: unknown) => {
        setStep({ kind: 'refused', name: file.name, message: errorText(error) });
      });
  };

  const choose = (file: File | undefined) => {
    if (file === undefined) setStep({ kind: 'idle' });
    else check(file);
  };

  const apply = (file: File, plan: UserDataImportPlan) => {
    setStep({ kind: 'importing', file, plan });
    send(file, 'applyImport')
      .then((result) => {
        setStep(
          result.ok
            ? { kind: 'done', name: file.name, plan: result.plan }
            : { kind: 'refused', name: file.name, message: result.message },
        );
        if (input.current !== null) input.current.value = '';
      })
      .catch((error: unknown) => {
        setStep({ kind: 'refused', name: file.name, message: errorText(error) });
      });
  };

  const cancel = () => {
    setStep({ kind: 'idle' });
    if (input.current !== null) input.current.value = '';
  };

  return { step, input, choose, apply, cancel };
}
