/**
 * Languages of command lines written with wildcards, and whether two of them share a line. A Bash rule's pattern
 * is one (`*` any string, a trailing ` *` an optional space and any string); a command whose words are partly
 * known only at run time is another (each run-time part any string, a word made only of run-time parts
 * possibly no word at all). Both are small automata over characters where "any character" is one label, so
 * the intersection is decided exactly by walking their product.
 */

/** One piece of a wildcard line: literal text, any string, or pieces that may be left out. */
export type Piece = string | typeof ANY | { optional: readonly Piece[] };

/** Any string, blanks included. */
export const ANY: unique symbol = Symbol('any');

/** An edge reads one character (`char`), any character (`char` null) or none (`char` undefined). */
interface Edge {
  char: string | null | undefined;
  to: number;
}

interface Automaton {
  edges: Edge[][];
  start: number;
  accept: number;
}

function build(pieces: readonly Piece[]): Automaton {
  const edges: Edge[][] = [[]];
  const state = () => edges.push([]) - 1;
  const add = (from: number, char: string | null | undefined, to: number) => edges[from]!.push({ char, to });
  const emit = (from: number, list: readonly Piece[]): number => {
    let at = from;
    for (const piece of list) {
      if (piece === ANY) {
        const loop = state();
        add(at, undefined, loop);
        add(loop, null, loop);
        at = state();
        add(loop, undefined, at);
      } else if (typeof piece === 'string') {
        for (const char of piece) {
          const next = state();
          add(at, char, next);
          at = next;
        }
      } else {
        const end = emit(at, piece.optional);
        const after = state();
        add(end, undefined, after);
        add(at, undefined, after);
        at = after;
      }
    }
    return at;
  };
  const accept = emit(0, pieces);
  return { edges, start: 0, accept };
}

/** Whether some string belongs to both languages. */
export function intersects(a: readonly Piece[], b: readonly Piece[]): boolean {
  const x = build(a);
  const y = build(b);
  const width = y.edges.length;
  const seen = new Set<number>();
  const queue: number[] = [];
  const visit = (i: number, j: number) => {
    const key = i * width + j;
    if (seen.has(key)) return;
    seen.add(key);
    queue.push(key);
  };
  visit(x.start, y.start);
  while (queue.length > 0) {
    const key = queue.pop()!;
    const i = Math.floor(key / width);
    const j = key % width;
    if (i === x.accept && j === y.accept) return true;
    for (const e of x.edges[i]!) if (e.char === undefined) visit(e.to, j);
    for (const f of y.edges[j]!) if (f.char === undefined) visit(i, f.to);
    for (const e of x.edges[i]!) {
      if (e.char === undefined) continue;
      for (const f of y.edges[j]!) {
        if (f.char === undefined) continue;
        if (e.char === null || f.char === null || e.char === f.char) visit(e.to, f.to);
      }
    }
  }
  return false;
}

/** A Bash rule's pattern as pieces: its body with `*` any string, then ` *` left optional when it ends so. */
export function patternPieces(body: string, wordBoundary: boolean): Piece[] {
  const pieces: Piece[] = [];
  body.split('*').forEach((text, i) => {
    if (i > 0) pieces.push(ANY);
    if (text !== '') pieces.push(text);
  });
  if (wordBoundary) pieces.push({ optional: [' ', ANY] });
  return pieces;
}
