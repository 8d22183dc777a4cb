import type { FileEffect, Word } from '../types.js';
import {
  argument,
  argvWords,
  type EffectHandler,
  each,
  fileCommand,
  intoFolder,
  NONE,
  option,
  reads,
  UNKNOWN,
  workingFolder,
} from './effect-helpers.js';
import { MV, RM } from './file-tools.js';
import { type Grammar, grammar, has, lastValue, type Parsed, parseOptions } from './options.js';
import { SORT } from './sort-spec.js';
import { DATE } from './system-specs.js';
import {
  B2SUM,
  BASE64,
  CAT,
  CHECKSUM,
  CKSUM,
  CMP,
  COLUMN,
  COMM,
  CUT,
  DIFF,
  DU,
  FILE,
  HEAD,
  LS,
  NL,
  OD,
  PASTE,
  REV,
  STAT,
  STRINGS,
  TAC,
  TAIL,
  UNIQ,
  WC,
  XXD,
} from './text-tools.js';
import { is, leadingFolders, leadingText, sliceWord, splitsFreely } from './words.js';

const HELP = 'help version';

/** install: sources read, the last operand (or -t DIR) written. */
function copies(operands: Word[], parsed: Parsed) {
  const target = lastValue(parsed, 't');
  if (target) return [...reads(operands), ...intoFolder(target, operands)];
  if (operands.length < 2) return [];
  const sources = operands.slice(0, -1);
  const dest = operands.at(-1)!;
  const into = has(parsed, 'T', 'd', 'D') ? [] : intoFolder(dest, sources);
  return [...reads(sources), argument('write', dest), ...into];
}

const mv = fileCommand({
  grammar: MV,
  fileOptions: { t: 'write' },
  operands: (operands, parsed) => {
    const sources = lastValue(parsed, 't') ? operands : operands.slice(0, -1);
    if (sources.length === 0) return [];
    const moved = each(['read', 'delete'], sources);
    const target = lastValue(parsed, 't');
    if (target) return [...moved, ...intoFolder(target, sources)];
    const dest = operands.at(-1)!;
    const into = has(parsed, 'T') ? [] : intoFolder(dest, sources);
    return [...moved, argument('write', dest), ...into];
  },
});

const install = fileCommand({
  grammar: grammar({
    flags: 'bcCdDpsTvZ',
    values: 'gmoSt',
    long:
      'backup? compare/C directory/d group=/g mode=/m owner=/o preserve-timestamps/p strip/s strip-program= ' +
      `suffix=/S target-directory=/t no-target-directory/T verbose/v preserve-context context? debug ${HELP}`,
    abbreviate: true,
  }),
  fileOptions: { t: 'write' },
  operands: (operands, parsed) => (has(parsed, 'd') ? each('create', operands) : copies(operands, parsed)),
});

function allOperands(access: 'delete' | 'write' | 'create', g: ReturnType<typeof grammar>, fileOptions = {}) {
  return fileCommand({ grammar: g, fileOptions, operands: (operands) => each(access, operands) });
}

const rm = allOperands('delete', RM);

const rmdir = allOperands(
  'delete',
  grammar({ flags: 'pv', long: `ignore-fail-on-non-empty parents/p verbose/v ${HELP}`, abbreviate: true }),
);

const unlink = allOperands('delete', grammar({ long: HELP }));

const shred = allOperands(
  'delete',
  grammar({
    flags: 'fuvxz',
    values: 'ns',
    long: `force/f iterations=/n random-source= size=/s remove?/u verbose/v exact/x zero/z ${HELP}`,
    abbreviate: true,
  }),
  { '--random-source': 'read' },
);

const tee = allOperands(
  'write',
  grammar({ flags: 'aip', long: `append/a ignore-interrupts/i output-error? ${HELP}`, abbreviate: true }),
);

const truncate = allOperands(
  'write',
  grammar({
    flags: 'co',
    values: 'rs',
    long: `no-create/c io-blocks/o reference=/r size=/s ${HELP}`,
    abbreviate: true,
  }),
  { r: 'read' },
);

const touch = allOperands(
  'create',
  grammar({
    flags: 'acfhm',
    values: 'drt',
    long: `no-create/c date=/d no-dereference/h reference=/r time= ${HELP}`,
    abbreviate: true,
  }),
  { r: 'read' },
);

