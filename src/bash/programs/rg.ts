import type { CommandView, NestedSpec, Word } from '../types.js';
import { type EffectHandler, fileCommand, reads, unseenFiles, workingFolder } from './effect-helpers.js';
import type { ProgramModule } from './module.js';
import { grammar, has, optionsNamed, type Parsed, parseOptions } from './options.js';
import { type ProgramSpec, readOnly } from './program.js';
import { argvSpec, parseFailure, unresolved } from './specs.js';

const FOLLOWS_LINKS = 'follows links below the folder, to files no rule can be checked against';
const READS_PATTERNS = 'reads patterns from a file no rule names';

/**
 * ripgrep 13 and 14, from `rg --help` and the negations it accepts without listing them. ripgrep takes long
 * options whole (no abbreviations); an option it does not know is an error.
 */
const RG = grammar({
  flags: 'abcFHhiILlNnoPpqSsUuVvwxz0.',
  values: 'ABCEefgjMmrTtd',
  long:
    'after-context=/A auto-hybrid-regex no-auto-hybrid-regex before-context=/B binary no-binary ' +
    'block-buffered no-block-buffered byte-offset/b case-sensitive/s color= colors= column no-column ' +
    'context=/C context-separator= no-context-separator count/c count-matches crlf no-crlf debug trace ' +
    'dfa-size-limit= encoding=/E no-encoding engine= field-context-separator= field-match-separator= ' +
    'file=/f files files-with-matches/l files-without-match fixed-strings/F no-fixed-strings follow/L ' +
    'no-follow glob=/g glob-case-insensitive no-glob-case-insensitive heading no-heading help/h hidden/. ' +
    'no-hidden iglob= ignore-case/i ignore-file= ignore-file-case-insensitive no-ignore-file-case-insensitive ' +
    'include-zero invert-match/v json no-json line-buffered no-line-buffered line-number/n ' +
    'no-line-number/N line-regexp/x max-columns=/M max-columns-preview no-max-columns-preview ' +
    'max-count=/m max-depth=/d maxdepth=/d max-filesize= mmap no-mmap multiline/U no-multiline ' +
    'multiline-dotall no-multiline-dotall no-config with-filename/H no-filename/I ignore no-ignore ' +
    'ignore-dot no-ignore-dot ignore-exclude no-ignore-exclude ignore-files no-ignore-files ignore-global ' +
    'no-ignore-global ignore-messages no-ignore-messages ignore-parent no-ignore-parent ignore-vcs ' +
    'no-ignore-vcs messages no-messages pcre2-unicode no-pcre2-unicode require-git no-require-git unicode ' +
    'no-unicode null/0 null-data one-file-system no-one-file-system only-matching/o passthru passthrough ' +
    'path-separator= pcre2/P no-pcre2 pcre2-version pre= no-pre pre-glob= pretty/p quiet/q ' +
    'regex-size-limit= regexp=/e replace=/r search-zip/z no-search-zip smart-case/S sort= sortr= ' +
    'sort-files no-sort-files stats no-stats text/a no-text threads=/j trim no-trim type=/t type-not=/T ' +
    'type-add= type-clear= type-list unrestricted/u vimgrep word-regexp/w version/V hostname-bin= ' +
    'hyperlink-format= generate= stop-on-nonmatch',
  abbreviate: false,
});

