import { opendirSync, readdirSync, statSync } from 'node:fs';
import picomatch from 'picomatch';

/** Directory entries looked at for one glob before it is given up as too large to check file by file. */
export const MAX_GLOB_ENTRIES = 2_000;

export type GlobExpansion =
  | { kind: 'paths'; paths: string[] }
  /** More entries than MAX_GLOB_ENTRIES would have to be looked at. */
  | { kind: 'too-many' }
  /** `..` after a wildcard: which folder it leads to depends on links the expansion cannot follow lexically. */
  | { kind: 'unsupported' };

const WILD = /[*?[]/;
const matchers = new Map<string, (name: string) => boolean>();

/**
 * One path segment as bash matches it by default: no dotglob (a leading dot must be written), no extglob, no
 * globstar (`**` is `*`), no brace expansion, case-sensitive. A backslash in the value is literal: the
 * analyzer has already removed quoting.
 */
function segmentMatcher(segment: string): (name: string) => boolean {
  let m = matchers.get(segment);
  if (!m) {
    const test = picomatch(segment.replaceAll('\\', '\\\\'), {
      dot: segment.startsWith('.'),
      nobrace: true,
      noextglob: true,
      noglobstar: true,
      nonegate: true,
      posix: true,
    });
    m = (name: string) => test(name);
    if (matchers.size >= 1_000) matchers.clear();
    matchers.set(segment, m);
  }
  return m;
}

/** Above this size (in bytes, as stat reports it) a folder is read entry by entry, so a huge one costs no more than the budget. */
const LARGE_FOLDER_BYTES = 16_384;

/** The entry names of a folder, or 'too-many' past `budget`; undefined when it is not a readable folder. */
function listNames(folder: string, budget: number): string[] | 'too-many' | undefined {
  try {
    // A failed readdir throws, which costs several times a stat that reports absence.
    const st = statSync(folder, { throwIfNoEntry: false });
    if (!st?.isDirectory()) return undefined;
    if (st.size <= LARGE_FOLDER_BYTES) {
      const names = readdirSync(folder);
      return names.length > budget ? 'too-many' : names;
    }
    const dir = opendirSync(folder);
    try {
      const names: string[] = [];
      for (let entry = dir.readSync(); entry; entry = dir.readSync()) {
        if (names.length >= budget) return 'too-many';
        names.push(entry.name);
      }
      return names;
    } finally {
      dir.closeSync();
    }
  } catch {
    return undefined;
  }
}

/**
 * `folder/name` as text: a `..` stays for the kernel to apply to the folder the prefix physically is, both
 * when the folder is listed and when the path is resolved later.
 */
function below(folder: string, name: string): string {
  return folder === '/' ? `/${name}` : `${folder}/${name}`;
}

/**
 * The paths an absolute glob names right now, as bash would expand it; the pattern itself when nothing
 * matches (bash then passes the word unchanged). Quoted wildcard characters are treated as wildcards too,
 * which can only name more files than bash would, never fewer.
 */
export function expandGlob(pattern: string, maxEntries = MAX_GLOB_ENTRIES): GlobExpansion {
  const segments = pattern.split('/').filter((s) => s !== '' && s !== '.');
  let current = ['/'];
  let wildSeen = false;
  let visited = 0;
  for (const segment of segments) {
    if (segment === '..' && wildSeen) return { kind: 'unsupported' };
    if (!WILD.test(segment)) {
      current = current.map((p) => below(p, segment));
      continue;
    }
    wildSeen = true;
    const matches = segmentMatcher(segment);
    const next: string[] = [];
    for (const folder of current) {
      const names = listNames(folder, maxEntries - visited);
      if (names === 'too-many') return { kind: 'too-many' };
      if (!names) continue;
      visited += names.length;
      // Older bash versions let `.*` match `.` and `..`; counting them costs nothing and errs on the safe side.
      if (segment.startsWith('.')) names.push('.', '..');
      for (const name of names) if (matches(name)) next.push(below(folder, name));
    }
    current = next;
    if (current.length === 0) break;
  }
  return { kind: 'paths', paths: current.length > 0 ? current : [pattern] };
}