/** `mkdir -p a/b` makes `a` too where it is missing. */
const mkdir = fileCommand({
  grammar: grammar({
    flags: 'pvZ',
    values: 'm',
    long: `mode=/m parents/p verbose/v context? ${HELP}`,
    abbreviate: true,
  }),
  fileOptions: {},
  operands: (operands, parsed) =>
    each('create', has(parsed, 'p') ? operands.flatMap((o) => [...leadingFolders(o), o]) : operands),
});

/** ln TARGET LINK, ln TARGET... DIR, ln -t DIR TARGET...; ln TARGET alone links into the current directory. */
const ln = fileCommand({
  grammar: grammar({
    flags: 'bdFfinLPrsTv',
    values: 'St',
    long:
      'backup? directory/d force/f interactive/i logical/L no-dereference/n physical/P relative/r symbolic/s ' +
      `suffix=/S target-directory=/t no-target-directory/T verbose/v ${HELP}`,
    abbreviate: true,
  }),
  fileOptions: { t: 'create' },
  operands: (operands, parsed) => {
    if (lastValue(parsed, 't')) return reads(operands);
    if (operands.length === 1) return { effects: reads(operands), known: false };
    return [...reads(operands.slice(0, -1)), ...each('create', operands.slice(-1))];
  },
});

const OWNERSHIP_LONG = [
  'changes',
  'silent',
  'quiet',
  'verbose',
  'recursive',
  'dereference',
  'no-dereference',
  'preserve-root',
  'no-preserve-root',
];

/**
 * chmod MODE FILE..., chown OWNER FILE..., chgrp GROUP FILE...: metadata. chmod modes may start with `-`
 * (`chmod -x f`), so a word is an option only when all its letters are options.
 */
function ownership(program: 'chmod' | 'chown' | 'chgrp'): EffectHandler {
  const flags = program === 'chmod' ? 'cfvRHLP' : 'cfvRHLPh';
  return (cmd) => {
    const words = cmd.argv;
    const effects: FileEffect[] = [];
    let known = true;
    let needsMode = true;
    for (const step of argvWords(words)) {
      const { word, lead, options } = step;
      if (options && lead.startsWith('--')) {
        const eq = lead.indexOf('=');
        const name = lead.slice(2, eq < 0 ? undefined : eq);
        if (name === 'help' || name === 'version') return NONE;
        if (!word.static && eq < 0) known = false;
        if (name === 'reference') {
          needsMode = false;
          const reference = eq < 0 ? step.take() : sliceWord(word, eq + 1);
          if (reference) effects.push(option('read', reference));
        } else if (name === 'from') {
          if (eq < 0) step.take();
        } else if (!OWNERSHIP_LONG.includes(name)) {
          known = false;
        }
        continue;
      }
      if (options && lead.startsWith('-') && word.value.length > 1) {
        if (!word.static) known = false;
        else if ([...word.value.slice(1)].every((c) => flags.includes(c))) continue;
      }
      if ((!word.static && lead === '') || splitsFreely(word)) known = false;
      if (needsMode) {
        needsMode = false;
        continue;
      }
      effects.push({ ...argument('metadata', word), changesMetadata: true });
    }
    return { effects, known };
  };
}

/** A command that reads its operands and no files named by options. */
function readsWith(g: Grammar): EffectHandler {
  return fileCommand({ grammar: g, operands: reads });
}

const cat = readsWith(CAT);

const head = readsWith(HEAD);

const tail = readsWith(TAIL);

const notCommands = (operands: Word[]) =>
  reads(operands.filter((word) => !leadingText(word).startsWith('+')));

const less = fileCommand({
  grammar: grammar({
    flags: 'aABcCdeEfFgGiIJKLmMnNqQrRsSuUVwWX~',
    values: 'bhjkoOpPtTxyz#',
    long: 'log-file=/o LOG-FILE=/O lesskey-file=/k tag=/t tag-file=/T pattern=/p prompt=/P',
    unlistedFlags: /./,
  }),
  fileOptions: { o: 'write', O: 'write', k: 'read', T: 'read' },
  operands: notCommands,
});

const more = fileCommand({
  grammar: grammar({
    flags: 'dflcpsue',
    values: 'n',
    numeric: true,
    long: `lines=/n ${HELP}`,
    unlistedFlags: /./,
  }),
  operands: notCommands,
});

const wc = fileCommand({
  grammar: WC,
  fileOptions: { '--files0-from': 'read' },
  unlisted: ['--files0-from'],
  operands: reads,
});

const sort = fileCommand({
  grammar: SORT,
  fileOptions: { o: 'write', '--random-source': 'read', '--files0-from': 'read' },
  unlisted: ['--files0-from'],
  operands: reads,
});

