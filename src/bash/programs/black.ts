import type { CommandView, EffectsResult } from '../types.js';
import { each, NONE, UNKNOWN } from './effect-helpers.js';
import type { ProgramModule } from './module.js';
import { grammar, has, operandWords, type Parsed, parseOptions } from './options.js';
import { type ProgramSpec, readOnly } from './program.js';
import { checkProgram } from './read-only.js';

/**
 * black 26, as `black --help` lists its options (click: long options are taken whole). Without `--check` or
 * `--diff` it rewrites the files it formats; `-c CODE` prints the code formatted. Its cache is its own, in the
 * user's cache folder (BLACK_CACHE_DIR), which no configuration file moves. `--config` is not listed: it reads a
 * file no rule names.
 */
const BLACK = grammar({
  flags: 'xSCqvhW',
  values: 'cltW',
  long:
    'code=/c line-length=/l target-version=/t pyi ipynb python-cell-magics= skip-source-first-line/x ' +
    'skip-string-normalization/S skip-magic-trailing-comma/C preview unstable enable-unstable-feature= check ' +
    'diff color no-color line-ranges= fast safe required-version= exclude= extend-exclude= force-exclude= ' +
    'include= stdin-filename= workers=/W quiet/q verbose/v version config= no-cache help/h',
  abbreviate: false,
});

const READS =
  'c l t --pyi --ipynb --python-cell-magics x S C --preview --unstable --enable-unstable-feature --check --diff ' +
  '--color --no-color --line-ranges --fast --safe --required-version --exclude --extend-exclude ' +
  '--force-exclude --include --stdin-filename W q v --version --no-cache h';

function checkOnly(parsed: Parsed): string | undefined {
  return has(parsed, '--check', '--diff', 'c', '--version', 'h')
    ? undefined
    : 'black rewrites the files but with --check or --diff';
}

const spec: ProgramSpec = {
  name: 'black',
  grammar: BLACK,
  readOnly: readOnly(READS, 'files', {
    check: checkOnly,
    why: { '--config': 'reads its settings from a file no rule names' },
  }),
};

/** A check reads the files named. */
function effects(cmd: CommandView): EffectsResult {
  if (!checkProgram(spec, cmd.argv, true).readOnly) return UNKNOWN;
  const parsed = parseOptions(cmd.argv, 1, BLACK, { permute: true, unknown: 'fail', dynamic: 'operand' });
  if (!parsed.ok) return UNKNOWN;
  if (has(parsed, 'h', '--version')) return NONE;
  return { effects: each('read', operandWords(cmd.argv, parsed)), known: true };
}

export const BLACK_MODULE: ProgramModule = { names: ['black'], spec, effects };
