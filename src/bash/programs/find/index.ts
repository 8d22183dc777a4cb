import type { CommandView, FileEffect, NestedSpec, Word } from '../../types.js';
import { type EffectHandler, each, listedIn, NONE, option, reads } from '../effect-helpers.js';
import type { ProgramModule } from '../module.js';
import { grammar, type Parsed } from '../options.js';
import { type ProgramSpec, readOnly } from '../program.js';
import { argvSpec, unresolved } from '../specs.js';
import { syntheticWord } from '../words.js';
import { ARITY, EXEC_PRIMARIES, FILE_PRIMARIES, parseFind, ZERO_ARITY } from './expression.js';

const NEWER_XY = [...'aBcm'].flatMap((x) => [...'aBcmt'].map((y) => `-newer${x}${y}`));

/** Every primary as a whole-word option: those taking one argument as a value. */
const PRIMARIES = [
  ...Object.entries(ARITY).map(([name, arity]) => (arity === 1 ? `${name}=` : name)),
  ...NEWER_XY.map((name) => `${name}=`),
  ...ZERO_ARITY,
  ...EXEC_PRIMARIES,
  '-a -o -and -or -not',
].join(' ');

const FIND = grammar({ flags: 'HLP', values: 'DO', words: PRIMARIES, abbreviate: false });

const READ_ONLY_PRIMARIES =
  'H P D O -amin -anewer -atime -cmin -cnewer -ctime -fstype -gid -group -ilname -iname -inum -ipath ' +
  '-iregex -iwholename -links -lname -maxdepth -mindepth -mmin -mtime -name -newer -path -perm -printf ' +
  '-regex -regextype -samefile -size -type -uid -used -user -wholename -xtype -context -Bmin -Bnewer -Btime ' +
  '-gname -uname -xattrname -depth -d -empty -false -true -ignore_readdir_race -noignore_readdir_race -ls ' +
  '-mount -xdev -nogroup -nouser -noleaf -print -print0 -prune -quit -readable -writable -executable ' +
  `-daystart -warn -nowarn -help -version -x -s -E -X -sparse -xattr -acl -exit -a -o -and -or -not ${NEWER_XY.join(' ')} ` +
  // The programs these run are decided on their own, as nested commands, the file names a run-time value.
  '-exec -execdir -ok -okdir';

const WRITES = 'writes a file';

function expressionProblem(_parsed: Parsed, words: readonly Word[]): string | undefined {
  const expression = parseFind(words);
  if (expression.invalid) return undefined;
  const unsure = expression.unsure[0];
  if (unsure) return `find: ${unsure.reason}`;
  if (expression.unknownPrimary) return 'find has a primary automode does not know';
  return undefined;
}

const spec: ProgramSpec = {
  name: 'find',
  grammar: FIND,
  ownWords: withoutExecCommands,
  readOnly: readOnly(READ_ONLY_PRIMARIES, 'files', {
    check: expressionProblem,
    why: {
      L: 'follows links below the folder, to files no rule can be checked against',
      '-follow': 'follows links below the folder, to files no rule can be checked against',
      '-delete': 'deletes files',
      '-fprint': WRITES,
      '-fprint0': WRITES,
      '-fprintf': WRITES,
      '-fls': WRITES,
      '-files0-from': 'reads files its operands do not name',
    },
  }),
};

/** find reads its start paths; -delete deletes below them; -fprint and friends write files. */
const effects: EffectHandler = (cmd) => {
  const expression = parseFind(cmd.argv);
  if (expression.invalid) return NONE;
  const paths = expression.paths.length ? expression.paths : [syntheticWord('.', cmd.argv[0]!.span)];
  const effects: FileEffect[] = reads(paths);
  const deleted = paths;
  for (const primary of expression.primaries) {
    if (primary.name === '-delete')
      effects.push(...each('delete', deleted).map((e): FileEffect => ({ ...e, below: true })));
    const access = FILE_PRIMARIES[primary.name];
    if (access && primary.args[0]) effects.push(option(access, primary.args[0]));
    if (primary.name === '-files0-from' && primary.args[0]) effects.push(listedIn('read', primary.args[0]));
  }
  const known =
    expression.unsure.length === 0 &&
    !expression.unknownPrimary &&
    !expression.primaries.some((primary) => primary.name === '-files0-from');
  return { effects, known };
};

function nested(cmd: CommandView): NestedSpec[] {
  const expression = parseFind(cmd.argv);
  const unsure = expression.unsure.find((entry) => entry.runs);
  if (unsure) return [unresolved(`find: ${unsure.reason}`, unsure.word)];
  if (expression.invalid) return [];
  return expression.execs
    .filter((exec) => exec.words.length > 0)
    .map((exec) => argvSpec(exec.words, exec.primary, { kind: 'option', extraArgs: exec.extraArgs }));
}

export const FIND_MODULE: ProgramModule = {
  names: ['find'],
  spec,
  effects,
  nested,
  oracle: {
    cases: [
      'find . -name x',
      'find docs -type f',
      'find -type f',
      'find docs -name "*.o" -delete',
      'find . -fprint out',
      'find . -fprintf out %p',
      'find . -fls out',
      'find . -newer README.md',
      'find . -samefile README.md',
      'find -L docs -name key',
      'find . -exec cat {} \\;',
      'find . -name "*.txt" -exec echo {} +',
      'find docs -exec basename {} \\;',
      'find . -exec automode-marker-interp {} \\;',
      'find . -files0-from list',
    ],
  },
};

/**
 * find's words without the commands its -exec primaries run: those are decided on their own, as nested commands,
 * and their options (`-exec grep -l x {} +`) are not find's.
 */
export function withoutExecCommands(words: readonly Word[]): Word[] {
  const expression = parseFind(words);
  if (expression.invalid || expression.execs.length === 0) return [...words];
  const dropped = new Set(expression.execs.flatMap((exec) => exec.words));
  return words.filter((word) => !dropped.has(word));
}
