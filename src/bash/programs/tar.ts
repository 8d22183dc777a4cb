import type { CommandView, FileEffect, NestedSpec, Word, WriteNames } from '../types.js';
import {
  type EffectHandler,
  each,
  listedIn,
  NONE,
  option,
  reads,
  treeWrite,
  UNKNOWN,
  underFolder,
} from './effect-helpers.js';
import type { ProgramModule } from './module.js';
import { grammar, has, lastValue, optionsNamed, type Parsed, parseOptions } from './options.js';
import { type ProgramSpec, readOnly } from './program.js';
import { codeIn, parseFailure, shellSpec, unresolved } from './specs.js';
import { is, leadingText, sliceWord, syntheticWord } from './words.js';

/** GNU tar: every long option, so that an abbreviation (`--to-com`) names the option tar reads. */
const TAR = grammar({
  flags: 'AcdrtuxajJzZBGhiklmMnOopPRsSUvwW',
  values: 'bCfFgHIKLNTVX',
  long:
    'absolute-names/P acls add-file= after-date=/N anchored append/r atime-preserve? auto-compress/a ' +
    'backup? block-number/R blocking-factor=/b bzip2/j catenate/A check-device check-links/l ' +
    'checkpoint? checkpoint-action= clamp-mtime compare/d compress/Z concatenate/A confirmation/w ' +
    'create/c delay-directory-restore delete dereference/h diff/d directory=/C exclude= ' +
    'exclude-backups exclude-caches exclude-caches-all exclude-caches-under exclude-from=/X ' +
    'exclude-ignore= exclude-ignore-recursive= exclude-tag= exclude-tag-all= exclude-tag-under= ' +
    'exclude-vcs exclude-vcs-ignores extract/x file=/f files-from=/T force-local format=/H full-time ' +
    'get/x group= group-map= gunzip/z gzip/z hard-dereference help hole-detection= ignore-case ' +
    'ignore-command-error ignore-failed-read ignore-zeros/i incremental/G index-file= info-script=/F ' +
    'interactive/w keep-directory-symlink keep-newer-files keep-old-files/k label=/V level= list/t ' +
    'listed-incremental=/g lzip lzma lzop mode= mtime= multi-volume/M new-volume-script=/F newer=/N ' +
    'newer-mtime= no-acls no-anchored no-auto-compress no-check-device no-delay-directory-restore ' +
    'no-ignore-case no-ignore-command-error no-null no-overwrite-dir no-quote-chars= no-recursion ' +
    'no-same-owner no-same-permissions no-seek no-selinux no-unquote no-verbatim-files-from ' +
    'no-wildcards no-wildcards-match-slash no-xattrs null numeric-owner occurrence? old-archive ' +
    'one-file-system one-top-level? overwrite overwrite-dir owner= owner-map= pax-option= portability ' +
    'posix preserve-order/s preserve-permissions/p quote-chars= quoting-style= read-full-records/B ' +
    'record-size= recursion recursive-unlink remove-files restrict rmt-command= rsh-command= ' +
    'same-order/s same-owner same-permissions/p seek/n selinux show-defaults show-omitted-dirs ' +
    'show-snapshot-field-ranges show-stored-names show-transformed-names skip-old-files sort= sparse/S ' +
    'sparse-version= starting-file=/K strip-components= suffix= tape-length=/L test-label to-command= ' +
    'to-stdout/O totals? touch/m transform= uncompress/Z ungzip/z unlink-first/U unquote update/u ' +
    'usage use-compress-program=/I utc verbatim-files-from verbose/v verify/W version volno-file= ' +
    'warning= wildcards wildcards-match-slash xattrs xattrs-exclude= xattrs-include= xform= xz/J zstd',
});

/**
 * Listing an archive (`tar -tvf a.tar`, `tar tzf a.tgz`) only reads it: the options that pick the archive, its
 * compression (by tar's own built-in names), the members and how they are printed. Not `-I` or the command
 * options (they run programs), `-T`/`-X` (read lists), `-O`, or any other mode.
 */
