import type { Word } from '../types.js';
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

/** Every builtin of jq 1.6 and 1.7 that only computes on its input. */
const BUILTINS = new Set(
  (
    'IN INDEX JOIN acos acosh add all any arrays ascii_downcase ascii_upcase asin asinh atan atan2 atanh ' +
    'booleans bsearch builtins capture cbrt ceil combinations contains copysign cos cosh debug del delpaths ' +
    'drem empty endswith erf erfc error exp exp10 exp2 explode expm1 fabs fdim finites first flatten floor ' +
    'fma fmax fmin fmod format frexp from_entries fromdate fromdateiso8601 fromjson fromstream gamma getpath ' +
    'gmtime group_by gsub halt halt_error has hypot implode in index indices infinite input input_filename ' +
    'input_line_number inputs inside isempty isfinite isinfinite isnan isnormal iterables j0 j1 jn join keys ' +
    'keys_unsorted last ldexp leaf_paths length lgamma lgamma_r limit localtime log log10 log1p log2 logb ' +
    'ltrimstr map map_values match max max_by min min_by mktime modf nan nearbyint nextafter nexttoward ' +
    'normals not now nth nulls numbers objects path paths pow pow10 range recurse recurse_down remainder ' +
    'repeat reverse rindex rint round rtrimstr scalars scalars_or_empty scalb scalbln scan select setpath ' +
    'significand sin sinh sort sort_by split splits sqrt startswith stderr strflocaltime strftime strings ' +
    'strptime sub tan tanh test tgamma to_entries todate todateiso8601 tojson tonumber tostream tostring ' +
    'transpose trunc truncate_stream type unique unique_by until utf8bytelength values walk while ' +
    'with_entries y0 y1 yn abs toarray pick trim ltrim rtrim have_literal_numbers have_decnum ascii dateadd ' +
    'datesub date todate splits getpath error significand ' +
    'def if then elif else end as reduce foreach try catch label break and or true false null __loc__'
  ).split(' '),
);

/**
 * Why a jq filter is not known to only compute on its input, or undefined: every name it calls must be a
 * builtin that does (`env`, `$ENV`, `import`, `include` and the module functions are not) or one it defines.
 */
export function jqFilterProblem(filter: string): string | undefined {
  const called: string[] = [];
  const defined = new Set<string>();
  const frames: { string: boolean; depth: number }[] = [{ string: false, depth: 0 }];
  let previous = '';
  let defining = false;
  for (let i = 0; i < filter.length; i++) {
    const frame = frames[frames.length - 1]!;
    const c = filter[i]!;
    if (frame.string) {
      if (c === '\\' && filter[i + 1] === '(') {
        frames.push({ string: false, depth: 0 });
        i++;
      } else if (c === '\\') i++;
      else if (c === '"') frames.pop();
      continue;
    }
    if (c === '"') frames.push({ string: true, depth: 0 });
    else if (c === '#') while (i < filter.length && filter[i] !== '\n') i++;
    else if (c === '(') frame.depth++;
    else if (c === ')') {
      if (frame.depth === 0 && frames.length > 1) frames.pop();
      else frame.depth--;
    } else if (/[A-Za-z_]/.test(c)) {
      let j = i + 1;
      while (j < filter.length && /[A-Za-z0-9_]/.test(filter[j]!)) j++;
      const name = filter.slice(i, j);
      if (filter.startsWith('::', j)) return `jq filter calls the module function ${name}::`;
      const after = filter.slice(j).trimStart();
      if (previous === '$') {
        if (name === 'ENV' || name.startsWith('__prog')) return `jq filter reads $${name}`;
      } else if (
        previous !== '.' &&
        previous !== '@' &&
        !(after.startsWith(':') && !after.startsWith('::'))
      ) {
        if (defining) defined.add(name);
        else called.push(name);
        defining = name === 'def';
      }
      previous = name;
      i = j - 1;
      continue;
    }
    if (!/\s/.test(c)) previous = c;
  }
  if (frames.length !== 1) return 'jq filter could not be read';
  const unknown = called.find((name) => !BUILTINS.has(name) && !defined.has(name));
  return unknown === undefined ? undefined : `jq filter calls ${unknown}, which reaches beyond its input`;
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
