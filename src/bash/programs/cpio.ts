import type { WriteNames } from '../types.js';
import { type EffectHandler, fileCommand, treeWrite, workingFolder } from './effect-helpers.js';
import type { ProgramModule } from './module.js';
import { grammar, has, lastValue } from './options.js';

const CPIO = grammar({
  flags: 'ioptBcvVbfnrsSAl0aLdmu',
  values: 'CDHRWFMIOE',
  long:
    'extract/i create/o pass-through/p list/t block-size= io-size=/C directory=/D force-local format=/H quiet ' +
    'owner=/R verbose/v dot/V warning=/W file=/F message=/M rsh-command= swap/b nonmatching/f numeric-uid-gid/n ' +
    'rename/r swap-bytes/s swap-halfwords/S to-stdout pattern-file=/E only-verify-crc append/A ' +
    'device-independent reproducible ignore-devno renumber-inodes link/l absolute-filenames ' +
    'no-absolute-filenames null/0 reset-access-time/a dereference/L make-directories/d ' +
    'preserve-modification-time/m no-preserve-owner sparse unconditional/u help version usage',
});

/**
 * cpio: copy-in (`-i`) writes the files the archive names into `-D DIR` (or the working folder), copy-pass (`-p`)
 * the files named on stdin into its operand; copy-out (`-o`) writes the archive `-O`/`-F` names. The names come
 * from the archive or stdin, never from the command line.
 */
const effects: EffectHandler = fileCommand({
  grammar: CPIO,
  fileOptions: { F: 'write', O: 'write', I: 'read', E: 'read' },
  operands: (operands, parsed) => {
    if (has(parsed, 't') || has(parsed, '--to-stdout', '--only-verify-crc'))
      return { effects: [], known: false };
    const into = lastValue(parsed, 'D');
    if (has(parsed, 'i')) {
      const file = lastValue(parsed, 'F') ?? lastValue(parsed, 'I');
      const renames = has(parsed, 'r', 'E', 'f') || operands.length > 0;
      const names: WriteNames = renames
        ? { kind: 'unknown', why: 'cpio picks or renames the members as it runs' }
        : file
          ? { kind: 'archive', format: 'cpio', file }
          : { kind: 'archive', format: 'cpio' };
      return {
        effects: [treeWrite(into ?? workingFolder(undefined), into ? 'option' : 'argument', names)],
        known: false,
      };
    }
    if (has(parsed, 'p') && operands[0])
      return {
        effects: [
          treeWrite(operands[0], 'argument', {
            kind: 'unknown',
            why: 'cpio -p copies the files named on stdin',
          }),
        ],
        known: false,
      };
    return { effects: [], known: false };
  },
});

export const CPIO_MODULE: ProgramModule = {
  names: ['cpio'],
  effects,
  oracle: { cases: ['cpio -idum --quiet < evil.cpio', 'cpio -it < evil.cpio', 'cpio -i -D out < evil.cpio'] },
};