const LISTING =
  't f v z j J Z a i --zstd --lzip --lzma --lzop --force-local --wildcards --no-wildcards --anchored ' +
  '--no-anchored --ignore-case --no-ignore-case --wildcards-match-slash --no-wildcards-match-slash ' +
  '--full-time --numeric-owner --utc --occurrence --quoting-style --quote-chars --no-quote-chars --unquote ' +
  '--no-unquote --show-transformed-names --show-stored-names --block-number R --null --no-null --totals ' +
  '--record-size --blocking-factor b --format H --strip-components --transform --xform --no-auto-compress ' +
  '--exclude --exclude-vcs --exclude-backups --no-recursion --recursion --warning --restrict --seek n ' +
  '--no-seek --check-device --no-check-device --no-xattrs --no-acls --no-selinux --help --version --usage';

const LISTING_OPTIONS = new Set(LISTING.split(' '));

/** The line as tar reads it (its first word may be a bundle of letters): listing only, every option listed. */
function listsOnly(_parsed: Parsed, words: readonly Word[]): string | undefined {
  const parsed = parse(expandTarBundle(words));
  if (!parsed.ok || parsed.unknown.length > 0) return 'tar: options automode cannot read';
  if (has(parsed, '--help', '--version', '--usage')) return undefined;
  const modes = new Set(parsed.options.filter((found) => TAR_MODES.includes(found.name)).map((f) => f.name));
  if (modes.size !== 1 || !modes.has('t')) return 'only listing (-t) an archive is read-only';
  const other = parsed.options.find((found) => !LISTING_OPTIONS.has(found.name));
  return other
    ? `tar ${other.name.length === 1 ? `-${other.name}` : other.name} is not a read-only option`
    : undefined;
}

const spec: ProgramSpec = {
  name: 'tar',
  aliases: ['gtar'],
  grammar: TAR,
  readOnly: readOnly(LISTING, 'inert', { check: listsOnly }),
};

/** `tar xzf FILE` (a first word without a dash) means `tar -x -z -f FILE`. */
function expandTarBundle(words: readonly Word[]): Word[] {
  const bundle = words[1];
  if (!bundle?.static || !/^[A-Za-z]+$/.test(bundle.value)) return [...words];
  const expanded: Word[] = [words[0]!];
  let next = 2;
  for (const letter of bundle.value) {
    expanded.push(syntheticWord(`-${letter}`, bundle.span));
    if (TAR.values.includes(letter) && words[next]) expanded.push(words[next++]!);
  }
  return [...expanded, ...words.slice(next)];
}

const TAR_COMMANDS = ['--to-command', '--rsh-command', '--rmt-command', 'I', 'F'];

/** `tar -f host:file` reaches the archive through rsh or ssh. */
function remoteArchive(parsed: Parsed): Word | undefined {
  const file = lastValue(parsed, 'f');
  if (!file || has(parsed, '--force-local')) return undefined;
  return /^[^/]*:/.test(leadingText(file)) ? file : undefined;
}

function nested(cmd: CommandView): NestedSpec[] {
  const view = { ...cmd, argv: expandTarBundle(cmd.argv) };
  const parsed = parse(view.argv);
  if (!parsed.ok) return [parseFailure(cmd.program, parsed)];
  const suspect = parsed.suspects[0];
  if (suspect !== undefined) {
    const word = view.argv[suspect]!;
    return [unresolved(`${cmd.program}: ${word.text} may be an option that runs a program`, word)];
  }
  const specs: NestedSpec[] = [];
  for (const option of parsed.options) {
    const via = option.name.length === 1 ? `tar -${option.name}` : `tar ${option.name}`;
    if (TAR_COMMANDS.includes(option.name) && option.value) specs.push(shellSpec(option.value, via));
    if (option.name === '--checkpoint-action' && option.value) {
      const action = option.value;
      if (leadingText(action).startsWith('exec=')) specs.push(shellSpec(sliceWord(action, 5), via));
      else if (!action.static) specs.push(shellSpec(action, via));
    }
  }
  const remote = remoteArchive(parsed);
  if (remote) specs.push(codeIn('program-option', 'tar', 'remote archive', remote));
  return specs;
}

/** GNU style: options anywhere before `--`. */
function parse(words: readonly Word[]) {
  return parseOptions(words, 1, TAR, { permute: true, unknown: 'flag', dynamic: 'operand' });
}

const TAR_MODES = ['c', 'x', 't', 'r', 'u', 'A', 'd', '--delete'];

/**
 * tar -c -f ARCHIVE FILES writes ARCHIVE and reads FILES; -x writes files, named only in the archive, into the
 * folder. `-C DIR` changes the folder the members after it are relative to.
 */
