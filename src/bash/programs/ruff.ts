import type { CommandView, EffectsResult, Word } from '../types.js';
import { each, NONE, UNKNOWN, workingFolder } from './effect-helpers.js';
import type { ProgramModule } from './module.js';
import { grammar, has, type Parsed } from './options.js';
import { everyOption, type ProgramSpec, parseCommand, readOnly, type SubcommandSpec } from './program.js';
import { checkProgram } from './read-only.js';

/**
 * ruff 0.16, as `ruff --help` and `ruff <command> --help` list its options. clap reads long options whole and
 * takes `-v`, `-q`, `-s`, `--isolated`, `--color` and `--config` at every level; `ruff check` also takes the hidden
 * `--line-length`, `--extend-ignore` and `--dummy-variable-rgx`. `--config` is left out
 * everywhere: its value is a settings file or a `KEY = VALUE` pair that may turn fixing on or move the cache.
 */
const GLOBAL = 'verbose/v quiet/q silent/s isolated color= help/h';

function level(flags: string, long: string, values = ''): ReturnType<typeof grammar> {
  return grammar({ flags: `vqsh${flags}`, values, long: `${long} ${GLOBAL}`, abbreviate: false });
}

const CHECK = level(
  'en',
  'fix no-fix unsafe-fixes no-unsafe-fixes show-fixes no-show-fixes diff watch/w fix-only no-fix-only ' +
    'ignore-noqa output-format= output-file=/o target-version= preview no-preview extension= statistics ' +
    'add-noqa? add-ignore? show-files show-settings select= ignore= extend-select= extend-ignore= ' +
    'per-file-ignores= extend-per-file-ignores= fixable= unfixable= extend-fixable= exclude= extend-exclude= ' +
    'respect-gitignore no-respect-gitignore force-exclude no-force-exclude no-cache/n cache-dir= ' +
    'stdin-filename= exit-zero/e exit-non-zero-on-fix line-length= dummy-variable-rgx=',
  'o',
);

const FORMAT = level(
  'n',
  'check diff extension= target-version= preview no-preview output-format= no-cache/n cache-dir= ' +
    'stdin-filename= exit-non-zero-on-format respect-gitignore no-respect-gitignore exclude= extend-exclude= ' +
    'force-exclude no-force-exclude line-length= range=',
);

/** Options of `ruff check` that neither fix files nor write elsewhere. */
const CHECK_READS =
  'v q s h e n --no-fix --unsafe-fixes --no-unsafe-fixes --show-fixes --no-show-fixes --diff --ignore-noqa ' +
  '--output-format --target-version --preview --no-preview --extension --statistics --show-files ' +
  '--show-settings --select --ignore --extend-select --extend-ignore --per-file-ignores ' +
  '--extend-per-file-ignores --fixable --unfixable --extend-fixable --exclude --extend-exclude ' +
  '--respect-gitignore --no-respect-gitignore --force-exclude --no-force-exclude --stdin-filename ' +
  '--exit-non-zero-on-fix --line-length --dummy-variable-rgx --isolated --color';

const FORMAT_READS =
  'v q s h n --check --diff --extension --target-version --preview --no-preview --output-format ' +
  '--stdin-filename --exit-non-zero-on-format --respect-gitignore --no-respect-gitignore --exclude ' +
  '--extend-exclude --force-exclude --no-force-exclude --line-length --range --isolated --color';

const CACHE =
  'without --no-cache, ruff writes its cache where its configuration says (cache-dir, any folder; .ruff_cache by default)';

/**
 * ruff's configuration (pyproject.toml, ruff.toml, .ruff.toml, ~/.config/ruff) can say `fix = true`, and then
 * `ruff check` rewrites the files it checks; `cache-dir` there names the folder its cache is written to. What the
 * command line does not rule out itself (`--no-fix` or `--diff`, `--no-cache`) the policy rules out when the
 * command is decided, from the configuration files ruff would read (`policy/project-files/ruff.ts`, `ruffCheckLine`).
 */
