import { checkProgram } from '../bash/programs/read-only.js';
import { programSpec } from '../bash/programs/registry.js';
import { syntheticWord } from '../bash/programs/words.js';
import type { Word } from '../bash/types.js';

/**
 * Commands that only read, allowed without a rule. A command qualifies when its program is listed, none of
 * its options is unsafe, its subcommand (if the program has them) is read-only, every word is static (unless
 * `anyArgs`), and the classifier finds no write, no hidden code and no read outside the permitted folders.
 */
export interface ReadOnlySpec {
  /** Options that write, delete or run something. `-o` also matches `-ofile`; `--out` matches `--out=x`. */
  unsafe?: string[];
  /**
   * Options that make a recursive reader follow every link below its folders: what those links lead to is
   * not known before the command runs, so no deny rule can be checked against it.
   */
  followsLinks?: string[];
  /** Options that are unsafe only before the subcommand (`git -p log` pages; `git log -p` shows patches). */
  globalUnsafe?: string[];
  /** The largest number of non-option words (uniq's second file is its output). */
  maxPositionals?: number;
  /** Arguments are never files or options that matter: dynamic words are harmless. */
  anyArgs?: boolean;
  /** Read-only subcommands (first non-option word), each with its own checks. */
  subcommands?: Record<string, SubcommandSpec>;
}

export interface SubcommandSpec {
  unsafe?: string[];
  maxPositionals?: number;
  /** When present, read-only only with one of these options, or with one of these words right after it. */
  requireOneOf?: string[];
}

/** `grep -r` follows only the links named on the command line (which are checked); `-R` follows all. */
const GREP_FOLLOWS = ['-R', '--dereference-recursive'];

const NOWHERE = { start: 0, end: 0 };

const ANY: ReadOnlySpec = { anyArgs: true };
const READ: ReadOnlySpec = {};

export const READ_ONLY: Record<string, ReadOnlySpec> = {
  echo: ANY,
  printf: ANY,
  true: ANY,
  false: ANY,
  sleep: ANY,
  test: ANY,
  '[': ANY,
  seq: ANY,
  expr: ANY,
  pwd: READ,
  whoami: READ,
  id: READ,
  groups: READ,
  uname: READ,
  nproc: READ,
  arch: READ,
  uptime: READ,
  tty: READ,
  locale: READ,
  free: READ,
  ps: READ,
  which: READ,
  type: READ,
  date: { unsafe: ['-s', '--set', '-f', '--file'] },
  hostname: { maxPositionals: 0, unsafe: ['-F', '--file', '-b', '--boot'] },
  cd: { maxPositionals: 1 },
  ls: READ,
  cat: READ,
  head: READ,
  tail: READ,
  wc: READ,
  nl: READ,
  tac: READ,
  rev: READ,
  cut: READ,
  tr: READ,
  column: READ,
  comm: READ,
  paste: READ,
  join: READ,
  fold: READ,
  fmt: READ,
  expand: READ,
  unexpand: READ,
  od: READ,
  strings: READ,
  file: { unsafe: ['-C', '--compile', '-m', '--magic-file'] },
  stat: READ,
  du: READ,
  df: READ,
  basename: ANY,
  dirname: ANY,
  realpath: READ,
  readlink: READ,
  md5sum: READ,
  sha1sum: READ,
  sha256sum: READ,
  sha512sum: READ,
  cksum: READ,
  base64: READ,
  diff: { unsafe: ['--to-file', '--from-file'] },
  cmp: READ,
  grep: { unsafe: ['-f', '--file'], followsLinks: GREP_FOLLOWS },
  egrep: { unsafe: ['-f', '--file'], followsLinks: GREP_FOLLOWS },
  fgrep: { unsafe: ['-f', '--file'], followsLinks: GREP_FOLLOWS },
  rg: {
    unsafe: ['--pre', '--hostname-bin', '-z', '--search-zip', '-f', '--file'],
    followsLinks: ['-L', '--follow'],
  },
  sort: { unsafe: ['-o', '--output', '--compress-program', '-T', '--temporary-directory'] },
  uniq: { maxPositionals: 1 },
  tree: { unsafe: ['-o'] },
  xxd: { maxPositionals: 1, unsafe: ['-r', '-revert'] },
  jq: READ,
  yq: { unsafe: ['-i', '--inplace'] },
  sed: { unsafe: ['-i', '--in-place', '-f', '--file', '-s', '--separate'] },
  awk: { unsafe: ['-i', '--include', '-f', '--file', '-l', '--load', '-E', '--exec'] },
  find: {
    unsafe: ['-exec', '-execdir', '-ok', '-okdir', '-delete', '-fprint', '-fprint0', '-fprintf', '-fls'],
  },
};

/** Options written as `-o` may carry their value glued (`-ofile`) or after `=`. */
function isUnsafe(word: string, unsafe: readonly string[]): string | undefined {
  for (const u of unsafe) {
    if (word === u) return u;
    if (u.startsWith('--') && word.startsWith(`${u}=`)) return u;
    if (!u.startsWith('--') && u.length === 2 && word.startsWith(u) && !word.startsWith('--')) return u;
    if (!u.startsWith('-') && word === u) return u;
  }
  return undefined;
}

