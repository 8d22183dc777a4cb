/**
 * awk constructs that run commands, or read or write files, found by pattern over the program text
 * with string literals and comments removed. Regex literals are kept: a match inside one is a false
 * alarm, never a miss.
 */
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

function stripStrings(program: string): string {
  let out = '';
  for (let i = 0; i < program.length; i++) {
    const c = program[i]!;
    if (c === '"') {
      for (i++; i < program.length && program[i] !== '"'; i++) if (program[i] === '\\') i++;
      out += '""';
    } else if (c === '#') {
      while (i < program.length && program[i] !== '\n') i++;
      out += '\n';
    } else {
      out += c;
    }
  }
  return out;
}

export function awkConstructs(program: string): string[] {
  const text = stripStrings(program);
  return CONSTRUCTS.filter(([, pattern]) => pattern.test(text)).map(([name]) => name);
}

export function awkRunsCommands(constructs: readonly string[]): boolean {
  return constructs.some((name) => name !== 'getline <' && name !== 'print >' && name !== '@include');
}
