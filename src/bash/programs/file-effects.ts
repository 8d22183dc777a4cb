import type { FileEffect, Word } from '../types.js';
import {
  argument,
  type EffectHandler,
  each,
  fileCommand,
  NONE,
  option,
  reads,
  UNKNOWN,
  workingFolder,
} from './effect-helpers.js';
import { grammar, has, lastValue, type Parsed, parseOptions } from './options.js';
import { is, leadingText, sliceWord, splitsFreely } from './words.js';

const HELP = 'help version';

/** cp, install: sources read, the last operand (or -t DIR) written. */
function copies(operands: Word[], parsed: Parsed) {
  if (lastValue(parsed, 't')) return reads(operands);
  if (operands.length < 2) return [];
  return [...reads(operands.slice(0, -1)), argument('write', operands.at(-1)!)];
}

const cp = fileCommand({
  grammar: grammar({
    flags: 'abdfHilLnPpRrsuvxTZ',
    values: 'St',
    long:
      'archive/a attributes-only backup? copy-contents debug dereference/L force/f interactive/i link/l ' +
      'no-clobber/n no-dereference/P no-preserve= no-target-directory/T one-file-system/x parents preserve? ' +
      'recursive/R reflink? remove-destination sparse= strip-trailing-slashes suffix=/S symbolic-link/s ' +
      `target-directory=/t update? verbose/v context? keep-directory-symlink ${HELP}`,
    abbreviate: true,
  }),
  fileOptions: { t: 'write' },
  operands: copies,
});

