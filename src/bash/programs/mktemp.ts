import type { Word } from '../types.js';
import { NONE, UNKNOWN } from './effect-helpers.js';
import type { ProgramModule } from './module.js';
import { grammar, type Parsed, parseOptions } from './options.js';
import { type ProgramSpec, readOnly } from './program.js';

/** GNU coreutils mktemp, as `mktemp --help` lists it. */
const MKTEMP = grammar({
  flags: 'duqt',
  values: 'p',
  long: 'directory/d dry-run/u quiet/q suffix= tmpdir? help version',
});

function dryRun(parsed: Parsed): boolean {
  return parsed.options.some((o) => o.name === 'u' || o.name === '--dry-run');
}

/** Without `-u` mktemp creates the file (or folder) whose name it prints. */
function createsNothing(parsed: Parsed, _words: readonly Word[]): string | undefined {
  return dryRun(parsed) ? undefined : 'mktemp creates a file or folder unless given -u';
}

const spec: ProgramSpec = {
  name: 'mktemp',
  grammar: MKTEMP,
  readOnly: readOnly('d u q t p --suffix --tmpdir', 'inert', { check: createsNothing, maxOperands: 1 }),
};

/** mktemp makes a temporary file or folder and prints its name; `-u` only prints a name. */
export const MKTEMP_MODULE: ProgramModule = {
  names: ['mktemp'],
  spec,
  effects: (cmd) => {
    const parsed = parseOptions(cmd.argv, 1, MKTEMP, { permute: true });
    return parsed.ok && dryRun(parsed) ? NONE : UNKNOWN;
  },
  oracle: {
    cases: [
      'mktemp -u',
      'mktemp -u tmp.XXXXXX',
      'mktemp -u -t build.XXXXXXXX',
      'mktemp -d -u',
      'mktemp --dry-run -p . x.XXXX',
    ],
  },
};
