import type { Word } from '../types.js';
import { type Grammar, grammar, has, type Parsed } from './options.js';
import { everyOption, everyOptionBut, type ProgramSpec, readOnly } from './program.js';
import { leadingText } from './words.js';

/** The options every GNU coreutils program reads. */
const HELP = 'help version';
const LONG_HELP = '--help --version';

function allReading(name: string, g: Grammar, operands: 'files' | 'inert' | 'none' = 'files'): ProgramSpec {
  return { name, grammar: g, readOnly: readOnly(() => everyOption(g), operands) };
}

const FOLLOWS_LINKS = 'follows links below the folder, to files no rule can be checked against';
const READS_LISTED = 'reads files its operands do not name';

export const CAT = grammar({
  flags: 'AbeEnstTuv',
  long:
    'show-all/A number-nonblank/b show-ends/E number/n squeeze-blank/s show-tabs/T show-nonprinting/v ' +
    HELP,
});

export const HEAD = grammar({
  flags: 'qvz',
  values: 'nc',
  numeric: true,
  long: `bytes=/c lines=/n quiet/q silent/q verbose/v zero-terminated/z ${HELP}`,
});

export const TAIL = grammar({
  flags: 'fFqvz',
  values: 'ncs',
  numeric: true,
  long:
    'bytes=/c follow?/f lines=/n max-unchanged-stats= pid= quiet/q silent/q retry sleep-interval=/s ' +
    `verbose/v zero-terminated/z ${HELP}`,
});

export const WC = grammar({
  flags: 'clmwL',
  long: `bytes/c chars/m lines/l words/w max-line-length/L files0-from= total= ${HELP}`,
});

export const UNIQ = grammar({
  flags: 'cdDiuz',
  values: 'fsw',
  long:
    'count/c repeated/d all-repeated? group? ignore-case/i skip-fields=/f skip-chars=/s unique/u ' +
    `zero-terminated/z check-chars=/w ${HELP}`,
});

export const DIFF = grammar({
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
});

export const CMP = grammar({
  flags: 'blsv',
  values: 'in',
  long: `print-bytes/b ignore-initial=/i verbose/l bytes=/n quiet/s silent/s ${HELP}`,
});

export const FILE = grammar({
  flags: 'bcCdEhiIkLlNnprsSvzZ0',
  values: 'eFfmP',
  long:
    'brief/b checking-printout/c compile/C debug/d exclude=/e exclude-quiet= files-from=/f separator=/F ' +
    'mime/i mime-type mime-encoding keep-going/k list/l dereference/L magic-file=/m no-buffer/n no-pad/N ' +
    'print0/0 preserve-date/p parameter=/P raw/r special-files/s no-sandbox/S uncompress/z ' +
    'uncompress-noreport/Z extension apple no-dereference/h help version/v',
});

export const STAT = grammar({
  flags: 'LftZ',
  values: 'c',
  long: `dereference/L file-system/f format=/c printf= terse/t cached= ${HELP}`,
});

export const CHECKSUM = grammar({
  flags: 'bctwz',
  long: `binary/b check/c tag text/t ignore-missing quiet status strict warn/w zero/z ${HELP}`,
});

export const B2SUM = grammar({
  flags: 'bctwz',
  values: 'l',
  long: `binary/b check/c length=/l tag text/t ignore-missing quiet status strict warn/w zero/z ${HELP}`,
});

export const CKSUM = grammar({
  flags: 'wz',
  values: 'al',
  long:
    'algorithm=/a base64 check debug ignore-missing length=/l quiet raw status strict tag untagged warn/w ' +
    `zero/z ${HELP}`,
});

export const BASE64 = grammar({
  flags: 'di',
  values: 'w',
  long: `decode/d ignore-garbage/i wrap=/w ${HELP}`,
});

export const XXD = grammar({
  flags: 'abCEehipruvd',
  values: 'cglnos',
  words: '-ps -plain -postscript -bits -include -revert -version -help -cols= -len= -seek= -name=',
  abbreviate: false,
});

export const OD = grammar({
  flags: 'bcdfilosvx',
  values: 'AjNSwt',
  long: `address-radix=/A skip-bytes=/j read-bytes=/N strings?/S format=/t output-duplicates/v width?/w traditional endian= ${HELP}`,
});

export const STRINGS = grammar({
  flags: 'afdwvV',
  values: 'nteTsU',
  numeric: true,
  long:
    'all/a data/d print-file-name/f bytes=/n radix=/t encoding=/e target=/T include-all-whitespace/w ' +
    'output-separator=/s unicode=/U help version/v',
});

export const CUT = grammar({
  flags: 'nsz',
  values: 'bcdf',
  long:
    'bytes=/b characters=/c delimiter=/d fields=/f complement only-delimited/s output-delimiter= ' +
    `zero-terminated/z ${HELP}`,
});

