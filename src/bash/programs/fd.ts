import type { CommandView, FileEffect, NestedSpec, Word } from '../types.js';
import { type EffectHandler, NONE, option, reads, UNKNOWN, workingFolder } from './effect-helpers.js';
import type { ProgramModule } from './module.js';
import { grammar, has, operandWords, optionsNamed, parseOptions } from './options.js';
import { type ProgramSpec, readOnly } from './program.js';
import { argvSpec, unresolved } from './specs.js';
import { is, leadingText, sliceWord, splitsFreely, syntheticWord } from './words.js';

/**
 * fd 8 to 10 (Debian's fd-find installs it as `fdfind`), as its clap definition reads the command line: every
 * option of `fd --help`, the hidden ones (`--no-hidden`, `--ignore`, `--no-follow`...) and the aliases
 * (`--literal`, `--dereference`, `--maxdepth`, `--newer`, `--older`, `--has-results`, `--mount`, `--xdev`), and
 * those fd 9 and 10 added (`--format`, `--hyperlink`, `--exact`, `--ignore-contain`, `-C`). clap takes long options
 * whole: an abbreviation is an error. `-x`/`-X` take the words up to `;` as the command they run.
 */
export const FD_GRAMMAR = grammar({
  flags: 'HIusigFalLp0qhV1',
  values: 'dEteSocjxXC',
  long:
    'hidden/H no-hidden no-ignore/I ignore no-ignore-vcs ignore-vcs no-require-git require-git ' +
    'no-ignore-parent ignore-parent no-global-ignore-file unrestricted/u case-sensitive/s ignore-case/i glob/g ' +
    'regex fixed-strings/F literal/F exact and= absolute-path/a relative-path list-details/l follow/L ' +
    'dereference/L no-follow full-path/p print0/0 max-depth=/d maxdepth=/d min-depth= mindepth=/--min-depth ' +
    'exact-depth= exclude=/E prune type=/t extension=/e size=/S changed-within= ' +
    'change-newer-than=/--changed-within newer=/--changed-within changed-after=/--changed-within ' +
    'changed-before= change-older-than=/--changed-before older=/--changed-before owner=/o format= ' +
    'exec=/x exec-batch=/X batch-size= ignore-file= color=/c hyperlink? hyper?/--hyperlink ignore-contain= ' +
    'threads=/j max-buffer-time= max-results= quiet/q has-results/q show-errors base-directory=/C ' +
    'path-separator= search-path= strip-cwd-prefix? one-file-system mount/--one-file-system ' +
    'xdev/--one-file-system gen-completions? help/h version/V',
  abbreviate: false,
});

const FOLLOWS_LINKS = 'follows links below the folder, to files no rule can be checked against';

/**
 * Options that only choose which names are printed and how: the walk's filters, the ignore files it honours,
 * hidden entries, the output's form.
 */
const READ_ONLY =
  'H --no-hidden I --ignore --no-ignore-vcs --ignore-vcs --no-require-git --require-git --no-ignore-parent ' +
  '--ignore-parent --no-global-ignore-file u s i g --regex F --exact --and a --relative-path --no-follow p 0 ' +
  'd --min-depth --exact-depth E --prune t e S --changed-within --changed-before o --format --batch-size c ' +
  '--hyperlink --ignore-contain j --max-buffer-time --max-results 1 q --show-errors --path-separator ' +
  '--search-path --strip-cwd-prefix --one-file-system h V ' +
  // The programs these run are decided on their own, as nested commands (`-l` runs `ls -l`).
  'l';

const spec: ProgramSpec = {
  name: 'fd',
  aliases: ['fdfind'],
  grammar: FD_GRAMMAR,
  ownWords: (words) => {
    const { own, follows } = splitExecs(words);
    return follows ? [...own, syntheticWord('-L', words[0]!.span)] : own;
  },
  readOnly: readOnly(READ_ONLY, 'files', {
    why: {
      L: FOLLOWS_LINKS,
      C: 'searches below another folder',
      '--ignore-file': 'reads ignore rules from a file no rule names',
      '--gen-completions': 'is not a search',
    },
  }),
};

interface Exec {
  via: string;
  words: Word[];
  /** A word that may expand to `;` and end the command early. */
  unsure?: Word;
}

/** fd's own words and the commands `-x`/`-X` run: each runs from its first word up to `;` or the end. */
export function splitExecs(words: readonly Word[]): { own: Word[]; execs: Exec[]; follows: boolean } {
  const own: Word[] = [words[0]!];
  const execs: Exec[] = [];
  let follows = false;
  let options = true;
  for (let i = 1; i < words.length; i++) {
    const word = words[i]!;
    if (options && is(word, '--')) options = false;
    const start = options ? execStart(word) : undefined;
    if (!start) {
      own.push(word);
      continue;
    }
    if (start.follows) follows = true;
    const command: Word[] = start.attached ? [start.attached] : [];
    let unsure: Word | undefined;
    for (i++; i < words.length && !is(words[i], ';'); i++) {
      if (splitsFreely(words[i]!)) unsure ??= words[i];
      command.push(words[i]!);
    }
    execs.push({ via: start.via, words: command, ...(unsure ? { unsure } : {}) });
  }
  return { own, execs, follows };
}