const effects: EffectHandler = (cmd) => {
  const view = { ...cmd, argv: expandTarBundle(cmd.argv) };
  const parsed = parse(view.argv);
  if (!parsed.ok) return UNKNOWN;
  if (has(parsed, '--help', '--version')) return NONE;
  const mode = parsed.options.filter((found) => TAR_MODES.includes(found.name)).at(-1)?.name;
  if (!mode) return UNKNOWN;
  const archive = lastValue(parsed, 'f');
  const members = tarMembers(view.argv, parsed);
  const effects: FileEffect[] = [];
  let known = parsed.unknown.length === 0 && parsed.suspects.length === 0;
  const onArchive = (access: 'read' | 'write') => {
    if (archive && !is(archive, '-')) effects.push(option(access, archive));
  };
  for (const found of optionsNamed(parsed, 'T', 'X')) effects.push(option('read', found.value!));
  for (const found of optionsNamed(parsed, 'T')) effects.push(listedIn('read', found.value!));
  if (has(parsed, 'T')) known = false;
  if (mode === 'c' || mode === 'r' || mode === 'u' || mode === 'A') {
    onArchive('write');
    effects.push(...each(has(parsed, '--remove-files') ? ['read', 'delete'] : 'read', members));
  } else if (mode === 'x') {
    onArchive('read');
    if (!has(parsed, 'O', '--to-command')) {
      const folder = tarFolder(parsed, view.argv.length);
      effects.push(
        treeWrite(
          folder ?? syntheticWord('.', cmd.argv[0]!.span),
          folder ? 'option' : 'argument',
          extractedNames(parsed, archive),
        ),
      );
      known = false;
    }
  } else if (mode === 't' || mode === 'd') {
    onArchive('read');
    if (mode === 'd') effects.push(...reads(members));
  } else {
    onArchive('write');
  }
  return { effects, known };
};

/** Options that change the names tar writes, or where: their names cannot be read from the archive alone. */
const RENAMING = ['--transform', '--xform', 'P', '--one-top-level', '--to-command', 'M', 'G', 'g'];

/**
 * Where the names of the members `tar -x` writes come from: the archive `-f` names (or stdin), less the leading
 * components `--strip-components` drops.
 */
function extractedNames(parsed: Parsed, archive: Word | undefined): WriteNames {
  if (has(parsed, ...RENAMING)) return { kind: 'unknown', why: 'an option changes the names tar writes' };
  const strip = lastValue(parsed, '--strip-components');
  const count = strip?.static && /^\d+$/.test(strip.value) ? Number(strip.value) : strip ? undefined : 0;
  if (count === undefined) return { kind: 'unknown', why: '--strip-components is only known at run time' };
  const file = archive && !is(archive, '-') ? archive : undefined;
  if (!file && process.env.TAPE) return { kind: 'unknown', why: 'tar reads the archive $TAPE names' };
  return file
    ? { kind: 'archive', format: 'tar', file, strip: count }
    : { kind: 'archive', format: 'tar', strip: count };
}

/** The folder the last `-C` before word `index` names. */
function tarFolder(parsed: Parsed, index: number): Word | undefined {
  return parsed.options.filter((found) => found.name === 'C' && found.index < index).at(-1)?.value;
}

/** Member operands, each as a path relative to the folder `-C` set before it. */
function tarMembers(words: readonly Word[], parsed: Parsed): Word[] {
  return parsed.operands.map((index) => {
    const member = words[index]!;
    const folder = tarFolder(parsed, index);
    return folder ? underFolder(folder, member) : member;
  });
}

export const TAR_MODULE: ProgramModule = {
  names: ['tar', 'gtar', 'bsdtar'],
  spec,
  effects,
  nested,
  oracle: {
    cases: [
      'tar -czf out.tgz docs',
      'tar czf out.tgz README.md docs',
      'tar --create --file=out.tar docs',
      'tar cf - docs',
      'tar --remove-files -cf a.tar docs',
      'tar -rf a.tar README.md',
      'tar -xf a.tar',
      'tar -xf a.tar -C x',
      'tar -xf extra.tar',
      'tar -xf extra.tar -C docs',
      'tar -xf planted.tar',
      'tar -xOf a.tar',
      'tar -tf a.tar',
      'tar tvf a.tar',
      'tar -tzvf a.tgz',
      'tar --list --file=a.tar docs',
      'tar -C docs -cf a.tar .',
      'tar -cf a.tar README.md -C docs .',
      'tar -cf a.tar -T list',
      'tar -cf a.tar -X list docs',
    ],
  },
};
