// The part of papaparse's API that csv-table.ts uses, typed here: @types/papaparse references
// Node's types, which would put Buffer and Node's timers into core's and the app's type checks.
// tsconfig.base.json lists this file, so every package's type check has it.

declare module 'papaparse' {
  interface PapaParseError {
    type: string;
    code: string;
    message: string;
    row?: number;
  }

  interface PapaParseResult {
    data: string[][];
    errors: PapaParseError[];
  }

  interface PapaParseConfig {
    delimiter: string;
    newline: string;
  }

  interface PapaUnparseConfig {
    newline: string;
    quotes: (value: string, column: number) => boolean;
  }

  const Papa: {
    parse(text: string, config: PapaParseConfig): PapaParseResult;
    unparse(rows: readonly (readonly string[])[], config: PapaUnparseConfig): string;
  };

  export default Papa;
}
