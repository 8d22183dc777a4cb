/** awk constructs that run commands or read and write files, and the patterns that find them. */
const CONSTRUCTS: [string, RegExp][] = [
  ['system(', /\bsystem\s*\(/],
  ['| getline', /\|\s*getline\b/],
  ['|&', /\|&/],
  ['print |', /\bprintf?\b[^;{}\n]*\|/],
  ['print >', /\bprintf?\b[^;{}\n]*>/],
  ['getline <', /\bgetline\b[^;{}\n]*</],
  ['@load', /@load\b/],
  ['@include', /@include\b/],
];

/** Words after which `/` starts a regex rather than a division. */
const KEYWORDS = new Set(['print', 'printf', 'return', 'case', 'in', 'do', 'else', 'exit', 'getline']);

/**
 * The program with string, regex and comment contents blanked, so that `print "a > b"` is not taken for
 * a redirection; undefined when `/` could be either a division or a regex (`(a) /b/`, `x++ /`), or a
 * literal is unterminated, in which case the caller must search the raw text.
 */
function blankLiterals(program: string): string | undefined {
  let out = '';
  let operand = false;
  for (let i = 0; i < program.length; i++) {
    const c = program[i]!;
    if (c === '/' && /(\)|\+\+|--)\s*$/.test(out)) return undefined;
    if (c === '"' || (c === '/' && !operand)) {
      let inBracket = false;
      let j = i + 1;
      for (; j < program.length; j++) {
        const d = program[j]!;
        if (d === '\\') j++;
        else if (c === '/' && d === '[') inBracket = true;
        else if (c === '/' && d === ']') inBracket = false;
        else if (d === c && !inBracket) break;
        else if (d === '\n') return undefined;
      }
      if (j >= program.length) return undefined;
      out += `${c}${c}`;
      i = j;
      operand = true;
    } else if (c === '#') {
      while (i + 1 < program.length && program[i + 1] !== '\n') i++;
    } else if (/[A-Za-z_]/.test(c)) {
      let j = i;
      while (j < program.length && /\w/.test(program[j]!)) j++;
      const word = program.slice(i, j);
      out += word;
      operand = !KEYWORDS.has(word);
      i = j - 1;
    } else {
      out += c;
      if (/[\d$)\]]/.test(c)) operand = true;
      else if (!/[ \t]/.test(c)) operand = false;
    }
  }
  return out;
}

export function awkConstructs(program: string): string[] {
  const text = blankLiterals(program) ?? program;
  return CONSTRUCTS.filter(([, pattern]) => pattern.test(text)).map(([name]) => name);
}

/** Constructs that run a command (the rest read or write files). */
export function awkRunsCommands(constructs: readonly string[]): boolean {
  return constructs.some((name) => !['getline <', 'print >', '@include'].includes(name));
}