export interface RuffLine {
  noFix: boolean;
  noCache: boolean;
  isolated: boolean;
  /** The files and folders checked, as written (`.` when none is). */
  paths: readonly string[];
}

/**
 * A `ruff check` line whose options only read, with what it rules out itself; undefined for any other line and
 * for one that lists files or settings (`--show-files`), which reads no configuration to write by. A path only
 * known at run time makes the line undefined, and the policy does not decide it.
 */
export function ruffCheckLine(words: readonly Word[]): RuffLine | 'unknown' | undefined {
  const parsed = parseCommand(spec, words, { unknown: 'fail', dynamic: 'operand' });
  if (!parsed.ok) return undefined;
  const last = parsed.levels.at(-1)!;
  if (last.name !== 'ruff check') return undefined;
  const options = last.parsed;
  if (has(options, '--show-files', '--show-settings', 'h')) return undefined;
  const paths: string[] = [];
  for (const at of options.operands) {
    const word = words[at]!;
    if (!word.static) return 'unknown';
    paths.push(word.value);
  }
  return {
    noFix: has(options, '--no-fix', '--diff'),
    noCache: has(options, 'n'),
    isolated: parsed.levels.some((level) => has(level.parsed, '--isolated')),
    paths: paths.length > 0 ? paths : ['.'],
  };
}

function formatWrites(parsed: Parsed): string | undefined {
  if (has(parsed, 'h')) return undefined;
  if (!has(parsed, '--check', '--diff')) return 'ruff format rewrites the files but with --check or --diff';
  return has(parsed, 'n') ? undefined : CACHE;
}

const WHY = {
  '--fix': 'rewrites the files it checks',
  '--fix-only': 'rewrites the files it checks',
  '--add-noqa': 'writes noqa comments into the files',
  '--add-ignore': 'writes ignore comments into the files',
  w: 'keeps running, re-checking as files change',
  o: 'writes its report to a file',
  '--cache-dir': 'writes its cache into the folder named',
};

const info = (long: string, operands: 'inert' | 'none', maxOperands?: number): SubcommandSpec => {
  const g = level('', long);
  return {
    grammar: g,
    readOnly: readOnly(() => everyOption(g), operands, maxOperands === undefined ? {} : { maxOperands }),
  };
};

const TOP = grammar({ flags: 'hVvqs', long: `version/V ${GLOBAL}`, abbreviate: false });

const spec: ProgramSpec = {
  name: 'ruff',
  grammar: TOP,
  readOnly: readOnly(() => everyOption(TOP), 'none'),
  subcommands: {
    check: { grammar: CHECK, readOnly: readOnly(CHECK_READS, 'files', { why: WHY }) },
    format: { grammar: FORMAT, readOnly: readOnly(FORMAT_READS, 'files', { check: formatWrites, why: WHY }) },
    rule: info('all output-format=', 'inert', 1),
    config: info('output-format=', 'inert', 1),
    linter: info('output-format=', 'none'),
    version: info('output-format=', 'none'),
    help: info('', 'inert'),
    clean: { grammar: level('', '') },
    server: { grammar: level('', 'preview no-preview') },
    analyze: { grammar: level('', '') },
  },
};

/** A check or format that only reads: the files named, or the working folder when none is. */
function effects(cmd: CommandView): EffectsResult {
  if (!checkProgram(spec, cmd.argv, true).readOnly) return UNKNOWN;
  const parsed = parseCommand(spec, cmd.argv, { unknown: 'fail', dynamic: 'operand' });
  if (!parsed.ok) return UNKNOWN;
  const last = parsed.levels.at(-1)!;
  if (last.name !== 'ruff check' && last.name !== 'ruff format') return NONE;
  if (has(last.parsed, 'h')) return NONE;
  const files: Word[] = last.parsed.operands.map((index) => cmd.argv[index]!);
  return { effects: each('read', files.length ? files : [workingFolder(cmd.argv[last.index])]), known: true };
}

export const RUFF_MODULE: ProgramModule = {
  names: ['ruff'],
  spec,
  effects,
};
