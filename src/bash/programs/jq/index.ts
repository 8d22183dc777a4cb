import type { CommandView, NestedSpec, Word } from '../../types.js';
import { type EffectHandler, option, reads, UNKNOWN } from '../effect-helpers.js';
import type { ProgramModule } from '../module.js';
import {
  grammar,
  has,
  lastValue,
  optionsNamed,
  type Parsed,
  type ParseResult,
  parseOptions,
} from '../options.js';
import { type ProgramSpec, readOnly } from '../program.js';
import { codeIn, codeSpec, parseFailure } from '../specs.js';
import { jqConstructs, jqFilterSafety } from './filter.js';

/** jq reads its options itself: exact names only; `--arg NAME VALUE` and friends take two words. */
const JQ = grammar({
  flags: 'cnrjasSeCMRhVb0',
  values: 'fL',
  long:
    'compact-output/c null-input/n raw-output/r join-output/j ascii-output/a slurp/s sort-keys/S ' +
    'exit-status/e color-output/C monochrome-output/M raw-input/R help/h version/V binary/b tab indent= ' +
    'unbuffered stream stream-errors seq from-file=/f arg= argjson= slurpfile= rawfile= argfile= args ' +
    'jsonargs raw-output0 nul-output/0 run-tests? debug-dump-disasm debug-trace build-configuration',
  abbreviate: false,
});

/** Options followed by two words: a name and a value or file. */
const TWO_WORDS = new Set(['--arg', '--argjson', '--slurpfile', '--rawfile', '--argfile']);
/** Two-word options whose second word is a file jq reads. */
const FILE_VALUES = new Set(['--slurpfile', '--rawfile', '--argfile']);

/** jq's command line as JQ reads it: the filter, the file it may come from, and what the other operands are. */
interface JqCommandLine {
  /** The filter word: the first operand, unless -f names a filter file; two-word options skipped. */
  filter?: Word;
  /** The file -f / --from-file reads the filter from. */
  fromFile?: Word;
  /** The input files: the operands after the filter, up to --args or --jsonargs. */
  inputs: Word[];
  /** The files two-word options read (`--slurpfile NAME FILE`). */
  valueFiles: Word[];
  /** Option words jq does not know, or that may be options only known at run time. */
  unsure: Word[];
}

/** Parses jq's options GNU style, keeping unknown options and words known only at run time. */
function parseJq(words: readonly Word[]): ParseResult {
  return parseOptions(words, 1, JQ, { permute: true, unknown: 'flag', dynamic: 'operand' });
}

/** What the words of a parsed jq command line are. */
function jqCommandLine(parsed: Parsed, words: readonly Word[]): JqCommandLine {
  const seconds = new Set<number>();
  const valueFiles: Word[] = [];
  for (const option of parsed.options) {
    if (!TWO_WORDS.has(option.name)) continue;
    seconds.add(option.index + 2);
    const file = words[option.index + 2];
    if (FILE_VALUES.has(option.name) && file) valueFiles.push(file);
  }
  const operands = parsed.operands.filter((index) => !seconds.has(index));
  const fromFile = lastValue(parsed, 'f');
  const filter = fromFile ? undefined : operands[0];
  const positional = optionsNamed(parsed, '--args', '--jsonargs')[0]?.index ?? words.length;
  const inputs = operands
    .slice(filter === undefined ? 0 : 1)
    .filter((index) => index < positional)
    .map((index) => words[index]!);
  const isValue = (index: number): boolean => parsed.options.some((option) => option.value === words[index]);
  const unsureAt = [
    ...parsed.unknown.map((option) => option.index),
    ...parsed.suspects.filter((index) => !parsed.operands.includes(index) && !isValue(index)),
  ];
  return {
    ...(filter === undefined ? {} : { filter: words[filter]! }),
    ...(fromFile ? { fromFile } : {}),
    inputs,
    valueFiles,
    unsure: [...new Set(unsureAt)].sort((a, b) => a - b).map((index) => words[index]!),
  };
}

function jqProblem(parsed: Parsed, words: readonly Word[]): string | undefined {
  if (has(parsed, 'h', 'V', '--build-configuration')) return undefined;
  const { filter } = jqCommandLine(parsed, words);
  if (!filter) return undefined;
  if (!filter.static) return `jq filter ${filter.text} is only known at run time`;
  return jqFilterSafety(filter.value).reason;
}

const spec: ProgramSpec = {
  name: 'jq',
  grammar: JQ,
  readOnly: readOnly(
    'c n r j a s S e C M R h V b 0 --tab --indent --unbuffered --stream --stream-errors --seq --arg --argjson --args --jsonargs --raw-output0',
    'files',
    {
      check: jqProblem,
      why: {
        f: 'reads its filter from a file',
        L: 'loads modules from a folder',
        '--slurpfile': 'reads a file no rule names',
        '--rawfile': 'reads a file no rule names',
        '--argfile': 'reads a file no rule names',
        '--run-tests': 'runs tests from a file',
      },
    },
  ),
};

/** jq FILTER [FILES]; --slurpfile NAME FILE and -f FILE read files; --args makes the operands after it arguments. */
const effects: EffectHandler = (cmd) => {
  const parsed = parseJq(cmd.argv);
  if (!parsed.ok) return UNKNOWN;
  const { fromFile, inputs, valueFiles } = jqCommandLine(parsed, cmd.argv);
  const effects = [...valueFiles, ...(fromFile ? [fromFile] : [])].map((file) => option('read', file));
  return {
    effects: [...effects, ...reads(inputs)],
    known: parsed.unknown.length === 0 && parsed.suspects.length === 0,
  };
};

/** jq runs no commands; a filter from a file, or one that reads the environment or modules, is code. */
function nested(cmd: CommandView): NestedSpec[] {
  const parsed = parseJq(cmd.argv);
  if (!parsed.ok) return [parseFailure('jq', parsed)];
  const { filter, fromFile, unsure } = jqCommandLine(parsed, cmd.argv);
  const specs: NestedSpec[] = unsure.map((word) => codeIn('program-option', 'jq', 'unknown option', word));
  if (fromFile) specs.push(codeIn('script-file', 'jq', '-f', fromFile));
  for (const found of optionsNamed(parsed, '--run-tests')) {
    specs.push(codeIn('script-file', 'jq', '--run-tests', found.value ?? cmd.argv[found.index]!));
  }
  if (!filter) return specs;
  if (!filter.static) return [...specs, codeSpec('program-option', 'jq', 'jq filter', filter)];
  for (const construct of jqConstructs(filter.value)) {
    specs.push(codeSpec('program-option', 'jq', construct, filter, filter.value));
  }
  return specs;
}

export const JQ_MODULE: ProgramModule = {
  names: ['jq'],
  spec,
  effects,
  nested,
  oracle: {
    cases: [
      'jq . a.json',
      'jq -r .name a.json b.json',
      "jq -n --slurpfile v a.json '$v'",
      "jq -n --rawfile v README.md '$v'",
      'jq -f prog.jq a.json',
      'jq --from-file prog.jq a.json',
      'jq -n env',
      "jq -n '$ENV.HOME'",
      "jq -n --args '$ARGS' a.json",
      `jq -L lib 'import "m" as m; .' a.json`,
    ],
  },
};