/** Options that change neither which files rg reads nor how: ignore files, hidden files, links, globs, types. */
const NEUTRAL = new Set(
  (
    'A B C E e f j M m r T d a b c F H h i I l N n o P p q S s U v V w x 0 --auto-hybrid-regex ' +
    '--no-auto-hybrid-regex --binary --no-binary --block-buffered --no-block-buffered --color --colors --column ' +
    '--no-column --context-separator --no-context-separator --count-matches --crlf --no-crlf --debug --trace ' +
    '--dfa-size-limit --no-encoding --engine --field-context-separator --field-match-separator --files ' +
    '--files-without-match --no-fixed-strings --no-follow --glob-case-insensitive --no-glob-case-insensitive ' +
    '--heading --no-heading --no-hidden --include-zero --json --no-json --line-buffered --no-line-buffered ' +
    '--max-columns-preview --no-max-columns-preview --max-filesize --mmap --no-mmap --no-multiline ' +
    '--multiline-dotall --no-multiline-dotall --no-config --ignore --ignore-dot --ignore-exclude ' +
    '--ignore-files --ignore-global --ignore-messages --no-ignore-messages --ignore-parent --ignore-vcs ' +
    '--messages --no-messages --pcre2-unicode --no-pcre2-unicode --require-git --unicode --no-unicode ' +
    '--null-data --one-file-system --no-one-file-system --passthru --passthrough --path-separator --no-pcre2 ' +
    '--pcre2-version --no-pre --regex-size-limit --no-search-zip --sort --sortr --sort-files --no-sort-files ' +
    '--stats --no-stats --no-text --trim --no-trim --type-add --type-clear --type-list --vimgrep ' +
    '--hyperlink-format --generate --stop-on-nonmatch --no-ignore-file-case-insensitive'
  ).split(' '),
);

/** Options that widen the walk and do nothing else: read-only, but the files they reach are declared. */
const WIDENING =
  'g --iglob t . u --no-ignore --no-ignore-vcs --no-ignore-dot --no-ignore-global --no-ignore-parent ' +
  '--no-ignore-exclude --no-ignore-files --no-require-git --ignore-file-case-insensitive';

const spec: ProgramSpec = {
  name: 'rg',
  grammar: RG,
  readOnly: readOnly(`${[...NEUTRAL].filter((name) => name !== 'f').join(' ')} ${WIDENING}`, 'files', {
    why: {
      L: FOLLOWS_LINKS,
      '--pre': 'runs a program on every file',
      '--pre-glob': 'chooses the files a program runs on',
      '--hostname-bin': 'runs a program',
      z: 'runs decompression programs',
      f: READS_PATTERNS,
      '--ignore-file': 'reads ignore rules from a file no rule names',
    },
  }),
};

/** No file is searched: the command prints a list, a version or help. */
function searchesNothing(parsed: Parsed): boolean {
  return has(parsed, '--type-list', '--generate', '--pcre2-version', 'h', 'V');
}

/** Options that stop rg reading some ignore files, and do nothing else: fewer files left out, no hidden one read. */
const IGNORE_ONLY = new Set(
  (
    '--no-ignore --no-ignore-vcs --no-ignore-dot --no-ignore-global --no-ignore-parent --no-ignore-exclude ' +
    '--no-ignore-files --no-require-git'
  ).split(' '),
);

interface WalkClaims {
  skipsHidden: boolean;
  respectsGitignore: boolean;
  /** The hidden names read all the same: those a glob's last name matches (`-g '*.ts'` reads `.a.ts`). */
  readsHiddenMatching: string[];
}

/**
 * rg leaves out hidden entries and what `.gitignore` files leave out only with its defaults: a glob that is not
 * a negation (`-g .env`) re-includes what it matches, hidden or ignored; a type (`-t`) re-includes the hidden
 * files its globs match; `-u` and the `--no-ignore*` options read what ignore files leave out, `-uu` and
 * `--hidden` hidden entries too. Each claim is kept only while every option given is known to leave it true.
 */
function walkClaims(parsed: Parsed): WalkClaims {
  const none = { skipsHidden: false, respectsGitignore: false, readsHiddenMatching: [] };
  if (parsed.options.filter((found) => found.name === 'u').length > 1) return none;
  const claims: WalkClaims = { skipsHidden: true, respectsGitignore: true, readsHiddenMatching: [] };
  for (const found of parsed.options) {
    if (NEUTRAL.has(found.name)) continue;
    if (found.name === 'g' || found.name === '--iglob') {
      if (excludes(found.value)) continue;
      claims.respectsGitignore = false;
      const name = lastName(found.value);
      if (name === undefined || found.name === '--iglob' || has(parsed, '--glob-case-insensitive'))
        claims.skipsHidden = false;
      else claims.readsHiddenMatching.push(name);
    } else if (found.name === 't') claims.skipsHidden = false;
    else if (found.name === 'u' || IGNORE_ONLY.has(found.name)) claims.respectsGitignore = false;
    else return none;
  }
  return claims;
}

