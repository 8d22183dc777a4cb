import type { CommandView, NestedSpec, Word, WriteNames } from '../types.js';
import { type EffectHandler, each, fileCommand, reads, treeWrite } from './effect-helpers.js';
import type { ProgramModule } from './module.js';
import { grammar, has, optionsNamed, type Parsed } from './options.js';
import { failed, scan } from './program-options.js';
import { codeIn, shellSpec } from './specs.js';
import { leadingText } from './words.js';

const RSYNC = grammar({
  flags: 'avzrlptgoDPhHAXEWxSucbnqiRmOJkKLCIy0468s',
  values: 'efBMT',
  long:
    'rsh=/e rsync-path= filter=/f exclude= include= exclude-from= include-from= files-from= temp-dir=/T ' +
    'partial-dir= backup-dir= suffix= chmod= chown= usermap= groupmap= compare-dest= copy-dest= link-dest= ' +
    'log-file= log-file-format= out-format= password-file= port= sockopts= timeout= contimeout= bwlimit= ' +
    'max-size= min-size= max-delete= block-size=/B checksum-choice= compress-choice= compress-level= ' +
    'skip-compress= remote-option=/M iconv= address= info= debug= modify-window= write-batch= ' +
    'only-write-batch= read-batch= protocol= checksum-seed= outbuf= stop-after= stop-at= archive/a ' +
    'verbose/v compress/z recursive/r links/l perms/p times/t group/g owner/o devices specials ' +
    'hard-links/H acls/A xattrs/X executability/E whole-file/W one-file-system/x sparse/S update/u ' +
    'checksum/c backup/b dry-run/n quiet/q itemize-changes/i relative/R prune-empty-dirs/m ' +
    'omit-dir-times/O omit-link-times/J copy-links/L copy-dirlinks/k keep-dirlinks/K cvs-exclude/C ' +
    'ignore-times/I human-readable/h progress partial delete delete-before delete-during delete-delay ' +
    'delete-after delete-excluded remove-source-files ignore-existing existing inplace append ' +
    'append-verify mkpath stats no-motd safe-links copy-unsafe-links size-only numeric-ids fake-super ' +
    'super force ignore-errors list-only help version',
  abbreviate: true,
});

/** rsync SRC... DEST: sources read, the destination written (and pruned by --delete). */
const effects: EffectHandler = fileCommand({
  grammar: RSYNC,
  fileOptions: {
    '--files-from': 'read',
    '--exclude-from': 'read',
    '--include-from': 'read',
    '--password-file': 'read',
    '--read-batch': 'read',
    '--log-file': 'write',
    '--write-batch': 'write',
    '--only-write-batch': 'write',
    '--backup-dir': 'write',
  },
  unlisted: ['--files-from'],
  operands: (operands, parsed) => {
    if (operands.length < 2) return operands.length ? { effects: reads(operands), known: false } : [];
    const sources = operands.slice(0, -1);
    const moved = has(parsed, '--remove-source-files');
    const pruned = parsed.options.some((found) => found.name.startsWith('--delete'));
    const dest = operands.at(-1)!;
    return [
      ...each(moved ? ['read', 'delete'] : 'read', sources),
      ...(has(parsed, 'r', 'a')
        ? [
            ...(onHost(dest)
              ? [treeWrite(dest)]
              : sources.map((source) => treeWrite(dest, 'argument', copyNames(source, parsed)))),
            ...(pruned ? each('delete', operands.slice(-1)) : []),
          ]
        : each(pruned ? ['write', 'delete'] : 'write', operands.slice(-1))),
    ];
  },
});

/** `host:path`, `user@host:path` or `rsync://…`: a path on another host. */
function onHost(word: Word): boolean {
  const lead = leadingText(word);
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(lead) || /^[^/]*:/.test(lead);
}

/**
 * What a recursive rsync writes below the destination: the local source folder's entries (`src/` its contents,
 * `src` below DEST/src), read at decision time; a remote source's, or one whose links or full path (`-L`, `-k`,
 * `-R`) change the names, cannot be known before it runs.
 */
function copyNames(source: Word, parsed: Parsed): WriteNames {
  const lead = leadingText(source);
  if (onHost(source)) return { kind: 'unknown', why: `${source.text} is on another host` };
  if (has(parsed, 'L', 'k', 'R', '--copy-unsafe-links'))
    return { kind: 'unknown', why: 'links or full source paths change the names it writes' };
  const contents = /\/(\.)?$/.test(lead);
  return contents ? { kind: 'copy', source, contents } : { kind: 'copy', source, contents, below: true };
}

/** `-e` / `--rsh` runs a shell command to reach the remote host; `--rsync-path` a program there. */
function nested(cmd: CommandView): NestedSpec[] {
  const parsed = scan(cmd, RSYNC);
  if (failed(parsed)) return [parsed];
  return [
    ...optionsNamed(parsed, 'e').map((found) => shellSpec(found.value!, 'rsync -e')),
    ...optionsNamed(parsed, '--rsync-path').map((found) =>
      codeIn('program-option', 'rsync', '--rsync-path', found.value!),
    ),
  ];
}

export const RSYNC_MODULE: ProgramModule = {
  names: ['rsync'],
  effects,
  nested,
  oracle: {
    cases: [
      'rsync -av docs/ x/',
      'rsync --remove-source-files README.md x',
      'rsync -a --delete docs/ x/',
      'rsync --exclude-from=.env docs x',
      'rsync --files-from=.env . x',
      'rsync -r --password-file .env docs x',
      'rsync -rL docs x',
      'rsync --log-file=log README.md x',
      'rsync --backup-dir=b -b README.md x',
      'rsync -e "sh -c \'touch P\'" a h:b',
    ],
    operands: ['docs/', 'x/'],
  },
};
