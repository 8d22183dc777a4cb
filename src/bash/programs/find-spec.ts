import type { Word } from '../types.js';
import { ARITY, EXEC_PRIMARIES, parseFind, ZERO_ARITY } from './find.js';
import { grammar, type Parsed } from './options.js';
import { type ProgramSpec, readOnly } from './program.js';

const NEWER_XY = [...'aBcm'].flatMap((x) => [...'aBcmt'].map((y) => `-newer${x}${y}`));

/** Every primary as a whole-word option: those taking one argument as a value. */
const PRIMARIES = [
  ...Object.entries(ARITY).map(([name, arity]) => (arity === 1 ? `${name}=` : name)),
  ...NEWER_XY.map((name) => `${name}=`),
  ...ZERO_ARITY,
  ...EXEC_PRIMARIES,
  '-a -o -and -or -not',
].join(' ');

export const FIND = grammar({ flags: 'HLP', values: 'DO', words: PRIMARIES, abbreviate: false });

const READ_ONLY_PRIMARIES =
  'H P D O -amin -anewer -atime -cmin -cnewer -ctime -fstype -gid -group -ilname -iname -inum -ipath ' +
  '-iregex -iwholename -links -lname -maxdepth -mindepth -mmin -mtime -name -newer -path -perm -printf ' +
  '-regex -regextype -samefile -size -type -uid -used -user -wholename -xtype -context -Bmin -Bnewer -Btime ' +
  '-gname -uname -xattrname -depth -d -empty -false -true -ignore_readdir_race -noignore_readdir_race -ls ' +
  '-mount -xdev -nogroup -nouser -noleaf -print -print0 -prune -quit -readable -writable -executable ' +
  `-daystart -warn -nowarn -help -version -x -s -E -X -sparse -xattr -acl -exit -a -o -and -or -not ${NEWER_XY.join(' ')}`;

const RUNS = 'runs a program on every file';
const WRITES = 'writes a file';

function expressionProblem(_parsed: Parsed, words: readonly Word[]): string | undefined {
  const expression = parseFind(words);
  if (expression.invalid) return undefined;
  const unsure = expression.unsure[0];
  if (unsure) return `find: ${unsure.reason}`;
  if (expression.unknownPrimary) return 'find has a primary automode does not know';
  return undefined;
}

export const FIND_SPEC: ProgramSpec = {
  name: 'find',
  grammar: FIND,
  readOnly: readOnly(READ_ONLY_PRIMARIES, 'files', {
    check: expressionProblem,
    why: {
      L: 'follows links below the folder, to files no rule can be checked against',
      '-follow': 'follows links below the folder, to files no rule can be checked against',
      '-exec': RUNS,
      '-execdir': RUNS,
      '-ok': RUNS,
      '-okdir': RUNS,
      '-delete': 'deletes files',
      '-fprint': WRITES,
      '-fprint0': WRITES,
      '-fprintf': WRITES,
      '-fls': WRITES,
      '-files0-from': 'reads files its operands do not name',
    },
  }),
};