/** A glob that only leaves files out: `!` first, and nothing the shell decides at run time. */
function excludes(glob: Word | undefined): boolean {
  return glob?.static === true && glob.value.startsWith('!');
}

/** The glob a name must match for a glob to re-include it (its last name), when it can be told. */
function lastName(glob: Word | undefined): string | undefined {
  if (!glob?.static) return undefined;
  const name = glob.value.replace(/\/+$/, '').split('/').at(-1);
  return name && !name.includes('\\') ? name : undefined;
}

const effects: EffectHandler = fileCommand({
  grammar: RG,
  fileOptions: { f: 'read', '--ignore-file': 'read' },
  operands: (operands, parsed) => {
    if (searchesNothing(parsed)) return [];
    const named = has(parsed, 'e', 'f', '--files') ? operands : operands.slice(1);
    const files = named.length > 0 ? named : [workingFolder(operands.at(-1))];
    const known = parsed.unknown.length === 0 && !has(parsed, 'z', '--pre');
    const claims = known
      ? walkClaims(parsed)
      : { skipsHidden: false, respectsGitignore: false, readsHiddenMatching: [] };
    const read = reads(files).map((e) => ({
      ...e,
      ...(claims.skipsHidden ? { skipsHidden: true as const } : {}),
      ...(claims.skipsHidden && claims.readsHiddenMatching.length > 0
        ? { readsHiddenMatching: claims.readsHiddenMatching }
        : {}),
      ...(claims.respectsGitignore ? { respectsGitignore: true as const } : {}),
    }));
    const follows = has(parsed, 'L')
      ? files.map((f) => unseenFiles('read', `the files the links below ${f.text} lead to`, f))
      : [];
    return { effects: [...read, ...follows], known };
  },
});

/** rg --pre COMMAND runs COMMAND with each file name; --hostname-bin runs a program. */
function nested(cmd: CommandView): NestedSpec[] {
  const parsed = parseOptions(cmd.argv, 1, RG, { permute: true, unknown: 'flag', dynamic: 'operand' });
  if (!parsed.ok) return [parseFailure(cmd.program, parsed)];
  const suspect = parsed.suspects[0];
  if (suspect !== undefined) {
    const word = cmd.argv[suspect]!;
    return [unresolved(`${cmd.program}: ${word.text} may be an option that runs a program`, word)];
  }
  return optionsNamed(parsed, '--pre', '--hostname-bin')
    .filter((option) => option.value && !(option.value.static && option.value.value === ''))
    .map((option) =>
      argvSpec([option.value!], option.name, { kind: 'option', extraArgs: option.name === '--pre' }),
    );
}

export const RG_MODULE: ProgramModule = {
  names: ['rg'],
  spec,
  effects,
  nested,
  oracle: {
    cases: [
      'rg -g .env SECRET',
      'rg --glob=.env SECRET',
      "rg --iglob '*.ENV' SECRET",
      "rg -g '*' SECRET",
      "rg -g '!*.md' SECRET",
      'rg --unrestricted --unrestricted SECRET',
      'rg -uu SECRET',
      'rg -u -u SECRET',
      'rg -. SECRET',
      'rg --hidden SECRET',
      'rg --no-ignore SECRET',
      "rg --type-add 'x:*.env' -tx SECRET",
      "rg --type-add 'x:.env' --type x SECRET",
      'rg -t sh SECRET',
      'rg --ignore-file ignore.txt SECRET',
      'rg -L SECRET docs',
      'rg --follow SECRET',
      'rg --files -uu',
      'rg -z SECRET',
      'rg -e SECRET .env',
    ],
    operands: ['.', 'docs', '.env'],
  },
};
