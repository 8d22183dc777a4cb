/** Patches larger than this are not read: their write set is unknown. */
export const MAX_PATCH_BYTES = 16 * 1024 * 1024;

export type PatchNames = { kind: 'names'; names: string[] } | { kind: 'unknown'; why: string };

/** A name as git quotes it (`"a/\303\251"`), unquoted; as is otherwise. */
function unquote(name: string): string {
  if (!name.startsWith('"') || !name.endsWith('"')) return name;
  const bytes: number[] = [];
  const body = name.slice(1, -1);
  const escapes: Record<string, number> = { n: 10, t: 9, '"': 34, '\\': 92, a: 7, b: 8, f: 12, r: 13, v: 11 };
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c !== '\\') {
      bytes.push(...Buffer.from(c, 'utf8'));
      continue;
    }
    const next = body[i + 1] ?? '';
    if (/[0-7]/.test(next)) {
      bytes.push(Number.parseInt(body.slice(i + 1, i + 4), 8));
      i += 3;
    } else {
      bytes.push(escapes[next] ?? next.charCodeAt(0));
      i += 1;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** The name of a `---`/`+++`/`***` header line: up to a tab (the timestamp), unquoted. */
function headerName(rest: string): string {
  const tab = rest.indexOf('\t');
  const name = (tab < 0 ? rest : rest.slice(0, tab)).trimEnd();
  return unquote(name);
}

/** `diff --git a/X b/Y`: the two names (quoted or not). */
function gitNames(rest: string): string[] {
  if (rest.startsWith('"')) {
    const close = rest.indexOf('"', 1);
    return [unquote(rest.slice(0, close + 1)), unquote(rest.slice(close + 2).trim())];
  }
  const half = rest.split(' ');
  if (half.length === 2) return [half[0]!, unquote(half[1]!)];
  // Names with spaces: `a/x y b/x y`, the two halves equal.
  const middle = (rest.length - 1) / 2;
  return Number.isInteger(middle) ? [rest.slice(0, middle), rest.slice(middle + 1)] : [];
}

/**
 * `strip` leading components dropped, as `patch -p` and `git apply -p` do; -1: only the last component (GNU patch
 * without `-p`); undefined when the name has too few components (the tool skips it or asks).
 */
export function stripName(name: string, strip: number): string | undefined {
  if (name === '/dev/null' || name === '') return undefined;
  if (strip < 0) return name.split('/').filter(Boolean).at(-1);
  const parts = name.split(/\/+/);
  if (strip === 0) return name;
  if (parts.length <= strip) return undefined;
  return parts.slice(strip).join('/');
}

/**
 * Every file a unified, context or git patch (or a mailbox of them) names, old and new names alike, with `strip`
 * components dropped: a superset of the files the patch tool writes. Unknown when the text hides its patches
 * (base64 or quoted-printable mail parts) or names no file.
 */
export function patchNames(text: string, strip: number): PatchNames {
  if (/^Content-Transfer-Encoding:\s*(base64|quoted-printable)/im.test(text))
    return { kind: 'unknown', why: 'a patch in the mail is encoded' };
  const names = new Set<string>();
  const add = (name: string, stripped = true) => {
    const n = stripped ? stripName(name, strip) : name;
    if (n !== undefined) names.add(n);
  };
  const lines = text.split(/\r?\n/);
  let changes = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith('diff --git ')) {
      for (const name of gitNames(line.slice(11))) add(name);
      changes = true;
    } else if (line.startsWith('--- ') || line.startsWith('+++ ')) {
      add(headerName(line.slice(4)));
      changes = true;
    } else if (line.startsWith('*** ') && !line.startsWith('****') && lines[i + 1]?.startsWith('--- ')) {
      add(headerName(line.slice(4)));
      changes = true;
    } else if (/^(rename|copy) (from|to) /.test(line)) {
      add(unquote(line.replace(/^(rename|copy) (from|to) /, '')), strip < 0);
    } else if (line.startsWith('Index: ')) {
      add(line.slice(7).trim());
    } else if (/^@@ |^\d+(,\d+)?[acd]\d+/.test(line)) {
      changes = true;
    }
  }
  if (names.size === 0)
    return changes
      ? { kind: 'unknown', why: 'the patch names no file it changes' }
      : { kind: 'names', names: [] };
  return { kind: 'names', names: [...names] };
}
