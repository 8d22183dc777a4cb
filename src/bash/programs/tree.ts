import type { FileEffect, Word } from '../types.js';
import {
  argument,
  type EffectHandler,
  NONE,
  option,
  UNKNOWN,
  unseenFiles,
  workingFolder,
} from './effect-helpers.js';
import type { ProgramModule } from './module.js';
import { grammar } from './options.js';
import { type ProgramSpec, readOnly } from './program.js';
import { leadingText } from './words.js';

const FLAGS = 'acdfghilnpqrstuvxACDFJQNSUXR';
/** tree takes the value of each of these from the next word, even inside a cluster (`-oa FILE` writes FILE). */
const VALUES = 'LPIoHT';

/** Long options (tree 2.1; `--fromtabfile`, `--hyperlink`, `--scheme`, `--authority` are 2.1.1 and later). */
const LONG_FLAGS =
  'noreport du si prune dirsfirst filesfirst gitignore fromfile fromtabfile fflinks info matchdirs ' +
  'ignore-case metafirst nolinks inodes device hyperlink help version';
const LONG_VALUES = 'charset filelimit timefmt sort gitfile infofile hintro houtro scheme authority';

const TREE = grammar({
  flags: FLAGS,
  values: VALUES,
  long: `${LONG_FLAGS} ${LONG_VALUES.split(' ')
    .map((name) => `${name}=`)
    .join(' ')}`,
  abbreviate: false,
});

const READS_FILE = 'reads a file named by an option';

const spec: ProgramSpec = {
  name: 'tree',
  grammar: TREE,
  readOnly: readOnly(
    'a c d f g h i n p q r s t u v x A C D F J Q N S U X L P I H T --noreport --du --si --prune --dirsfirst ' +
      '--filesfirst --gitignore --matchdirs --ignore-case --metafirst --nolinks --inodes --device --hyperlink ' +
      '--help --version --charset --filelimit --timefmt --sort --scheme --authority',
    'files',
    {
      check: (_parsed, words) => (words.slice(1).some(valueInsideCluster) ? CLUSTER : undefined),
      why: {
        o: 'writes its listing to a file',
        l: 'follows links below the folder, to folders no rule can be checked against',
        R: 'writes an HTML listing into every folder',
        '--fromfile': 'prints the contents of the files it is given',
        '--fromtabfile': 'prints the contents of the files it is given',
        '--info': 'prints what the .info files below the folder say',
        '--infofile': READS_FILE,
        '--gitfile': READS_FILE,
        '--hintro': READS_FILE,
        '--houtro': READS_FILE,
        '--fflinks': 'follows the links named in a listing',
      },
    },
  ),
};

const CLUSTER = 'takes option values in an order automode does not read';

/** `-Lo 2 FILE`: tree reads both values from the next words, in order; the grammar would read `o` as `-L`'s value. */
function valueInsideCluster(word: Word): boolean {
  const lead = leadingText(word);
  if (!lead.startsWith('-') || lead.startsWith('--')) return false;
  return [...lead.slice(1, -1)].some((letter) => VALUES.includes(letter)) || !word.static;
}

interface TreeLine {
  flags: Set<string>;
  values: { name: string; value: Word }[];
  operands: Word[];
}

/** The command line as tree 2.1 reads it; undefined when tree would refuse it or a word may be an option. */
function parseTree(argv: readonly Word[]): TreeLine | undefined {
  const line: TreeLine = { flags: new Set(), values: [], operands: [] };
  const longFlags = new Set(LONG_FLAGS.split(' '));
  const longValues = new Set(LONG_VALUES.split(' '));
  let options = true;
  for (let i = 1; i < argv.length; i++) {
    const word = argv[i]!;
    const lead = leadingText(word);
    if (!options || !lead.startsWith('-') || lead === '-') {
      if (options && !word.static && lead === '') return undefined;
      line.operands.push(word);
      continue;
    }
    if (!word.static) return undefined;
    const text = word.value;
    if (text === '--') {
      options = false;
      continue;
    }
    if (text.startsWith('--')) {
      const eq = text.indexOf('=');
      const name = eq < 0 ? text.slice(2) : text.slice(2, eq);
      if (longFlags.has(name) && eq < 0) line.flags.add(`--${name}`);
      else if (longValues.has(name)) {
        const value = eq < 0 ? argv[++i] : { ...word, text: text.slice(eq + 1), value: text.slice(eq + 1) };
        if (!value) return undefined;
        line.values.push({ name: `--${name}`, value });
      } else return undefined;
      continue;
    }
    for (const letter of text.slice(1)) {
      if (FLAGS.includes(letter)) line.flags.add(letter);
      else if (VALUES.includes(letter)) {
        const value = argv[++i];
        if (!value) return undefined;
        line.values.push({ name: letter, value });
      } else return undefined;
    }
  }
  return line;
}

/** What may lie anywhere below a folder: no rule can vouch for it. */
function belowEvery(access: 'read' | 'write', folder: Word, what: string): FileEffect {
  return unseenFiles(access, `${what} below ${folder.text}`, folder, 'option');
}

/**
 * tree lists names (a read the policy takes as a listing); it reads contents only of the files `--fromfile`
 * names and the files options name, and writes `-o FILE` and, with `-R`, a `00Tree.html` in every folder.
 */
const effects: EffectHandler = (cmd) => {
  const line = parseTree(cmd.argv);
  if (!line) return UNKNOWN;
  if (line.flags.has('--help') || line.flags.has('--version')) return NONE;
  const folders = line.operands.length > 0 ? line.operands : [workingFolder(cmd.argv.at(-1))];
  const out: FileEffect[] = folders.map((folder) => argument('read', folder));
  for (const { name, value } of line.values) {
    if (name === 'o') out.push(option('write', value));
    if (['--gitfile', '--infofile', '--hintro', '--houtro'].includes(name)) out.push(option('read', value));
  }
  if (line.flags.has('R'))
    for (const f of folders) out.push(belowEvery('write', f, '00Tree.html in every folder'));
  if (line.flags.has('l') || line.flags.has('--fflinks'))
    for (const f of folders) out.push(belowEvery('read', f, 'what the links'));
  if (line.flags.has('--info')) for (const f of folders) out.push(belowEvery('read', f, 'the .info files'));
  return { effects: out, known: true };
};

export const TREE_MODULE: ProgramModule = {
  names: ['tree'],
  spec,
  effects,
  oracle: {
    cases: [
      'tree -a -H . -R -L 3',
      'tree -R -L 1',
      'tree -J -R -L 1 docs',
      'tree -o out.txt',
      'tree -oa out.txt',
      'tree -Lo 2 out.txt',
      'tree -ao out.txt -L 1',
      'tree -H . -o index.html',
      'tree --fromfile .env',
      'tree --hintro .env -H .',
      'tree --infofile .env --info',
      'tree -l docs',
      'tree -a --gitignore',
    ],
    operands: ['.', 'docs', '.git'],
  },
};