/** Short option clusters (`-rn`) hide single-letter unsafe options like `-i`. */
function clusterHits(word: string, unsafe: readonly string[]): string | undefined {
  if (!/^-[A-Za-z]{2,}$/.test(word)) return undefined;
  for (const letter of word.slice(1)) {
    const hit = unsafe.find((u) => u === `-${letter}`);
    if (hit) return hit;
  }
  return undefined;
}

export interface ReadOnlyCheck {
  readOnly: boolean;
  reason: string;
  /** The program is in the table: when it is refused, the reason says which word made it unsafe. */
  known: boolean;
}

/**
 * Decides from argv values alone whether the command is one of the read-only defaults. `allStatic` is true when
 * every word is known (globs allowed: they only pick file names).
 */
export function checkReadOnly(
  program: string,
  argv: readonly string[],
  allStatic: boolean,
  leadingGlob = false,
  words?: readonly Word[],
): ReadOnlyCheck {
  const programSpecOf = programSpec(program);
  if (programSpecOf) {
    return checkProgram(
      programSpecOf,
      words ?? argv.map((value) => syntheticWord(value, NOWHERE)),
      allStatic,
    );
  }
  const spec = Object.hasOwn(READ_ONLY, program) ? READ_ONLY[program] : undefined;
  if (!spec) return { readOnly: false, reason: `${program} is not a known read-only command`, known: false };
  const check = checkSpec(program, spec, argv, allStatic, leadingGlob);
  return { readOnly: check.readOnly, reason: check.reason, known: true };
}

function checkSpec(
  program: string,
  spec: ReadOnlySpec,
  argv: readonly string[],
  allStatic: boolean,
  leadingGlob: boolean,
): Omit<ReadOnlyCheck, 'known'> {
  if (!allStatic && !spec.anyArgs) {
    return { readOnly: false, reason: `${program} has arguments only known at run time` };
  }
  const optionsMatter =
    (spec.unsafe?.length ?? 0) > 0 || spec.subcommands !== undefined || spec.maxPositionals !== undefined;
  if (leadingGlob && optionsMatter) {
    return {
      readOnly: false,
      reason: `a glob could expand to a file name that ${program} reads as an option`,
    };
  }
  const args = argv.slice(1);
  const unsafe = spec.unsafe ?? [];
  let sub: SubcommandSpec | undefined;
  let subName: string | undefined;
  const positionals: string[] = [];
  let endOfOptions = false;
  for (const word of args) {
    if (!endOfOptions && word === '--') {
      endOfOptions = true;
      continue;
    }
    const isOption = !endOfOptions && word.startsWith('-') && word !== '-';
    if (isOption) {
      const before = subName === undefined ? (spec.globalUnsafe ?? []) : [];
      const hit = isUnsafe(word, [...unsafe, ...before]) ?? clusterHits(word, [...unsafe, ...before]);
      if (hit) return { readOnly: false, reason: `${program} ${hit} can write or run programs` };
      const follows = spec.followsLinks ?? [];
      const link = isUnsafe(word, follows) ?? clusterHits(word, follows);
      if (link) {
        return {
          readOnly: false,
          reason: `${program} ${link} follows links below the folder, to files no rule can be checked against`,
        };
      }
      if (sub) {
        const subHit = isUnsafe(word, sub.unsafe ?? []) ?? clusterHits(word, sub.unsafe ?? []);
        if (subHit) return { readOnly: false, reason: `${program} ${subName} ${subHit} changes state` };
      }
      continue;
    }
    if (spec.subcommands && subName === undefined) {
      subName = word;
      sub = Object.hasOwn(spec.subcommands, word) ? spec.subcommands[word] : undefined;
      if (!sub) return { readOnly: false, reason: `${program} ${word} is not a known read-only subcommand` };
      continue;
    }
    if (sub?.unsafe?.includes(word))
      return { readOnly: false, reason: `${program} ${subName} ${word} changes state` };
    positionals.push(word);
  }
  if (spec.subcommands && !sub) return { readOnly: false, reason: `${program} without a subcommand` };
  if (spec.maxPositionals !== undefined && positionals.length > spec.maxPositionals) {
    return { readOnly: false, reason: `${program} with ${positionals.length} arguments can write` };
  }
  if (sub) {
    if (sub.maxPositionals !== undefined && positionals.length > sub.maxPositionals) {
      return { readOnly: false, reason: `${program} ${subName} with arguments changes state` };
    }
    const listing = sub.requireOneOf?.some((r) =>
      r.startsWith('-') ? args.includes(r) : positionals[0] === r,
    );
    if (sub.requireOneOf && !listing) {
      return { readOnly: false, reason: `${program} ${subName} changes state unless listing` };
    }
  }
  return { readOnly: true, reason: `${program} only reads` };
}
