import type { CommandView, EffectsResult } from '../types.js';
import { each, NONE, UNKNOWN, workingFolder } from './effect-helpers.js';
import type { ProgramModule } from './module.js';
import { grammar, has, operandWords, type Parsed, parseOptions } from './options.js';
import { type ProgramSpec, readOnly } from './program.js';
import { checkProgram } from './read-only.js';

/**
 * isort 9, as `isort --help` lists its options (argparse: a unique prefix of a long option names it, each
 * spelling is listed). Without `--check-only`, `--diff` or `--stdout` it rewrites the files it sorts. Options
 * whose value names a settings file or a plugin (`--settings-path`, `--formatter`, `--sort-order`), and those
 * that add or remove imports, are not listed: they make the command unknown.
 */
const ISORT = grammar({
  flags: 'hVvqdcen',
  values: 'lwmjpobfts',
  long:
    'help/h version/V version-number vn verbose/v quiet/q stdout/d overwrite-in-place show-config show-files ' +
    'diff df check-only/c check/c ignore-whitespace ws settings-path= sp= settings-file= settings= ' +
    'config-root= cr= resolve-all-configs profile= jobs=/j atomic ac interactive only-modified om ' +
    'filter-files skip=/s extend-skip= skip-glob= sg= extend-skip-glob= gitignore skip-gitignore ext= ' +
    'extension= supported-extension= blocked-extension= dont-follow-links filename= allow-root ' +
    'add-import= rm= remove-import= float-to-top dont-float-to-top combine-as ca combine-star cs balanced/e ' +
    'from-first ff force-grid-wrap? fgw? line-length=/l line-width=/l wrap-length= wl= multi-line=/m ' +
    'trailing-comma tc use-parentheses up force-single-line-imports sl length-sort ls order-by-type ot ' +
    'dont-order-by-type dt reverse-sort case-sensitive honor-noqa color star-first ' +
    'force-sort-within-sections fss known-first-party= project=/p thirdparty=/o builtin=/b future=/f ' +
    'src= src-path= py= python-version= formatter= sort-order= top=/t',
});

const MODES = [
  'c',
  '--diff',
  '--df',
  'd',
  '--show-config',
  '--show-files',
  'h',
  'V',
  '--version-number',
  '--vn',
];

const READS =
  'h V --version-number --vn v q d --show-config --show-files --diff --df c --ignore-whitespace --ws --profile ' +
  '--only-modified --om --filter-files s --extend-skip --skip-glob --sg --extend-skip-glob --gitignore ' +
  '--skip-gitignore --ext --extension --supported-extension --blocked-extension --dont-follow-links ' +
  '--filename --float-to-top --dont-float-to-top --combine-as --ca --combine-star --cs e --from-first --ff ' +
  '--force-grid-wrap --fgw l w --wrap-length --wl m --trailing-comma --tc --use-parentheses --up ' +
  '--force-single-line-imports --sl --length-sort --ls --order-by-type --ot --dont-order-by-type --dt ' +
  '--reverse-sort --case-sensitive --honor-noqa --color --star-first --force-sort-within-sections --fss ' +
  '--known-first-party p o b f --src --src-path --py --python-version t';

function checkOnly(parsed: Parsed): string | undefined {
  return has(parsed, ...MODES)
    ? undefined
    : 'isort rewrites the files but with --check-only, --diff or --stdout';
}

const spec: ProgramSpec = {
  name: 'isort',
  grammar: ISORT,
  readOnly: readOnly(READS, 'files', {
    check: checkOnly,
    why: {
      '--overwrite-in-place': 'rewrites the files',
      '--atomic': 'rewrites the files',
      '--ac': 'rewrites the files',
      '--interactive': 'rewrites the files',
      '--add-import': 'adds imports to the files',
      '--rm': 'removes imports from the files',
      '--remove-import': 'removes imports from the files',
      '--formatter': 'loads a formatter plugin',
      '--sort-order': 'loads a sorting plugin',
    },
  }),
};

/** A check reads the files named, or the working folder. */
function effects(cmd: CommandView): EffectsResult {
  if (!checkProgram(spec, cmd.argv, true).readOnly) return UNKNOWN;
  const parsed = parseOptions(cmd.argv, 1, ISORT, { permute: true, unknown: 'fail', dynamic: 'operand' });
  if (!parsed.ok) return UNKNOWN;
  if (has(parsed, 'h', 'V', '--version-number', '--vn', '--show-config')) return NONE;
  const files = operandWords(cmd.argv, parsed);
  return { effects: each('read', files.length ? files : [workingFolder(cmd.argv[0])]), known: true };
}

export const ISORT_MODULE: ProgramModule = { names: ['isort'], spec, effects };
