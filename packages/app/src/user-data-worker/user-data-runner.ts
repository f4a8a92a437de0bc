import type { BillCommandContext } from '@docket/core/commands';
import {
  applyUserDataImport,
  describeCounts,
  type ExportedFile,
  type ExportFormat,
  type ExportSelection,
  exportUserData,
  previewUserDataImport,
  readUserDataFile,
  UserDataImportError,
  type UserDataImportPlan,
} from '@docket/core/export';
import { traceKindsOfApp, writeTrace } from '../trace/trace-events.ts';

// What the export and import screens ask of the user-data worker, written against a command
// context so it runs the same in the worker and in unit tests. Building a file of thousands of
// bills, or reading one, takes long enough to freeze a page; in the worker it does not.

export interface PickedImportFile {
  readonly name: string;
  readonly bytes: Uint8Array;
}

export type ImportCheck =
  | { readonly ok: true; readonly plan: UserDataImportPlan }
  | { readonly ok: false; readonly message: string };

export interface UserDataApi {
  exportFile(selection: ExportSelection, format: ExportFormat): Promise<ExportedFile>;
  /** Reads and validates the file and says what importing it would do; writes nothing. */
  previewImport(file: PickedImportFile): Promise<ImportCheck>;
  /** Reads the file again and imports it in one transaction. */
  applyImport(file: PickedImportFile): Promise<ImportCheck>;
}

function refusal(error: unknown): ImportCheck {
  if (error instanceof UserDataImportError) return { ok: false, message: error.message };
  throw error;
}

/** A refused file is worth a line in the trace: what was tried, and why it failed. */
async function traceRefusal(
  command: BillCommandContext,
  file: PickedImportFile,
  message: string,
  started: number,
): Promise<void> {
  await writeTrace(command.store, {
    kind: traceKindsOfApp.import,
    durationMs: command.now() - started,
    details: { file: file.name, outcome: 'refused', error: message },
  });
}

export function createUserDataRunner(context: () => Promise<BillCommandContext>): UserDataApi {
  return {
    async exportFile(selection, format) {
      const { store, now, newId } = await context();
      const started = now();
      const file = await exportUserData(
        store,
        selection,
        format,
        new Date(started).toISOString(),
        newId,
      );
      await writeTrace(store, {
        kind: traceKindsOfApp.export,
        durationMs: now() - started,
        details: { format, file: file.name, count: file.count, characters: file.text.length },
      });
      return file;
    },

    async previewImport(file) {
      const command = await context();
      const started = command.now();
      try {
        const bundle = readUserDataFile(file, new Date(started).toISOString());
        return { ok: true, plan: await previewUserDataImport(command, bundle) };
      } catch (error) {
        const check = refusal(error);
        if (!check.ok) await traceRefusal(command, file, check.message, started);
        return check;
      }
    },

    async applyImport(file) {
      const command = await context();
      const started = command.now();
      try {
        const bundle = readUserDataFile(file, new Date(started).toISOString());
        const plan = await applyUserDataImport(command, bundle);
        await writeTrace(command.store, {
          kind: traceKindsOfApp.import,
          durationMs: command.now() - started,
          details: {
            file: file.name,
            format: plan.kind,
            added: describeCounts(plan.counts, 'added'),
            changed: describeCounts(plan.counts, 'changed'),
          },
        });
        return { ok: true, plan };
      } catch (error) {
        const check = refusal(error);
        if (!check.ok) await traceRefusal(command, file, check.message, started);
        return check;
      }
    },
  };
}
