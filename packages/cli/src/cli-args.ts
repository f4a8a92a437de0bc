// The command line of `docket`, parsed by hand: two commands and three options do not need a
// library, and the messages can say exactly what was wrong.

export const USAGE = `Usage: docket import <files or folders...> --out <bills.jsonl> [--jurisdiction <code>] [--session <name>]
       docket --help

Reads bill files in the formats Docket knows (LegiScan getBill JSON or dataset ZIP, Open States
scrape/API JSON or bulk CSV, GovInfo BILLSTATUS XML, unitedstates/congress data.json, Docket CSV),
ZIP archives of them and whole folders, and writes one normalized bill per line (JSON Lines).

Options:
  --out <file>            where to write the bills ("-" for standard output)
  --jurisdiction <code>   use this jurisdiction for every bill (us, us-ca, CA, "North Carolina")
  --session <name>        use this session for every bill
  -h, --help              show this help

Exit status: 0 when bills were written, 1 when nothing could be imported, 2 on bad usage.`;

export type CliCommand =
  | { kind: 'help' }
  | {
      kind: 'import';
      inputs: string[];
      out: string;
      jurisdiction: string | undefined;
      session: string | undefined;
    }
  | { kind: 'usage-error'; message: string };

const VALUE_OPTIONS = ['--out', '--jurisdiction', '--session'] as const;
type ValueOption = (typeof VALUE_OPTIONS)[number];

function isValueOption(name: string): name is ValueOption {
  return (VALUE_OPTIONS as readonly string[]).includes(name);
}

export function parseCliArgs(argv: readonly string[]): CliCommand {
  if (argv.length === 0) return { kind: 'usage-error', message: 'no command given' };
  if (argv.includes('-h') || argv.includes('--help') || argv[0] === 'help') return { kind: 'help' };
  const [command, ...rest] = argv;
  if (command !== 'import')
    return { kind: 'usage-error', message: `unknown command "${command ?? ''}"` };
  const values = new Map<ValueOption, string>();
  const inputs: string[] = [];
  for (let index = 0; index < rest.length; index++) {
    const arg = rest[index] ?? '';
    if (arg === '--') {
      inputs.push(...rest.slice(index + 1));
      break;
    }
    if (arg.startsWith('--')) {
      const equals = arg.indexOf('=');
      const name = equals < 0 ? arg : arg.slice(0, equals);
      if (!isValueOption(name)) return { kind: 'usage-error', message: `unknown option "${name}"` };
      const value = equals < 0 ? rest[++index] : arg.slice(equals + 1);
      if (value === undefined || value === '') {
        return { kind: 'usage-error', message: `${name} needs a value` };
      }
      values.set(name, value);
      continue;
    }
    inputs.push(arg);
  }
  const out = values.get('--out');
  if (out === undefined) return { kind: 'usage-error', message: 'import needs --out <file>' };
  if (inputs.length === 0)
    return { kind: 'usage-error', message: 'import needs at least one file or folder' };
  return {
    kind: 'import',
    inputs,
    out,
    jurisdiction: values.get('--jurisdiction'),
    session: values.get('--session'),
  };
}
