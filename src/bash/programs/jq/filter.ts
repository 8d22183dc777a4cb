import type { EmbeddedSafety } from '../embedded.js';

/** jq's built-in functions that only compute on their input (jq 1.6 and 1.7). */
const PURE_BUILTINS = new Set(
  (
    'IN INDEX JOIN abs acos acosh add all any arrays ascii ascii_downcase ascii_upcase asin asinh atan atan2 ' +
    'atanh booleans bsearch capture cbrt ceil combinations contains copysign cos cosh date dateadd datesub ' +
    'debug del delpaths drem empty endswith erf erfc error exp exp10 exp2 explode expm1 fabs fdim finites ' +
    'first flatten floor fma fmax fmin fmod format frexp from_entries fromdate fromdateiso8601 fromjson ' +
    'fromstream gamma getpath gmtime group_by gsub halt halt_error has have_decnum have_literal_numbers ' +
    'hypot implode in index indices infinite input inputs input_line_number inside isempty isfinite ' +
    'isinfinite isnan isnormal isvalid iterables j0 j1 jn join keys keys_unsorted last ldexp leaf_paths ' +
    'length lgamma lgamma_r limit localtime log log10 log1p log2 logb ltrimstr ltrim map map_values match ' +
    'max max_by min min_by mktime modf nan nearbyint nextafter nexttoward normals not now nth nulls numbers ' +
    'objects path paths pick pow pow10 range recurse recurse_down remainder repeat reverse rindex rint round ' +
    'rtrimstr rtrim scalars scalars_or_empty scalb scalbln scan select setpath significand sin sinh sort ' +
    'sort_by split splits sqrt startswith stderr strflocaltime strftime strings strptime sub tan tanh test ' +
    'tgamma to_entries toarray todate todateiso8601 tojson tonumber tostream tostring transpose trim ' +
    'trimstr trunc truncate_stream type unique unique_by until utf8bytelength values walk while ' +
    'with_entries y0 y1 yn'
  ).split(' '),
);

const KEYWORDS = new Set(
  'def if then elif else end as reduce foreach try catch label break import include and or __loc__'.split(
    ' ',
  ),
);

/** Builtins and variables that read the environment, module files or jq's own set-up. */
const HIDDEN = new Set([
  'env',
  '$ENV',
  'import',
  'include',
  'modulemeta',
  'get_search_list',
  'get_prog_origin',
  'get_jq_origin',
  'input_filename',
  'builtins',
  '$__prog_args',
]);

const FORMATS = new Set('text json html uri csv tsv sh base64 base64d base32 base32d'.split(' '));

const OPERATORS = '?// |= += -= *= /= %= //= == != <= >= // .. | , + - * / % = < > ( ) [ ] { } : ; ? .'.split(
  ' ',
);

class JqSyntaxError extends Error {}

interface Token {
  kind: 'name' | 'variable' | 'format' | 'field' | 'string' | 'number' | 'op';
  text: string;
}