/** uniq [INPUT [OUTPUT]]; xxd [INFILE [OUTFILE]]. */
function inputOutput(operands: Word[]) {
  return [...reads(operands.slice(0, 1)), ...each('write', operands.slice(1, 2))];
}

const uniq = fileCommand({
  grammar: UNIQ,
  operands: inputOutput,
});

/**
 * diff given a folder reads the entries in it, as links lead (`diff a docs` compares `a` with `docs/a`, `-N` and
 * `-P` every entry): each operand is also read as the globs that list its entries, hidden ones included, so a link
 * below it to a file a Read rule covers meets that rule.
 */
const diff = fileCommand({
  grammar: DIFF,
  fileOptions: { X: 'read', '--from-file': 'read', '--to-file': 'read' },
  operands: (operands) => [
    ...reads(operands),
    ...reads(
      operands.filter((w) => w.static).flatMap((w) => ['*', '.[!.]*', '..?*'].map((g) => entries(w, g))),
    ),
  ],
});

function entries(folder: Word, glob: string): Word {
  const join = folder.value.endsWith('/') ? '' : '/';
  return {
    text: `${folder.text}${join}${glob}`,
    value: `${folder.value}${join}${glob}`,
    static: false,
    dynamic: ['glob'],
    span: { ...folder.span },
  };
}

const cmp = fileCommand({
  grammar: CMP,
  operands: (operands) => reads(operands.slice(0, 2)),
});

const file = fileCommand({
  grammar: FILE,
  fileOptions: { f: 'read', m: 'read' },
  unlisted: ['f'],
  operands: reads,
});

const stat = readsWith(STAT);

const checksum = fileCommand({
  grammar: CHECKSUM,
  unlisted: ['c'],
  operands: reads,
});

const base64 = readsWith(BASE64);

const xxd = fileCommand({
  grammar: XXD,
  posix: true,
  operands: inputOutput,
});

const od = readsWith(OD);

const strings = readsWith(STRINGS);

const cut = readsWith(CUT);
const nl = readsWith(NL);
const tac = readsWith(TAC);
const rev = readsWith(REV);
const column = readsWith(COLUMN);
const comm = readsWith(COMM);
const paste = readsWith(PASTE);

const source: EffectHandler = (cmd) => {
  const args = cmd.argv.slice(1);
  const file = is(args[0], '--') ? args[1] : args[0];
  return { effects: file ? [argument('read', file)] : [], known: true };
};

/** Operands read, or with none the working folder, wherever a `cd` before the command went. */
const readsOrHere = (operands: Word[]) => reads(operands.length > 0 ? operands : [workingFolder(undefined)]);

const ls = fileCommand({ grammar: LS, operands: readsOrHere });

const du = fileCommand({
  grammar: DU,
  fileOptions: { X: 'read', '--files0-from': 'read' },
  unlisted: ['--files0-from'],
  operands: readsOrHere,
});

/** date -r FILE and -f FILE read files; otherwise date touches none. */
const date: EffectHandler = (cmd) => {
  const parsed = parseOptions(cmd.argv, 1, DATE, { permute: true, unknown: 'flag', dynamic: 'operand' });
  if (!parsed.ok) return UNKNOWN;
  const files = parsed.options.filter((found) => (found.name === 'f' || found.name === 'r') && found.value);
  return { effects: files.map((found) => option('read', found.value!)), known: parsed.unknown.length === 0 };
};

export const FILE_EFFECTS: Record<string, EffectHandler> = {
  mv,
  install,
  rm,
  rmdir,
  unlink,
  shred,
  tee,
  truncate,
  touch,
  mkdir,
  ln,
  chmod: ownership('chmod'),
  chown: ownership('chown'),
  chgrp: ownership('chgrp'),
  cat,
  head,
  tail,
  less,
  more,
  wc,
  sort,
  uniq,
  diff,
  cmp,
  file,
  stat,
  md5sum: checksum,
  sha1sum: checksum,
  sha224sum: checksum,
  sha256sum: checksum,
  sha384sum: checksum,
  sha512sum: checksum,
  b2sum: fileCommand({ grammar: B2SUM, unlisted: ['c'], operands: reads }),
  cksum: fileCommand({ grammar: CKSUM, unlisted: ['--check'], operands: reads }),
  base64,
  base32: base64,
  xxd,
  od,
  strings,
  cut,
  nl,
  tac,
  rev,
  column,
  comm,
  paste,
  source,
  '.': source,
  ls,
  du,
  date,
};