/** Where a word starts an `-x`/`-X` command: its value attached or not, and whether a cluster also held `-L`. */
function execStart(word: Word): { via: string; attached?: Word; follows: boolean } | undefined {
  const lead = leadingText(word);
  const long = /^--(exec|exec-batch)(=|$)/.exec(lead);
  if (long) {
    const via = `--${long[1]}`;
    return long[2]
      ? { via, attached: sliceWord(word, via.length + 1), follows: false }
      : { via, follows: false };
  }
  if (!/^-[^-]/.test(lead)) return undefined;
  for (let j = 1; j < lead.length; j++) {
    const c = lead[j]!;
    if (c === 'x' || c === 'X') {
      const follows = lead.slice(1, j).includes('L');
      return j + 1 < word.value.length
        ? { via: `-${c}`, attached: sliceWord(word, j + 1), follows }
        : { via: `-${c}`, follows };
    }
    if (FD_GRAMMAR.values.includes(c) || !FD_GRAMMAR.flags.includes(c)) return undefined;
  }
  return undefined;
}

/**
 * fd prints the names below its folders (the operands after the pattern, `--search-path`, or the working
 * folder); `--ignore-file` reads a file; `-L` follows the links it meets; `--base-directory` resolves them all
 * from another folder.
 */
const effects: EffectHandler = (cmd) => {
  const { own, follows } = splitExecs(cmd.argv);
  const parsed = parseOptions(own, 1, FD_GRAMMAR, { permute: true, unknown: 'flag', dynamic: 'operand' });
  if (!parsed.ok) return UNKNOWN;
  if (has(parsed, 'h', 'V')) return NONE;
  const operands = operandWords(own, parsed);
  const searchPaths = optionsNamed(parsed, '--search-path').flatMap((o) => (o.value ? [o.value] : []));
  const named = [...operands.slice(1), ...searchPaths];
  const folders = named.length > 0 ? named : [workingFolder(own.at(-1))];
  const linked = follows || has(parsed, 'L');
  const read = reads(folders).map((e): FileEffect => (linked ? { ...e, followsLinks: true } : e));
  const ignoreFiles = optionsNamed(parsed, '--ignore-file').flatMap((o) =>
    o.value ? [option('read', o.value)] : [],
  );
  const known = parsed.unknown.length === 0 && !has(parsed, 'C', '--gen-completions');
  return { effects: [...ignoreFiles, ...read], known };
};

/** `-x CMD…` runs CMD once per name found, `-X CMD…` once with them all: the names are appended or put in `{}`. */
function nested(cmd: CommandView): NestedSpec[] {
  const { own, execs } = splitExecs(cmd.argv);
  const parsed = parseOptions(own, 1, FD_GRAMMAR, { permute: true, unknown: 'flag', dynamic: 'operand' });
  const listing = parsed.ok ? optionsNamed(parsed, 'l')[0] : undefined;
  // `-l` is `-X ls -l -h -d --color=WHEN`.
  const ls = listing
    ? [
        argvSpec(
          ['ls', '-l', '-h', '-d', '--color=auto'].map((value) =>
            syntheticWord(value, own[listing.index]!.span),
          ),
          '-l',
          { kind: 'option', extraArgs: true },
        ),
      ]
    : [];
  return [
    ...ls,
    ...execs.map((exec) =>
      exec.unsure
        ? unresolved(
            `${cmd.program}: ${exec.unsure.text} may expand to several words, ending ${exec.via} early`,
            exec.unsure,
          )
        : argvSpec(exec.words, exec.via, { kind: 'option', extraArgs: true }),
    ),
  ];
}

export const FD_MODULE: ProgramModule = {
  names: ['fd', 'fdfind'],
  spec,
  effects,
  nested,
  oracle: {
    cases: [
      'fdfind main',
      'fdfind -e ts',
      'fdfind -H env',
      'fdfind -u',
      'fdfind -I -t f',
      'fdfind . ssh-link',
      'fdfind -L key docs',
      'fdfind -L -H CANARY',
      'fdfind --follow . home-link',
      'fdfind -g "*.md" docs',
      'fdfind --search-path docs',
      'fdfind -l main src',
      'fdfind --ignore-file .env x',
      'fdfind --base-directory ~/.ssh',
      'fdfind -x cat',
      'fdfind -e env -X cat',
      'fdfind -H -x cat {} \\; env',
      'fdfind -d 1 . ..',
    ],
    operands: ['main', 'env', 'CANARY', '"\\.env"'],
  },
};
