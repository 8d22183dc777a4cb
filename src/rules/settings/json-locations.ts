import type { Position, Segment } from './types.js';

/**
 * Offsets of every value in a JSON text (already known to be valid), keyed by JSON pointer path. A single
 * scan, done only when a position is first asked for.
 */
export function jsonLocator(text: string): (path: readonly Segment[]) => Position | undefined {
  let offsets: Map<string, number> | undefined;
  let lineStarts: number[] | undefined;
  const key = (path: readonly Segment[]) => path.map(String).join('\u0000');
  return (path) => {
    offsets ??= scan(text);
    lineStarts ??= starts(text);
    for (let depth = path.length; depth >= 0; depth--) {
      const offset = offsets.get(key(path.slice(0, depth)));
      if (offset !== undefined) return position(lineStarts, offset);
    }
    return undefined;
  };
}

function starts(text: string): number[] {
  const out = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) out.push(i + 1);
  return out;
}

function position(lineStarts: number[], offset: number): Position {
  let low = 0;
  let high = lineStarts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (lineStarts[mid]! <= offset) low = mid;
    else high = mid - 1;
  }
  return { line: low + 1, column: offset - lineStarts[low]! + 1 };
}

/** Space, tab, newline, carriage return, comma, `]` and `}` end a number, true, false or null. */
const SCALAR_END = new Set([32, 9, 10, 13, 44, 93, 125]);

function scan(text: string): Map<string, number> {
  const out = new Map<string, number>();
  let i = 0;
  const ws = () => {
    for (let c = text.charCodeAt(i); c === 32 || c === 10 || c === 13 || c === 9; c = text.charCodeAt(++i));
  };
  const string = (): string => {
    const start = i;
    i++;
    for (let c = text.charCodeAt(i); i < text.length && c !== 34; c = text.charCodeAt(i))
      i += c === 92 ? 2 : 1;
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (path: string[]): void => {
    ws();
    out.set(path.join('\u0000'), i);
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        const name = string();
        ws();
        i++; // :
        value([...path, name]);
        ws();
        if (text[i++] === '}') return;
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (let index = 0; ; index++) {
        value([...path, String(index)]);
        ws();
        if (text[i++] === ']') return;
      }
    }
    if (c === '"') {
      string();
      return;
    }
    for (let c = text.charCodeAt(i); i < text.length && !SCALAR_END.has(c); c = text.charCodeAt(++i));
  };
  value([]);
  return out;
}