export const NL = grammar({
  flags: 'p',
  values: 'bdfhilnsvw',
  long:
    'body-numbering=/b section-delimiter=/d footer-numbering=/f header-numbering=/h line-increment=/i ' +
    'join-blank-lines=/l number-format=/n no-renumber/p number-separator=/s starting-line-number=/v ' +
    `number-width=/w ${HELP}`,
});

export const TAC = grammar({ flags: 'br', values: 's', long: `before/b regex/r separator=/s ${HELP}` });

export const REV = grammar({ flags: 'hV', long: 'help/h version/V' });

export const COLUMN = grammar({
  flags: 'deJLtxhV',
  values: 'cCEHinNoOpRrsTWl',
  long:
    'columns=/c output-width=/c table-columns-limit=/l table/t separator=/s output-separator=/o fillrows/x ' +
    'json/J keep-empty-lines/L table-name=/n table-order=/O table-columns=/N table-noextreme=/E ' +
    'table-noheadings/d table-header-repeat/e table-hide=/H table-right=/R table-truncate=/T table-wrap=/W ' +
    'tree=/r tree-id=/i tree-parent=/p help/h version/V',
});

export const COMM = grammar({
  flags: '123z',
  long: `check-order nocheck-order output-delimiter= total zero-terminated/z ${HELP}`,
});

export const PASTE = grammar({
  flags: 'sz',
  values: 'd',
  long: `delimiters=/d serial/s zero-terminated/z ${HELP}`,
});

export const JOIN = grammar({
  flags: 'izv',
  values: 'aejot12',
  long: `ignore-case/i check-order nocheck-order header zero-terminated/z ${HELP}`,
});

export const FOLD = grammar({
  flags: 'bs',
  values: 'w',
  long: `bytes/b spaces/s width=/w ${HELP}`,
  numeric: true,
});

export const FMT = grammar({
  flags: 'cstu',
  values: 'pwg',
  numeric: true,
  long: `crown-margin/c prefix=/p split-only/s tagged-paragraph/t uniform-spacing/u width=/w goal=/g ${HELP}`,
});

export const EXPAND = grammar({ flags: 'i', values: 't', long: `initial/i tabs=/t ${HELP}`, numeric: true });

export const UNEXPAND = grammar({
  flags: 'a',
  values: 't',
  long: `all/a first-only tabs=/t ${HELP}`,
  numeric: true,
});

export const TR = grammar({
  flags: 'cCdst',
  long: `complement/c delete/d squeeze-repeats/s truncate-set1/t ${HELP}`,
});

export const LS = grammar({
  flags: 'aAbBcCdDfFgGhHiklLmnNopqQrRsStuUvxXZ1',
  values: 'ITw',
  long:
    'all/a almost-all/A author escape/b block-size= ignore-backups/B color? directory/d dired/D classify? ' +
    'file-type format= full-time group-directories-first no-group/G human-readable/h si ' +
    'dereference-command-line/H dereference-command-line-symlink-to-dir hide= hyperlink? indicator-style= ' +
    'inode/i ignore=/I kibibytes/k dereference/L numeric-uid-gid/n literal/N hide-control-chars/q ' +
    'show-control-chars quote-name/Q quoting-style= reverse/r recursive/R size/s sort= time= time-style= ' +
    `tabsize=/T width=/w context/Z zero ${HELP}`,
});

export const DU = grammar({
  flags: 'a0bcDhHkLlmPsSx',
  values: 'BdtX',
  long:
    'all/a apparent-size block-size=/B bytes/b total/c dereference-args/D max-depth=/d files0-from= ' +
    'human-readable/h inodes dereference/L count-links/l no-dereference/P separate-dirs/S summarize/s si ' +
    `threshold=/t time? time-style= exclude-from=/X exclude= one-file-system/x null/0 ${HELP}`,
});

export const DF = grammar({
  flags: 'ahHiklPTv',
  values: 'Btx',
  long:
    'all/a block-size=/B human-readable/h si/H inodes/i local/l no-sync output? portability/P sync total ' +
    `type=/t print-type/T exclude-type=/x ${HELP}`,
});

export const BASENAME = grammar({ flags: 'az', values: 's', long: `multiple/a suffix=/s zero/z ${HELP}` });

export const DIRNAME = grammar({ flags: 'z', long: `zero/z ${HELP}` });

export const REALPATH = grammar({
  flags: 'emLPqsz',
  long:
    'canonicalize-existing/e canonicalize-missing/m logical/L physical/P quiet/q relative-to= ' +
    `relative-base= strip/s no-symlinks/s zero/z ${HELP}`,
});

export const READLINK = grammar({
  flags: 'femnqsvz',
  long:
    'canonicalize/f canonicalize-existing/e canonicalize-missing/m no-newline/n quiet/q silent/s verbose/v ' +
    `zero/z ${HELP}`,
});

