import type { Word } from '../types.js';
import { jqFilterSafety } from './jq.js';
import { grammar, has, type Parsed } from './options.js';
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

/** Why a jq filter is not known to only compute on its input, or undefined when it is. */
function jqFilterProblem(filter: string): string | undefined {
  return jqFilterSafety(filter).reason;
}

/** The filter word: the first operand, unless -f names a filter file; two-word options skipped. */
function jqFilter(parsed: Parsed, words: readonly Word[]): Word | undefined {
  const values = new Set<number>();
  for (const option of parsed.options) if (TWO_WORDS.has(option.name)) values.add(option.index + 2);
  return parsed.operands.map((index) => words[index]!).find((_word, k) => !values.has(parsed.operands[k]!));
}

function jqProblem(parsed: Parsed, words: readonly Word[]): string | undefined {
  if (has(parsed, 'h', 'V', '--build-configuration')) return undefined;
  const filter = jqFilter(parsed, words);
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