/** Splits a jq program into tokens; string interpolations `\(...)` are read as nested programs. */
function tokenize(program: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const fail = (message: string): never => {
    throw new JqSyntaxError(`${message} at offset ${i}`);
  };
  const name = (from: number) => {
    let end = from;
    while (end < program.length && /[\w]/.test(program[end]!)) {
      end++;
      if (program.startsWith('::', end) && /[A-Za-z_]/.test(program[end + 2] ?? '')) end += 2;
    }
    return end;
  };
  /** Reads a string from its opening quote; its interpolations add their tokens. */
  const string = () => {
    i++;
    while (i < program.length) {
      const c = program[i]!;
      if (c === '"') {
        i++;
        return;
      }
      if (c !== '\\') {
        i++;
        continue;
      }
      if (program[i + 1] !== '(') {
        i += 2;
        continue;
      }
      i += 2;
      let depth = 1;
      while (depth > 0) {
        skipBlank();
        if (i >= program.length) fail('unterminated interpolation');
        if (program[i] === '(') depth++;
        if (program[i] === ')' && --depth === 0) {
          i++;
          break;
        }
        token();
      }
    }
    fail('unterminated string');
  };
  const skipBlank = () => {
    while (i < program.length) {
      const c = program[i]!;
      if (/\s/.test(c)) i++;
      else if (c === '#') {
        while (i < program.length && program[i] !== '\n') i++;
      } else break;
    }
  };
  const token = () => {
    const c = program[i]!;
    const start = i;
    if (c === '"') {
      string();
      tokens.push({ kind: 'string', text: program.slice(start, i) });
    } else if (/[A-Za-z_]/.test(c)) {
      i = name(i);
      tokens.push({ kind: 'name', text: program.slice(start, i) });
    } else if ((c === '$' || c === '@') && /[A-Za-z_]/.test(program[i + 1] ?? '')) {
      i = name(i + 1);
      tokens.push({ kind: c === '$' ? 'variable' : 'format', text: program.slice(start, i) });
    } else if (c === '.' && /[A-Za-z_]/.test(program[i + 1] ?? '')) {
      i = name(i + 1);
      tokens.push({ kind: 'field', text: program.slice(start, i) });
    } else if (/\d/.test(c) || (c === '.' && /\d/.test(program[i + 1] ?? ''))) {
      const match = /^(\d*\.?\d*([eE][+-]?\d+)?)/.exec(program.slice(i))!;
      i += match[1]!.length;
      tokens.push({ kind: 'number', text: program.slice(start, i) });
    } else {
      const op = OPERATORS.find((candidate) => program.startsWith(candidate, i));
      if (!op) fail(`unexpected character ${JSON.stringify(c)}`);
      i += op!.length;
      tokens.push({ kind: 'op', text: op! });
    }
  };
  while (true) {
    skipBlank();
    if (i >= program.length) return tokens;
    token();
  }
}

/** Names a program defines with `def`, with their parameters. */
function definitions(tokens: readonly Token[]): Set<string> {
  const defined = new Set<string>();
  tokens.forEach((token, k) => {
    if (token.kind !== 'name' || token.text !== 'def') return;
    const name = tokens[k + 1];
    if (name?.kind === 'name') defined.add(name.text);
    if (tokens[k + 2]?.text !== '(') return;
    for (let j = k + 3; j < tokens.length && tokens[j]!.text !== ')'; j++) {
      if (tokens[j]!.kind === 'name') defined.add(tokens[j]!.text);
    }
  });
  return defined;
}

/**
 * What a jq filter reaches besides its input: the environment (`$ENV`, `env`), module files (`import`,
 * `include`), jq's set-up; names that are neither known builtins, keywords, object keys nor defined by the
 * program; unknown `@formats`. Throws JqSyntaxError when the text cannot be split into tokens.
 */
function unknownConstructs(program: string): string[] {
  const tokens = tokenize(program);
  const defined = definitions(tokens);
  const found = new Set<string>();
  const brackets: string[] = [];
  tokens.forEach((token, k) => {
    if (token.kind === 'op') {
      if (token.text === '(' || token.text === '[' || token.text === '{') brackets.push(token.text);
      else if (token.text === ')' || token.text === ']' || token.text === '}') brackets.pop();
      return;
    }
    const previous = tokens[k - 1]?.text;
    const isKey = brackets.at(-1) === '{' && (previous === '{' || previous === ',');
    if (token.kind === 'name' && (isKey || previous === 'as')) return;
    if (HIDDEN.has(token.text)) {
      found.add(token.text);
      return;
    }
    if (token.kind === 'format' && !FORMATS.has(token.text.slice(1))) found.add(token.text);
    if (token.kind !== 'name') return;
    if (KEYWORDS.has(token.text) || PURE_BUILTINS.has(token.text) || defined.has(token.text)) return;
    if (['true', 'false', 'null'].includes(token.text)) return;
    found.add(`unknown function ${token.text}`);
  });
  return [...found];
}

/** The constructs of a jq filter that are not known safe; `jq filter` when it cannot be read. */
export function jqConstructs(program: string): string[] {
  try {
    return unknownConstructs(program);
  } catch (e) {
    if (!(e instanceof JqSyntaxError)) throw e;
    return ['jq filter'];
  }
}

/** The read-only verdict of a jq filter: every name known and nothing that reaches the environment or files. */
export function jqFilterSafety(program: string): EmbeddedSafety {
  const constructs = jqConstructs(program);
  return {
    readOnly: constructs.length === 0,
    ...(constructs.length ? { reason: `jq ${constructs[0]}` } : {}),
    reads: [],
    writes: [],
    runs: [],
  };
}