/** binutils programs read `@FILE` as more arguments, from a file no rule names. */
function responseFile(_parsed: Parsed, words: readonly Word[]): string | undefined {
  for (let i = 1; i < words.length; i++) {
    const lead = leadingText(words[i]!);
    if (lead.startsWith('@')) return `${words[i]!.text} reads more arguments from a file`;
    if (lead === '' && !words[i]!.static) return `${words[i]!.text} could name a file of more arguments`;
  }
  return undefined;
}

const checksum = (name: string, g = CHECKSUM): ProgramSpec => ({
  name,
  grammar: g,
  readOnly: readOnly(`b t w z l --tag --ignore-missing --quiet --status --strict ${LONG_HELP}`, 'files', {
    why: { c: READS_LISTED },
  }),
});

/** `ls -LR` follows every link below the folders it lists. */
function lsLinks(parsed: Parsed): string | undefined {
  return has(parsed, 'L') && has(parsed, 'R') ? `ls -L -R ${FOLLOWS_LINKS}` : undefined;
}

/** diff -r compares what the links below its folders point to, unless --no-dereference. */
function diffLinks(parsed: Parsed): string | undefined {
  return has(parsed, 'r') && !has(parsed, '--no-dereference') ? `diff -r ${FOLLOWS_LINKS}` : undefined;
}

export const TEXT_TOOL_SPECS: readonly ProgramSpec[] = [
  allReading('cat', CAT),
  allReading('head', HEAD),
  allReading('tail', TAIL),
  {
    name: 'wc',
    grammar: WC,
    readOnly: readOnly(`c l m w L --total ${LONG_HELP}`, 'files', { why: { '--files0-from': READS_LISTED } }),
  },
  allReading('nl', NL),
  allReading('tac', TAC),
  allReading('rev', REV),
  allReading('cut', CUT),
  allReading('tr', TR, 'inert'),
  allReading('column', COLUMN),
  allReading('comm', COMM),
  allReading('paste', PASTE),
  allReading('join', JOIN),
  allReading('fold', FOLD),
  allReading('fmt', FMT),
  allReading('expand', EXPAND),
  allReading('unexpand', UNEXPAND),
  allReading('od', OD),
  {
    name: 'strings',
    grammar: STRINGS,
    readOnly: readOnly(() => everyOption(STRINGS), 'files', { check: responseFile }),
  },
  {
    name: 'file',
    grammar: FILE,
    readOnly: readOnly(
      `b c d E h i I k L l N n r s S v z Z 0 e F P --exclude-quiet --mime-type --mime-encoding --extension --apple --help`,
      'files',
      {
        why: {
          C: 'writes a compiled magic file',
          m: 'reads a magic file no rule names',
          f: READS_LISTED,
          p: 'changes the access times of the files',
        },
      },
    ),
  },
  allReading('stat', STAT),
  {
    name: 'du',
    grammar: DU,
    readOnly: readOnly(
      `a 0 b c D h H k l m P s S x B d t --apparent-size --inodes --si --time --time-style --exclude ${LONG_HELP}`,
      'files',
      { why: { L: FOLLOWS_LINKS, X: READS_LISTED, '--files0-from': READS_LISTED } },
    ),
  },
  allReading('df', DF),
  allReading('basename', BASENAME, 'inert'),
  allReading('dirname', DIRNAME, 'inert'),
  allReading('realpath', REALPATH),
  allReading('readlink', READLINK),
  checksum('md5sum'),
  checksum('sha1sum'),
  checksum('sha224sum'),
  checksum('sha256sum'),
  checksum('sha384sum'),
  checksum('sha512sum'),
  checksum('b2sum', B2SUM),
  {
    name: 'cksum',
    grammar: CKSUM,
    readOnly: readOnly(
      `a l w z --base64 --debug --ignore-missing --quiet --raw --status --strict --tag --untagged ${LONG_HELP}`,
      'files',
      { why: { '--check': READS_LISTED } },
    ),
  },
  allReading('base64', BASE64),
  { name: 'base32', grammar: BASE64, readOnly: readOnly(() => everyOption(BASE64)) },
  {
    name: 'diff',
    grammar: DIFF,
    readOnly: readOnly(() => everyOptionBut(DIFF, 'X --from-file --to-file'), 'files', {
      check: diffLinks,
      why: {
        X: READS_LISTED,
        '--from-file': 'compares against a file named by an option',
        '--to-file': 'compares against a file named by an option',
      },
    }),
  },
  allReading('cmp', CMP),
  { name: 'uniq', grammar: UNIQ, readOnly: readOnly(() => everyOption(UNIQ), 'files', { maxOperands: 1 }) },
  {
    name: 'xxd',
    grammar: XXD,
    permute: false,
    readOnly: readOnly(
      'a b C E e h i p u v d c g l n o s -ps -plain -postscript -bits -include -version -help -cols -len -seek -name',
      'files',
      { maxOperands: 1, why: { r: 'writes binary data', '-revert': 'writes binary data' } },
    ),
  },
  {
    name: 'ls',
    grammar: LS,
    readOnly: readOnly(() => everyOption(LS), 'files', { check: lsLinks }),
  },
];
