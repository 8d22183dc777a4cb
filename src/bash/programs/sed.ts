/** What a sed script does besides editing the stream: GNU sed syntax. */
export interface SedScript {
  /** False when the script could not be parsed: treat it as able to do anything. */
  ok: boolean;
  /** Shell commands: `e COMMAND`, `e` (runs the pattern space) and the `s///e` flag. */
  executes: { via: string; command: string }[];
  /** Files written by `w`, `W` and the `s///w` flag. */
  writes: string[];
  /** Files read by `r` and `R`. */
  reads: string[];
}

const SIMPLE = new Set([...'=dDgGhHlLnNpPxzFqQ']);

export function parseSed(script: string): SedScript {
  const result: SedScript = { ok: true, executes: [], writes: [], reads: [] };
  let i = 0;
  const at = () => script[i];
  const skipSpace = () => {
    while (i < script.length && /[ \t]/.test(script[i]!)) i++;
  };
  const restOfLine = () => {
    const end = script.indexOf('\n', i);
    const text = script.slice(i, end < 0 ? script.length : end);
    i = end < 0 ? script.length : end + 1;
    return text;
  };
  /** Skips a delimited part (`/re/`) and returns false when the delimiter is missing. */
  const delimited = (delimiter: string) => {
    while (i < script.length) {
      const c = script[i++]!;
      if (c === '\\') i++;
      else if (c === delimiter) return true;
      else if (c === '\n' && delimiter !== '\n') return false;
    }
    return false;
  };
  const address = () => {
    const c = at();
    if (c === undefined) return true;
    if (/\d/.test(c)) {
      while (i < script.length && /[\d~]/.test(script[i]!)) i++;
    } else if (c === '$') {
      i++;
    } else if (c === '/' || c === '\\') {
      i++;
      const delimiter = c === '\\' ? script[i++] : '/';
      if (delimiter === undefined || !delimited(delimiter)) return false;
      while (/[IM]/.test(at() ?? '')) i++;
    } else if (c === '+' || c === '~') {
      i++;
      while (/\d/.test(at() ?? '')) i++;
    }
    return true;
  };

  while (i < script.length) {
    while (i < script.length && /[\s;]/.test(script[i]!)) i++;
    if (i >= script.length) break;
    if (at() === '#') {
      restOfLine();
      continue;
    }
    if (!address()) return { ...result, ok: false };
    skipSpace();
    if (at() === ',') {
      i++;
      skipSpace();
      if (!address()) return { ...result, ok: false };
    }
    skipSpace();
    while (at() === '!') {
      i++;
      skipSpace();
    }
    const command = script[i++];
    if (command === undefined) return { ...result, ok: false };
    if (command === '{' || command === '}' || SIMPLE.has(command)) {
      if (/[lLqQ]/.test(command)) {
        skipSpace();
        while (/\d/.test(at() ?? '')) i++;
      }
      continue;
    }
    if (command === ':' || command === 'b' || command === 't' || command === 'T' || command === 'v') {
      skipSpace();
      while (i < script.length && !/[;\n]/.test(script[i]!)) i++;
      continue;
    }
    if (command === 'a' || command === 'i' || command === 'c') {
      while (i < script.length) {
        const c = script[i++];
        if (c === '\\') i++;
        else if (c === '\n') break;
      }
      continue;
    }
    if (command === 'r' || command === 'R' || command === 'w' || command === 'W') {
      skipSpace();
      (command === 'r' || command === 'R' ? result.reads : result.writes).push(restOfLine());
      continue;
    }
    if (command === 'e') {
      skipSpace();
      result.executes.push({ via: 'e', command: restOfLine() });
      continue;
    }
    if (command === 's' || command === 'y') {
      const delimiter = script[i++];
      if (delimiter === undefined || delimiter === '\n' || delimiter === '\\')
        return { ...result, ok: false };
      if (!delimited(delimiter) || !delimited(delimiter)) return { ...result, ok: false };
      if (command === 'y') continue;
      while (i < script.length) {
        const flag = script[i]!;
        if (/[gpiImM\d]/.test(flag)) {
          i++;
        } else if (flag === 'e') {
          i++;
          result.executes.push({ via: 's///e', command: '' });
        } else if (flag === 'w') {
          i++;
          skipSpace();
          result.writes.push(restOfLine());
          break;
        } else {
          break;
        }
      }
      continue;
    }
    return { ...result, ok: false };
  }
  return result;
}
