/** Tokens of the awk language (POSIX awk with the gawk and mawk extensions people write). */
export type AwkTokenKind =
  | 'number'
  | 'string'
  | 'regex'
  /** A name directly followed by `(`: a call of a user function. */
  | 'call'
  | 'name'
  | 'op'
  | 'newline'
  | 'end';

export interface AwkToken {
  kind: AwkTokenKind;
  text: string;
  start: number;
  end: number;
}

export class AwkSyntaxError extends Error {}

/** Longest first, so that `**=` is not read as `**` then `=`. */
const OPERATORS =
  '**= ** ^= += -= *= /= %= == <= >= != !~ ++ -- && || >> |& { } ( ) [ ] ; , + - * / % ^ ! > < | ? : ~ $ = @'.split(
    ' ',
  );

const isNameStart = (c: string | undefined) => c !== undefined && /[A-Za-z_]/.test(c);
const isNamePart = (c: string | undefined) => c !== undefined && /\w/.test(c);
const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';

/**
 * Reads awk program text one token at a time. Whether `/` starts a regex or is a division depends on the
 * grammar, so the parser asks for a regex (`regexAt`) where an operand is expected.
 */
export class AwkLexer {
  private pos = 0;

  constructor(private readonly text: string) {}

  fail(message: string, at = this.pos): never {
    throw new AwkSyntaxError(`${message} at offset ${at}`);
  }

  /** Skips blanks, comments and backslash-newline continuations (not the newline itself). */
  private skip(): void {
    const t = this.text;
    while (this.pos < t.length) {
      const c = t[this.pos]!;
      if (c === ' ' || c === '\t' || c === '\r' || c === '\f' || c === '\v') this.pos++;
      else if (c === '\\' && t[this.pos + 1] === '\n') this.pos += 2;
      else if (c === '\\' && t[this.pos + 1] === '\r' && t[this.pos + 2] === '\n') this.pos += 3;
      else if (c === '#') {
        while (this.pos < t.length && t[this.pos] !== '\n') this.pos++;
      } else break;
    }
  }

  next(): AwkToken {
    this.skip();
    const t = this.text;
    const start = this.pos;
    const c = t[start];
    const token = (kind: AwkTokenKind, end: number): AwkToken => {
      this.pos = end;
      return { kind, text: t.slice(start, end), start, end };
    };
    if (c === undefined) return token('end', start);
    if (c === '\n') return token('newline', start + 1);
    if (c === '"') return token('string', this.stringEnd(start));
    if (isDigit(c) || (c === '.' && isDigit(t[start + 1]))) return token('number', this.numberEnd(start));
    if (isNameStart(c)) {
      let end = start + 1;
      while (isNamePart(t[end])) end++;
      return token(t[end] === '(' ? 'call' : 'name', end);
    }
    for (const op of OPERATORS) {
      if (t.startsWith(op, start)) return token('op', start + op.length);
    }
    return this.fail(`unexpected character ${JSON.stringify(c)}`);
  }

  /** Re-reads a `/` or `/=` token as a regex literal. */
  regexAt(slash: AwkToken): AwkToken {
    const t = this.text;
    let i = slash.start + 1;
    while (i < t.length) {
      const c = t[i]!;
      if (c === '\n') break;
      if (c === '/') {
        this.pos = i + 1;
        return { kind: 'regex', text: t.slice(slash.start, i + 1), start: slash.start, end: i + 1 };
      }
      if (c === '\\') i += 2;
      else if (c === '[') i = this.bracketEnd(i + 1);
      else i++;
    }
    return this.fail('unterminated regex', slash.start);
  }

  /**
   * The end of a bracket expression whose `[` is before `i`. awks differ on whether `/` may end a regex
   * inside brackets, so a `/` there is refused rather than guessed.
   */
  private bracketEnd(i: number): number {
    const t = this.text;
    if (t[i] === '^') i++;
    if (t[i] === ']') i++;
    while (i < t.length) {
      const c = t[i]!;
      if (c === ']') return i + 1;
      if (c === '\n') break;
      if (c === '/') this.fail('a `/` inside a bracket expression', i);
      if (c === '\\') i += 2;
      else if (c === '[' && (t[i + 1] === ':' || t[i + 1] === '.' || t[i + 1] === '=')) {
        const close = t.indexOf(`${t[i + 1]}]`, i + 2);
        if (close < 0 || t.slice(i, close).includes('\n')) break;
        i = close + 2;
      } else i++;
    }
    return this.fail('unterminated bracket expression', i);
  }

  private stringEnd(start: number): number {
    const t = this.text;
    let i = start + 1;
    while (i < t.length) {
      const c = t[i]!;
      if (c === '"') return i + 1;
      if (c === '\n') break;
      i += c === '\\' ? 2 : 1;
    }
    return this.fail('unterminated string', start);
  }

  private numberEnd(start: number): number {
    const t = this.text;
    let i = start;
    if (t[i] === '0' && (t[i + 1] === 'x' || t[i + 1] === 'X') && /[0-9A-Fa-f]/.test(t[i + 2] ?? '')) {
      i += 2;
      while (/[0-9A-Fa-f]/.test(t[i] ?? '')) i++;
      return i;
    }
    while (isDigit(t[i])) i++;
    if (t[i] === '.') {
      i++;
      while (isDigit(t[i])) i++;
    }
    if (
      (t[i] === 'e' || t[i] === 'E') &&
      (isDigit(t[i + 1]) || (/[+-]/.test(t[i + 1] ?? '') && isDigit(t[i + 2])))
    ) {
      i += 2;
      while (isDigit(t[i])) i++;
    }
    return i;
  }

  /** Where the next token starts and the lexer state, to look ahead and come back. */
  mark(): number {
    return this.pos;
  }

  reset(pos: number): void {
    this.pos = pos;
  }
}
