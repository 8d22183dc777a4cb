import type { EffectsResult, FileEffect, Word } from '../types.js';
import {
  argument,
  basename,
  type EffectHandler,
  fileCommand,
  intoFolder,
  reads,
  treeWrite,
  underFolder,
  unseenFiles,
} from './effect-helpers.js';
import type { ProgramModule } from './module.js';
import { grammar, has, lastValue, type Parsed } from './options.js';
import type { ProgramSpec } from './program.js';

/** GNU cp, every version's options: `--debug`, `--keep-directory-symlink` are recent. */
const CP = grammar({
  flags: 'abdfHilLnPpRrsuvxTZ',
  values: 'St',
  long:
    'archive/a attributes-only backup? copy-contents debug dereference/L force/f interactive/i link/l ' +
    'no-clobber/n no-dereference/P no-preserve= no-target-directory/T one-file-system/x parents preserve? ' +
    'recursive/R reflink? remove-destination sparse= strip-trailing-slashes suffix=/S symbolic-link/s ' +
    'target-directory=/t update? verbose/v context? keep-directory-symlink help version',
  /** `-R` and `-r` are one option; `-a` copies recursively too. */
  implies: { R: 'r', a: 'a r' },
});

const spec: ProgramSpec = { name: 'cp', grammar: CP };

/** `src/.` and `.` copy a folder's contents straight into the destination. */
function copiesContents(source: Word): boolean {
  const v = source.value;
  return !source.static || v === '.' || v === '..' || v.endsWith('/.') || v.endsWith('/..');
}

/**
 * Sources are read, the destination (last operand, or `-t DIR`) written. A recursive copy that follows links
 * (`-L`, `--dereference`, and `-l`, whose hard links reach through links too) reads what they lead to, and with
 * `-l` the linked files stay writable under their new names; neither can be told from the command line.
 * `--parents` writes each source's path below the destination, `..` included. A recursive copy writes below
 * the destination the names the source folder holds (`.git`, `.claude` among them), which the command line
 * does not show: its effects are not all known.
 */
function copies(operands: Word[], parsed: Parsed): EffectsResult {
  const target = lastValue(parsed, 't');
  if (!target && operands.length < 2) return { effects: [], known: true };
  const sources = target ? operands : operands.slice(0, -1);
  const dest = target ?? operands.at(-1)!;
  const recursive = has(parsed, 'r', 'R', 'a');
  const linking = has(parsed, 'l');
  const out: FileEffect[] = [...reads(sources)];
  if (!target && !recursive) out.push(argument('write', dest));
  // Each folder copied writes its entries below the destination (or below DEST/NAME when DEST is a folder).
  if (recursive)
    for (const source of sources)
      out.push(
        treeWrite(dest, target ? 'option' : 'argument', {
          kind: 'copy',
          source,
          contents: copiesContents(source) || has(parsed, 'T'),
        }),
      );
  if (!recursive && !has(parsed, 'T')) out.push(...intoFolder(dest, sources));
  if (linking) out.push(...sources.map((s) => argument('write', s)));
  for (const source of sources) {
    if (has(parsed, '--parents')) out.push(argument('write', underFolder(dest, source)));
    if (!recursive) continue;
    if (has(parsed, 'L', 'l')) {
      const linked = `the files the links below ${source.text} lead to`;
      out.push(unseenFiles('read', linked, source));
      if (linking) out.push(unseenFiles('write', linked, source));
    }
    if (has(parsed, '--copy-contents'))
      out.push(unseenFiles('read', `the devices and pipes below ${source.text}`, source));
    const name = basename(source);
    if (name !== undefined && !copiesContents(source) && !has(parsed, 'T'))
      out.push(argument('write', underFolder(dest, { ...source, text: name, value: name })));
  }
  return { effects: out, known: !recursive };
}

const effects: EffectHandler = fileCommand({ grammar: CP, fileOptions: { t: 'write' }, operands: copies });

export const CP_MODULE: ProgramModule = {
  names: ['cp'],
  spec,
  effects,
  oracle: {
    cases: [
      'cp -rL docs x',
      'cp -RL docs x',
      'cp -r --dereference docs x',
      'cp -aL docs x',
      'cp -rl docs x',
      'cp -r -H docs x',
      'cp -L docs/key x',
      'cp docs/key x',
      'cp -r docs x',
      'cp -a docs x',
      'cp -t x README.md',
      'cp --target-directory=x README.md',
      'cp -T README.md x',
      'cp --parents ../outside x',
      'cp -r tmpl/. .',
      'cp -rT tmpl .',
      'cp -l .git/config cfg',
      'cp -s README.md x',
      'cp --backup=numbered README.md x',
      'cp --remove-destination README.md x',
      'cp --attributes-only README.md x',
    ],
    operands: ['docs', 'docs/key', 'docs/sshdir', 'docs/.', 'README.md'],
  },
};