const mv = fileCommand({
  grammar: grammar({
    flags: 'bfinuvTZ',
    values: 'St',
    long:
      'backup? debug exchange force/f interactive/i no-clobber/n no-copy strip-trailing-slashes suffix=/S ' +
      `target-directory=/t no-target-directory/T update? verbose/v context/Z ${HELP}`,
    abbreviate: true,
  }),
  fileOptions: { t: 'write' },
  operands: (operands, parsed) => {
    const sources = lastValue(parsed, 't') ? operands : operands.slice(0, -1);
    if (sources.length === 0) return [];
    const moved = each(['read', 'delete'], sources);
    return lastValue(parsed, 't') ? moved : [...moved, argument('write', operands.at(-1)!)];
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

const rm = allOperands(
  'delete',
  grammar({
    flags: 'fiIrRdv',
    long: `force/f interactive? one-file-system no-preserve-root preserve-root? recursive/r dir/d verbose/v ${HELP}`,
    abbreviate: true,
  }),
);

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

const mkdir = allOperands(
  'create',
  grammar({
    flags: 'pvZ',
    values: 'm',
    long: `mode=/m parents/p verbose/v context? ${HELP}`,
    abbreviate: true,
  }),
);

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
    let options = true;
    for (let i = 1; i < words.length; i++) {
      const word = words[i]!;
      const lead = leadingText(word);
      if (options && is(word, '--')) {
        options = false;
        continue;
      }
      if (options && lead.startsWith('--')) {
        const eq = lead.indexOf('=');
        const name = lead.slice(2, eq < 0 ? undefined : eq);
        if (name === 'help' || name === 'version') return NONE;
        if (!word.static && eq < 0) known = false;
        if (name === 'reference') {
          needsMode = false;
          const reference = eq < 0 ? words[++i] : sliceWord(word, eq + 1);
          if (reference) effects.push(option('read', reference));
        } else if (name === 'from') {
          if (eq < 0) i++;
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
      effects.push(argument('metadata', word));
    }
    return { effects, known };
  };
}

const cat = fileCommand({
  grammar: grammar({
    flags: 'AbeEnstTuv',
    long:
      'show-all/A number-nonblank/b show-ends/E number/n squeeze-blank/s show-tabs/T show-nonprinting/v ' +
      HELP,
  }),
  operands: reads,
});

const head = fileCommand({
  grammar: grammar({
    flags: 'qvz',
    values: 'nc',
    numeric: true,
    long: `bytes=/c lines=/n quiet/q silent/q verbose/v zero-terminated/z ${HELP}`,
    abbreviate: true,
  }),
  operands: reads,
});

const tail = fileCommand({
  grammar: grammar({
    flags: 'fFqvz',
    values: 'ncs',
    numeric: true,
    long:
      'bytes=/c follow?/f lines=/n max-unchanged-stats= pid= quiet/q silent/q retry sleep-interval=/s ' +
      `verbose/v zero-terminated/z ${HELP}`,
    abbreviate: true,
  }),
  operands: reads,
});

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

const grep = fileCommand({
  grammar: grammar({
    flags: 'EFGPiywxzsvVbnHhoqaIrRLlcTZUu',
    values: 'efmABCDd',
    long:
      'extended-regexp/E fixed-strings/F basic-regexp/G perl-regexp/P regexp=/e file=/f ignore-case/i ' +
      'no-ignore-case word-regexp/w line-regexp/x null-data/z no-messages/s invert-match/v version/V help ' +
      'max-count=/m byte-offset/b line-number/n no-line-number line-buffered with-filename/H no-filename/h ' +
      'label= only-matching/o quiet/q silent/q binary-files= text/a devices=/D directories=/d exclude= ' +
      'exclude-from= exclude-dir= include= recursive/r dereference-recursive/R files-without-match/L ' +
      'files-with-matches/l count/c initial-tab/T null/Z after-context=/A before-context=/B context=/C ' +
      'color? colour? binary/U',
    numeric: true,
  }),
  fileOptions: { f: 'read', '--exclude-from': 'read' },
  operands: (operands, parsed) => {
    const files = has(parsed, 'e', 'f') ? operands : operands.slice(1);
    // `grep -r PATTERN` with no file searches the working folder.
    if (files.length === 0 && has(parsed, 'r', 'R')) return reads([workingFolder(operands.at(-1))]);
    return reads(files);
  },
});

const RG_GRAMMAR = grammar({
  flags: 'aBcFHhiIjlLnNoOpqsSuUvVwxzz0',
  values: 'efgtTABCEmjMrd',
  long:
    'regexp=/e file=/f glob=/g iglob= type=/t type-not=/T type-add= type-clear= after-context=/A ' +
    'before-context=/B context=/C context-separator= field-context-separator= field-match-separator= ' +
    'encoding=/E max-count=/m max-depth=/d maxdepth=/d max-filesize= max-columns=/M replace=/r threads=/j ' +
    'color= colors= sort= sortr= path-separator= pre= pre-glob= engine= dfa-size-limit= regex-size-limit= ' +
    'ignore-file= hyperlink-format= generate= hostname-bin= files type-list',
  unlistedFlags: /./,
});

const rg = fileCommand({
  grammar: RG_GRAMMAR,
  fileOptions: { f: 'read', '--ignore-file': 'read' },
  operands: (operands, parsed) => {
    if (has(parsed, '--type-list', '--generate')) return [];
    const named = has(parsed, 'e', 'f', '--files') ? operands : operands.slice(1);
    const files = named.length > 0 ? named : [workingFolder(operands.at(-1))];
    // Hidden entries below a folder are skipped unless --hidden or -uu (files named outright are read).
    const hidden = has(parsed, '--hidden') || parsed.options.filter((o) => o.name === 'u').length >= 2;
    return reads(files).map((e) => (hidden ? e : { ...e, skipsHidden: true as const }));
  },
});

const wc = fileCommand({
  grammar: grammar({
    flags: 'clmwL',
    long: `bytes/c chars/m lines/l words/w max-line-length/L files0-from= total= ${HELP}`,
  }),
  fileOptions: { '--files0-from': 'read' },
  unlisted: ['--files0-from'],
  operands: reads,
});

const sort = fileCommand({
  grammar: grammar({
    flags: 'bdfgiMhnRrVcCsuzm',
    values: 'koStT',
    long:
      'ignore-leading-blanks/b dictionary-order/d ignore-case/f general-numeric-sort/g ignore-nonprinting/i ' +
      'month-sort/M human-numeric-sort/h numeric-sort/n random-sort/R random-source= reverse/r sort= ' +
      'version-sort/V batch-size= check? compress-program= debug files0-from= key=/k merge/m output=/o ' +
      `stable/s buffer-size=/S field-separator=/t temporary-directory=/T parallel= unique/u zero-terminated/z ${HELP}`,
    abbreviate: true,
  }),
  fileOptions: { o: 'write', '--random-source': 'read', '--files0-from': 'read' },
  unlisted: ['--files0-from'],
  operands: reads,
});

/** uniq [INPUT [OUTPUT]]; xxd [INFILE [OUTFILE]]. */
function inputOutput(operands: Word[]) {
  return [...reads(operands.slice(0, 1)), ...each('write', operands.slice(1, 2))];
}

const uniq = fileCommand({
  grammar: grammar({
    flags: 'cdDiuz',
    values: 'fsw',
    long:
      'count/c repeated/d all-repeated? group? ignore-case/i skip-fields=/f skip-chars=/s unique/u ' +
      `zero-terminated/z check-chars=/w ${HELP}`,
    abbreviate: true,
  }),
  operands: inputOutput,
});

const diff = fileCommand({
  grammar: grammar({
    flags: 'abBdeEfhHilnNpPqrsStTuvwWyZ',
    values: 'CDFILSUWxX',
    long:
      'normal brief/q report-identical-files/s context?/C unified?/U ed/e rcs/n side-by-side/y width=/W ' +
      'left-column suppress-common-lines show-c-function/p show-function-line=/F label=/L expand-tabs/t ' +
      'initial-tab/T tabsize= suppress-blank-empty paginate/l recursive/r no-dereference new-file/N ' +
      'unidirectional-new-file starting-file=/S exclude=/x exclude-from=/X from-file= to-file= ' +
      'ignore-file-name-case no-ignore-file-name-case ignore-case/i ignore-tab-expansion/E ' +
      'ignore-trailing-space/Z ignore-space-change/b ignore-all-space/w ignore-blank-lines/B ' +
      'ignore-matching-lines=/I text/a strip-trailing-cr minimal/d horizon-lines= speed-large-files ' +
      'line-format= old-line-format= new-line-format= unchanged-line-format= old-group-format= ' +
      'new-group-format= unchanged-group-format= changed-group-format= ifdef=/D color? palette= help version/v',
    abbreviate: true,
  }),
  fileOptions: { X: 'read', '--from-file': 'read', '--to-file': 'read' },
  operands: reads,
});

const cmp = fileCommand({
  grammar: grammar({
    flags: 'blsv',
    values: 'in',
    long: `print-bytes/b ignore-initial=/i verbose/l bytes=/n quiet/s silent/s ${HELP}`,
  }),
  operands: (operands) => reads(operands.slice(0, 2)),
});

const file = fileCommand({
  grammar: grammar({
    flags: 'bcdEhiIkLlNnprsSvz0',
    values: 'eFfmP',
    long:
      'brief/b checking-printout/c exclude=/e exclude-quiet= files-from=/f separator=/F mime/i mime-type ' +
      'mime-encoding keep-going/k list/l dereference/L magic-file=/m no-buffer/n no-pad/N print0/0 ' +
      'preserve-date/p parameter=/P raw/r special-files/s uncompress/z uncompress-noreport/Z extension ' +
      'apple no-dereference/h help version/v',
  }),
  fileOptions: { f: 'read', m: 'read' },
  unlisted: ['f'],
  operands: reads,
});

const stat = fileCommand({
  grammar: grammar({
    flags: 'LftZ',
    values: 'c',
    long: `dereference/L file-system/f format=/c printf= terse/t cached= ${HELP}`,
  }),
  operands: reads,
});

const checksum = fileCommand({
  grammar: grammar({
    flags: 'bctwzl',
    values: 'a',
    long:
      'binary/b check/c tag text/t ignore-missing quiet status strict warn/w zero/z algorithm=/a length=/l ' +
      `base64 raw untagged ${HELP}`,
  }),
  unlisted: ['c'],
  operands: reads,
});

const base64 = fileCommand({
  grammar: grammar({ flags: 'di', values: 'w', long: `decode/d ignore-garbage/i wrap=/w ${HELP}` }),
  operands: reads,
});

const xxd = fileCommand({
  grammar: grammar({
    flags: 'abCEehiprRuvd',
    values: 'cglnos',
    words: '-ps -plain -postscript -bits -include -revert -version -help -cols= -len= -seek= -name=',
  }),
  posix: true,
  operands: inputOutput,
});

const od = fileCommand({
  grammar: grammar({
    flags: 'bcdfilosvx',
    values: 'AjNSwt',
    optional: '',
    long: `address-radix=/A skip-bytes=/j read-bytes=/N strings?/S format=/t output-duplicates/v width?/w traditional endian= ${HELP}`,
  }),
  operands: reads,
});

const strings = fileCommand({
  grammar: grammar({
    flags: 'afdwUv',
    values: 'nteTsU',
    numeric: true,
    long:
      'all/a data/d print-file-name/f bytes=/n radix=/t encoding=/e target=/T include-all-whitespace/w ' +
      `output-separator=/s unicode=/U ${HELP}`,
  }),
  operands: reads,
});

function readsWith(flags: string, values = '', long = ''): EffectHandler {
  return fileCommand({
    grammar: grammar({ flags, values, long: `${long} ${HELP}`, abbreviate: true }),
    operands: reads,
  });
}

const cut = readsWith(
  'nsz',
  'bcdf',
  'bytes=/b characters=/c delimiter=/d fields=/f complement only-delimited/s output-delimiter= zero-terminated/z',
);
const nl = readsWith(
  'p',
  'bdfhilnsvw',
  'body-numbering=/b section-delimiter=/d footer-numbering=/f header-numbering=/h line-increment=/i ' +
    'join-blank-lines=/l number-format=/n no-renumber/p number-separator=/s starting-line-number=/v number-width=/w',
);
const tac = readsWith('br', 's', 'before/b regex/r separator=/s');
const rev = readsWith('');
const column = readsWith(
  'deJLtxh',
  'cCEHinNoOpRrsTW',
  'columns=/c table-columns-limit=/l table/t separator=/s output-separator=/o fillrows/x json/J',
);
const comm = readsWith('123z', '', 'check-order nocheck-order output-delimiter= total zero-terminated/z');
const paste = readsWith('sz', 'd', 'delimiters=/d serial/s zero-terminated/z');

const source: EffectHandler = (cmd) => {
  const args = cmd.argv.slice(1);
  const file = is(args[0], '--') ? args[1] : args[0];
  return { effects: file ? [argument('read', file)] : [], known: true };
};

const ls = fileCommand({
  grammar: grammar({
    flags: 'aAbBcCdDfFgGhHiklLmnNopqQrRsStuUvxXZ1',
    values: 'ITw',
    long:
      'all/a almost-all/A author escape/b block-size= ignore-backups/B color? directory/d dired/D classify? ' +
      'file-type format= full-time group-directories-first no-group/G human-readable/h si ' +
      'dereference-command-line/H dereference-command-line-symlink-to-dir hide= hyperlink? indicator-style= ' +
      'inode/i ignore=/I kibibytes/k dereference/L numeric-uid-gid/n literal/N hide-control-chars/q ' +
      'show-control-chars quote-name/Q quoting-style= reverse/r recursive/R size/s sort= time= time-style= ' +
      `tabsize=/T width=/w context/Z zero ${HELP}`,
    abbreviate: true,
  }),
  operands: reads,
});

const du = fileCommand({
  grammar: grammar({
    flags: 'a0bcDhHkLlmPsSx',
    values: 'BdtX',
    long:
      'all/a apparent-size block-size=/B bytes/b total/c dereference-args/D max-depth=/d files0-from= ' +
      'human-readable/h inodes dereference/L count-links/l no-dereference/P separate-dirs/S summarize/s si ' +
      `threshold=/t time? time-style= exclude-from=/X exclude= one-file-system/x null/0 ${HELP}`,
    abbreviate: true,
  }),
  fileOptions: { X: 'read', '--files0-from': 'read' },
  unlisted: ['--files0-from'],
  operands: reads,
});

const tree = fileCommand({
  grammar: grammar({
    flags: 'adlfxACDFgJhinpqQrsStuUvX',
    values: 'LPIoHT',
    long:
      'noreport charset= filelimit= timefmt= du si prune dirsfirst filesfirst gitignore fromfile fromtabfile ' +
      'info infofile= matchdirs ignore-case metafirst sort= nolinks hyperlink help version',
  }),
  fileOptions: { o: 'write' },
  operands: reads,
});

/** date -r FILE and -f FILE read files; otherwise date touches none. */
const date: EffectHandler = (cmd) => {
  const parsed = parseOptions(
    cmd.argv,
    1,
    grammar({
      flags: 'uRI',
      values: 'dfrs',
      optional: 'I',
      long: 'date=/d file=/f reference=/r set=/s utc/u universal/u rfc-email/R iso-8601?/I rfc-3339= debug resolution help version',
      abbreviate: true,
    }),
    { permute: true, unknown: 'flag', dynamic: 'operand' },
  );
  if (!parsed.ok) return UNKNOWN;
  const files = parsed.options.filter((found) => (found.name === 'f' || found.name === 'r') && found.value);
  return { effects: files.map((found) => option('read', found.value!)), known: parsed.unknown.length === 0 };
};

export const FILE_EFFECTS: Record<string, EffectHandler> = {
  cp,
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
  grep,
  egrep: grep,
  fgrep: grep,
  rg,
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
  b2sum: checksum,
  cksum: checksum,
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
  tree,
  date,
};
