import type { Word } from '../types.js';
import { jqFilterSafety } from './jq.js';
import {
  grammar,
  has,
  lastValue,
  optionsNamed,
  type Parsed,
  type ParseResult,
  parseOptions,
} from './options.js';
import { type ProgramSpec, readOnly } from './program.js';

/** jq reads its options itself: exact names only; `--arg NAME VALUE` and friends take two words. */
export const JQ = grammar({
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
export interface JqCommandLine {
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

/** Why a jq filter is not known to only compute on its input, or undefined when it is. */
function jqFilterProblem(filter: string): string | undefined {
  return jqFilterSafety(filter).reason;
}

/** Parses jq's options GNU style, keeping unknown options and words known only at run time. */
export function parseJq(words: readonly Word[]): ParseResult {
  return parseOptions(words, 1, JQ, { permute: true, unknown: 'flag', dynamic: 'operand' });
}

/** What the words of a parsed jq command line are. */
export function jqCommandLine(parsed: Parsed, words: readonly Word[]): JqCommandLine {
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
  return jqFilterProblem(filter.value);
}

const JQ_SPEC: ProgramSpec = {
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

/** mikefarah's yq (Go); `yq e` and `yq eval` name the default subcommand. */
export const YQ = grammar({
  flags: 'inPCMeNrj0vhVc',
  values: 'pIosS',
  long:
    'inplace/i null-input/n prettyPrint/P colors/C no-colors/M exit-status/e no-doc/N unwrapScalar? ' +
    'tojson/j nul-output/0 verbose/v help/h version/V input-format=/p output-format=/o indent=/I ' +
    'from-file= expression= front-matter= split-exp=/s csv-separator= xml-attribute-prefix= ' +
    'xml-content-name= lua-prefix= lua-unquoted properties-separator= header-preprocess? no-header',
  unlistedFlags: /./,
  abbreviate: false,
});

const YQ_SUBCOMMANDS = new Set(['e', 'eval', 'ea', 'eval-all']);

function yqProblem(parsed: Parsed, words: readonly Word[]): string | undefined {
  if (has(parsed, 'h', 'V')) return undefined;
  const operands = parsed.operands.map((index) => words[index]!);
  const first = operands[0]?.static && YQ_SUBCOMMANDS.has(operands[0].value) ? 1 : 0;
  const expression = operands[first];
  if (!expression) return undefined;
  if (!expression.static) return `yq expression ${expression.text} is only known at run time`;
  return jqFilterProblem(expression.value)?.replace(/^jq filter/, 'yq expression');
}

const YQ_SPEC: ProgramSpec = {
  name: 'yq',
  grammar: YQ,
  readOnly: readOnly(
    'P C M e N r j 0 v h V p o I --unwrapScalar --csv-separator --xml-attribute-prefix --xml-content-name ' +
      '--header-preprocess --no-header',
    'files',
    {
      check: yqProblem,
      why: {
        i: 'can write or run programs',
        s: 'writes a file for every document',
        '--from-file': 'reads its expression from a file',
      },
    },
  ),
};

export const JQ_SPECS: readonly ProgramSpec[] = [JQ_SPEC, YQ_SPEC];
