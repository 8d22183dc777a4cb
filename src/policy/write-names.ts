import { lstatSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import type { SimpleCommand, Word, WriteNames } from '../bash/index.js';
import {
  listArchive,
  listArchiveBytes,
  MAX_ARCHIVE_BYTES,
  MAX_MEMBERS,
  readBounded,
} from './archive-listing.js';
import type { DecisionContext } from './context.js';
import { MAX_PATCH_BYTES, patchNames } from './patch-names.js';
import { resolveWordPath } from './paths.js';
import { repositoryOf, revisionWrites } from './revision-writes.js';
import { sqliteReadWrites } from './sqlite-journal.js';

/**
 * The files a tree write writes, computed at decision time from what the command would read (read-only,
 * bounded); or why they cannot be known, and whether that is because the content is on a remote.
 */
export type WriteSet =
  | { kind: 'paths'; paths: string[] }
  | { kind: 'unknown'; why: string; remote?: boolean };

const unknown = (why: string): WriteSet => ({ kind: 'unknown', why });

/** Where the command runs and what else its line does: the inputs of a write set. */
export interface WriteSetInput {
  names: WriteNames;
  /** The folder written into, absolute. */
  folder: string;
  /** The folder the command runs in, absolute (relative words resolve against it). */
  cwd: string | undefined;
  cmd: SimpleCommand | undefined;
  ctx: DecisionContext;
  /** Another part of the call may write what this reads (the archive, the patch, the repository). */
  stale?: string;
}

/** Counters of the write sets computed in this process, for the benchmarks. */
export const writeSetStats = { computed: 0, unknown: 0 };

export function computeWriteSet(input: WriteSetInput): WriteSet {
  const set = withParents(compute(input), input.folder);
  if (set.kind === 'paths') writeSetStats.computed += 1;
  else writeSetStats.unknown += 1;
  return set;
}

function compute({ names, folder, cwd, cmd, ctx, stale }: WriteSetInput): WriteSet {
  if (names.kind === 'unknown')
    return names.remote ? { kind: 'unknown', why: names.why, remote: true } : unknown(names.why);
  if (stale) return unknown(stale);
  const path = (word: Word) => (cwd === undefined ? undefined : resolveWordPath(word, ctx, cwd));
  switch (names.kind) {
    case 'archive': {
      const listing = names.file
        ? archiveFile(names.file, names.format, path)
        : archiveOnStdin(cmd, names.format, path);
      if (listing.kind === 'unknown') return listing;
      const strip = names.strip ?? 0;
      const members = listing.members;
      const links = members.filter((m) => m.link).map((m) => normalise(m.name, names.format));
      const paths: string[] = [];
      for (const member of members) {
        const name = normalise(member.name, names.format);
        const stripped = name.split('/').filter(Boolean).slice(strip).join('/');
        if (stripped === '') continue;
        if (links.some((link) => name.startsWith(`${link}/`)))
          return unknown(`${member.name} is written through a link the archive makes`);
        paths.push(isAbsolute(stripped) ? stripped : resolve(folder, stripped));
      }
      return { kind: 'paths', paths };
    }
    case 'patch': {
      let text: string;
      if (names.files.length === 0) {
        const input = stdinFile(cmd, path);
        if (typeof input !== 'string') return input;
        const read = readBounded(input, MAX_PATCH_BYTES);
        if (typeof read === 'string') return unknown(read);
        text = read.toString('utf8');
      } else {
        const parts: string[] = [];
        for (const file of names.files) {
          const at = path(file);
          if (at === undefined) return unknown(`${file.text} is only known at run time`);
          const read = readBounded(at, MAX_PATCH_BYTES);
          if (typeof read === 'string') return unknown(read);
          parts.push(read.toString('utf8'));
        }
        text = parts.join('\n');
      }
      const found = patchNames(text, names.strip);
      if (found.kind === 'unknown') return found;
      if (names.prefix && !names.prefix.static) return unknown('--directory is only known at run time');
      const under = names.prefix ? resolve(folder, names.prefix.value) : folder;
      // A patch tool may leave FILE.orig and FILE.rej beside each file it changes.
      const paths = found.names.flatMap((name) => {
        const at = resolve(under, name);
        return [at, `${at}.orig`, `${at}.rej`];
      });
      return { kind: 'paths', paths };
    }
    case 'sqlite': {
      const at = path(names.database);
      if (at === undefined) return unknown(`${names.database.text} is only known at run time`);
      const written = sqliteReadWrites(at, names);
      return Array.isArray(written) ? { kind: 'paths', paths: written } : unknown(written.why);
    }
    case 'copy': {
      const source = path(names.source);
      if (source === undefined) return unknown(`${names.source.text} is only known at run time`);
      const into =
        names.contents || (!names.below && !isFolder(folder)) ? folder : join(folder, basename(source));
      const walked = walk(source);
      if (typeof walked === 'string') return unknown(walked);
      return { kind: 'paths', paths: [into, ...walked.map((p) => join(into, p))] };
    }
    case 'matching': {
      const found = matching(folder, names.suffixes, names.recursive);
      return typeof found === 'string' ? unknown(found) : { kind: 'paths', paths: found };
    }
    case 'revision': {
      const repo = repositoryOf(names.repository === 'working-folder' && cwd ? cwd : folder);
      // Outside any repository git refuses to run: it writes nothing.
      if (!repo) return { kind: 'paths', paths: [] };
      const within = names.within?.map(path);
      if (within?.some((p) => p === undefined) || names.within?.some((w) => /[*?[]|^:/.test(w.value)))
        return unknown('the paths it restores are a pattern or only known at run time');
      const written = revisionWrites(repo, names.changes, within as string[] | undefined, path);
      if (written.kind === 'unknown') return written;
      if (names.repository !== 'working-folder') return written;
      // A new work tree: the commit's files below the folder made for it.
      return { kind: 'paths', paths: written.paths.map((p) => join(folder, p.slice(repo.root.length + 1))) };
    }
  }
}

/** The folders between `folder` and each path are created too: they are part of the write set. */
function withParents(set: WriteSet, folder: string): WriteSet {
  if (set.kind !== 'paths') return set;
  const out = new Set(set.paths);
  for (const path of set.paths) {
    for (let at = dirname(path); at.startsWith(`${folder}/`) && !out.has(at); at = dirname(at)) out.add(at);
  }
  return { kind: 'paths', paths: [...out] };
}

/** A member's name as the tool writes it: tar and unzip drop a leading `/` and `./`; cpio keeps an absolute one. */
function normalise(name: string, format: 'tar' | 'zip' | 'cpio' | '7z'): string {
  let n = name.replace(/\\/g, format === 'zip' ? '/' : '\\');
  if (format !== 'cpio') n = n.replace(/^\/+/, '');
  return n.replace(/^(\.\/)+/, '');
}

function archiveFile(
  file: Word,
  format: 'tar' | 'zip' | 'cpio' | '7z',
  path: (w: Word) => string | undefined,
) {
  const at = path(file);
  if (at === undefined) return { kind: 'unknown' as const, why: `${file.text} is only known at run time` };
  // unzip tries NAME.zip when NAME is missing.
  if (format === 'zip' && !statSync(at, { throwIfNoEntry: false })) {
    const zip = `${at}.zip`;
    if (statSync(zip, { throwIfNoEntry: false })) return listArchive(zip, format);
  }
  return listArchive(at, format);
}

/** The file the command's stdin is redirected from; why not, when it reads a pipe or the terminal. */
function stdinFile(cmd: SimpleCommand | undefined, path: (w: Word) => string | undefined): string | WriteSet {
  const redirect = cmd?.redirects.filter((r) => r.op === '<' && (r.fd === undefined || r.fd === '0')).at(-1);
  if (!redirect) return unknown('it reads the input from a pipe or the terminal');
  const at = path(redirect.target);
  return at === undefined ? unknown(`${redirect.target.text} is only known at run time`) : at;
}

function archiveOnStdin(
  cmd: SimpleCommand | undefined,
  format: 'tar' | 'zip' | 'cpio' | '7z',
  path: (w: Word) => string | undefined,
) {
  const input = stdinFile(cmd, path);
  if (typeof input !== 'string') return input as { kind: 'unknown'; why: string };
  const read = readBounded(input, MAX_ARCHIVE_BYTES);
  if (typeof read === 'string') return { kind: 'unknown' as const, why: read };
  return listArchiveBytes(read, format);
}

function isFolder(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;
}

/** The files below `root` whose names end with a suffix (see the `matching` write names); why not past the bound. */
function matching(root: string, suffixes: readonly string[], recursive: boolean): string[] | string {
  const top = lstatSync(root, { throwIfNoEntry: false });
  if (!top) return [];
  if (!top.isDirectory()) return [root];
  const out: string[] = [];
  const queue = [root];
  let seen = 0;
  while (queue.length > 0) {
    const at = queue.shift()!;
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(at, { withFileTypes: true });
    } catch {
      return `${at} cannot be read`;
    }
    seen += entries.length;
    if (seen > MAX_MEMBERS) return `${root} holds more than ${MAX_MEMBERS} entries`;
    for (const entry of entries) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) {
        if (recursive && !entry.name.startsWith('.')) queue.push(path);
      } else if (suffixes.some((suffix) => entry.name.endsWith(suffix))) out.push(path);
    }
  }
  return out;
}

/** The entries below a folder (links not followed), relative to it; a file is itself; why not past the bound. */
function walk(root: string): string[] | string {
  const top = lstatSync(root, { throwIfNoEntry: false });
  if (!top) return `${root} does not exist yet`;
  if (!top.isDirectory()) return [];
  const out: string[] = [];
  const queue = [''];
  while (queue.length > 0) {
    const relative = queue.shift()!;
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(join(root, relative), { withFileTypes: true });
    } catch {
      return `${join(root, relative)} cannot be read`;
    }
    for (const entry of entries) {
      const name = relative ? `${relative}/${entry.name}` : entry.name;
      out.push(name);
      if (out.length > MAX_MEMBERS) return `${root} holds more than ${MAX_MEMBERS} entries`;
      if (entry.isDirectory()) queue.push(name);
    }
  }
  return out;
}
