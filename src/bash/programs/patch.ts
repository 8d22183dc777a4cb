import type { FileEffect, WriteNames } from '../types.js';
import { argument, type EffectHandler, fileCommand, treeWrite, workingFolder } from './effect-helpers.js';
import type { ProgramModule } from './module.js';
import { grammar, has, lastValue } from './options.js';
import { is } from './words.js';

const PATCH = grammar({
  flags: 'lcenuNREZTbtfs',
  values: 'pFiorDVBYzgd',
  long:
    'strip=/p fuzz=/F ignore-whitespace/l context/c ed/e normal/n unified/u forward/N reverse/R input=/i ' +
    'output=/o reject-file=/r ifdef=/D merge? remove-empty-files/E set-utc/Z set-time/T quoting-style= backup/b ' +
    'backup-if-mismatch no-backup-if-mismatch version-control=/V prefix=/B basename-prefix=/Y suffix=/z get=/g ' +
    'batch/t force/f quiet/s silent/s verbose dry-run posix directory=/d reject-format= binary read-only= follow-symlinks help version',
});

/**
 * patch [ORIGFILE [PATCHFILE]]: the patch (`-i`, the second operand, or stdin) names the files it writes, below
 * `-d DIR` or the working folder; ORIGFILE and `-o FILE` name one. `--dry-run` writes nothing.
 */
const effects: EffectHandler = fileCommand({
  grammar: PATCH,
  fileOptions: { i: 'read', o: 'write', r: 'write' },
  operands: (operands, parsed) => {
    const effects: FileEffect[] = [];
    if (operands[1]) effects.push(argument('read', operands[1]));
    // A dry run still reads the files the patch names.
    if (has(parsed, '--dry-run')) return { effects, known: operands[0] !== undefined };
    if (operands[0]) return { effects: [...effects, argument('write', operands[0])], known: true };
    if (has(parsed, 'o')) return { effects, known: false };
    const into = lastValue(parsed, 'd');
    const input = lastValue(parsed, 'i') ?? operands[1];
    const level = lastValue(parsed, 'p');
    const strip =
      level === undefined ? -1 : level.static && /^\d+$/.test(level.value) ? Number(level.value) : undefined;
    const names: WriteNames =
      strip === undefined
        ? { kind: 'unknown', why: '-p is only known at run time' }
        : has(parsed, 'b', 'B', 'Y', 'z', 'V', 'g')
          ? { kind: 'unknown', why: 'an option makes patch write files the patch does not name' }
          : { kind: 'patch', files: input && !is(input, '-') ? [input] : [], strip };
    return {
      effects: [...effects, treeWrite(into ?? workingFolder(undefined), into ? 'option' : 'argument', names)],
      known: false,
    };
  },
});

export const PATCH_MODULE: ProgramModule = {
  names: ['patch'],
  effects,
  oracle: {
    cases: [
      'patch -p1 < x.patch',
      'patch --dry-run -p1 -i x.patch',
      'patch a.txt x.patch',
      'patch -p1 < change.patch',
      'patch -p1 -i planted.patch',
    ],
  },
};
