/** A name with case and the separators `_`, `-` and blanks left out: `pre_tool_use` and `PreToolUse` fold alike. */
function fold(name: string): string {
  return name.toLowerCase().replace(/[\s_-]+/g, '');
}

/**
 * The known name `name` is probably a misspelling of: the same once case and separators are left out, or at most
 * two edits away from it then (fewer for short names); undefined for a known name or one close to none.
 */
export function closestName(name: string, known: readonly string[]): string | undefined {
  if (known.includes(name)) return undefined;
  const folded = fold(name);
  let best: { name: string; distance: number } | undefined;
  for (const candidate of known) {
    const other = fold(candidate);
    const distance = other === folded ? 0 : editDistance(folded, other);
    // Two edits turn most three-letter words into each other: a short name must be nearer.
    const limit = Math.min(2, Math.floor(Math.min(folded.length, other.length) / 3));
    if (distance <= limit && (!best || distance < best.distance)) best = { name: candidate, distance };
  }
  return best?.name;
}

/** `; did you mean "X"?` after a message, when there is a name it probably means; read back by `meantIn`. */
export function didYouMean(meant: string | undefined): string {
  return meant ? `; did you mean "${meant}"?` : '';
}

/** The name a message's `did you mean "X"?` offers. */
export function meantIn(message: string): string | undefined {
  return /did you mean "([^"]+)"/.exec(message)?.[1];
}

/** Levenshtein distance with adjacent transpositions (optimal string alignment); 3 stands for "more than 2". */
function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3;
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    rows.push([i]);
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        rows[0]!.push(j);
        continue;
      }
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]!.push(d);
    }
  }
  return rows[a.length]![b.length]!;
}
