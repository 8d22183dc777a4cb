import type { Problem } from './types.js';

/**
 * What bash reads before it splits words, done ahead of the parser so that tree-sitter sees the same text:
 * a backslash-newline is removed everywhere except inside single quotes, `$'...'`, comments and the body of a
 * here-document whose delimiter is quoted; `$"..."` (a string translated through the locale) is a double-quoted
 * string. A carriage return outside quotes is an ordinary character of a word to bash (`\<CR><LF>` is an
 * escaped CR followed by a line end), which the parser reads as a blank or a line continuation: such input is
 * refused, and so is a CR in a here-document, where it decides whether a line ends the body.
 */
export type Reading = { text: string; problem?: undefined } | { text?: undefined; problem: Problem };

type Context =
  | { kind: 'top' }
  | { kind: 'double' }
  | { kind: 'backtick' }
  | { kind: 'paren'; depth: number }
  | { kind: 'arithmetic'; depth: number }
  | { kind: 'brace'; depth: number; inDouble: boolean };

interface PendingHeredoc {
  delimiter: string;
  quoted: boolean;
  stripTabs: boolean;
}

const WORD_END = /[\s;&|<>()]/;
const COMMENT_AFTER = /[\s;&|()]/;
/** Characters that start a two-character token whose second half the reader must see right after them. */
const SPLIT = new Set(['$', '<', '>', '(']);

export function bashReading(source: string): Reading {
  if (!source.includes('\\\n') && !source.includes('\r') && !source.includes('$"')) return { text: source };
  return new Reader(source).read();
}

class Reader {
  private out = '';
  private i = 0;
  private readonly stack: Context[] = [{ kind: 'top' }];
  private heredocs: PendingHeredoc[] = [];

  constructor(private readonly src: string) {}

  read(): Reading {
    try {
      while (this.i < this.src.length) this.step();
    } catch (e) {
      if (e instanceof Refusal) return { problem: { code: 'unsupported', message: e.message } };
      throw e;
    }
    return { text: this.out };
  }

  private get top(): Context {
    return this.stack[this.stack.length - 1]!;
  }

  private step(): void {
    const ctx = this.top;
    const c = this.src[this.i]!;
    const next = this.src[this.i + 1];
    if (c === '\\') {
      if (next === '\n') {
        this.i += 2;
        return;
      }
      if (next === '\r' && ctx.kind !== 'double') this.refuse();
      this.copy(next === undefined ? 1 : 2);
      return;
    }
    if (
      next === '\\' &&
      this.src[this.i + 2] === '\n' &&
      (c === '$' || (ctx.kind !== 'double' && SPLIT.has(c)))
    ) {
      throw new Refusal(`a line continuation right after ${c}`);
    }
    if (ctx.kind === 'double') {
      this.inDouble(c, next);
      return;
    }
    if (c === '\r') this.refuse();
    if (c === "'") {
      if (ctx.kind === 'brace' && ctx.inDouble) {
        throw new Refusal(
          'a quote inside a parameter expansion inside double quotes next to a line continuation',
        );
      }
      this.single();
      return;
    }
    if (c === '"') {
      this.copy(1);
      this.stack.push({ kind: 'double' });
      return;
    }
    if (c === '$') {
      this.dollar(next, false);
      return;
    }
    if (c === '`') {
      this.copy(1);
      if (ctx.kind === 'backtick') this.stack.pop();
      else this.stack.push({ kind: 'backtick' });
      return;
    }
    if (ctx.kind === 'brace') {
      if (c === '{') ctx.depth++;
      else if (c === '}' && --ctx.depth === 0) this.stack.pop();
      this.copy(1);
      return;
    }
    if (ctx.kind === 'paren' || ctx.kind === 'arithmetic') {
      if (c === '(') ctx.depth++;
      else if (c === ')' && --ctx.depth === 0) this.stack.pop();
      if (ctx.kind === 'arithmetic') {
        this.copy(1);
        return;
      }
    }
    if (c === '(' && next === '(') {
      this.copy(2);
      this.stack.push({ kind: 'arithmetic', depth: 2 });
      return;
    }
    if ((c === '<' || c === '>') && next === '(') {
      this.copy(2);
      this.stack.push({ kind: 'paren', depth: 1 });
      return;
    }
    if (c === '#' && COMMENT_AFTER.test(this.out[this.out.length - 1] ?? ' ')) {
      this.comment();
      return;
    }
    if (c === '<' && next === '<') {
      if (this.src[this.i + 2] === '<') this.copy(3);
      else this.heredocOperator();
      return;
    }
    if (ctx.kind === 'paren' && /^case\s/.test(this.src.slice(this.i, this.i + 5))) {
      if (COMMENT_AFTER.test(this.out[this.out.length - 1] ?? ' ')) {
        throw new Refusal('a case statement inside $(...) next to a line continuation');
      }
    }
    this.copy(1);
    if (c === '\n' && this.heredocs.length > 0) this.heredocBodies();
  }

  private inDouble(c: string, next: string | undefined): void {
    if (c === '"') {
      this.copy(1);
      this.stack.pop();
    } else if (c === '$') {
      this.dollar(next, true);
    } else if (c === '`') {
      this.copy(1);
      this.stack.push({ kind: 'backtick' });
    } else {
      this.copy(1);
    }
  }

  private dollar(next: string | undefined, inDouble: boolean): void {
    if (next === '(' && this.src[this.i + 2] === '(') {
      this.copy(3);
      this.stack.push({ kind: 'arithmetic', depth: 2 });
    } else if (next === '(') {
      this.copy(2);
      this.stack.push({ kind: 'paren', depth: 1 });
    } else if (next === '{') {
      this.copy(2);
      this.stack.push({ kind: 'brace', depth: 1, inDouble });
    } else if (next === "'" && !inDouble) {
      this.ansiC();
    } else if (next === '"' && !inDouble) {
      this.i++;
    } else if (next === '$') {
      this.copy(2);
    } else {
      this.copy(1);
    }
  }

  private copy(n: number): void {
    this.out += this.src.slice(this.i, this.i + n);
    this.i += n;
  }

  private refuse(): never {
    throw new Refusal('a carriage return outside quotes: bash reads it as part of a word, not as a line end');
  }

  private single(): void {
    const close = this.src.indexOf("'", this.i + 1);
    const end = close < 0 ? this.src.length : close + 1;
    this.copy(end - this.i);
  }

  private ansiC(): void {
    let j = this.i + 2;
    while (j < this.src.length && this.src[j] !== "'") j += this.src[j] === '\\' ? 2 : 1;
    this.copy(Math.min(j + 1, this.src.length) - this.i);
  }

  private comment(): void {
    const nl = this.src.indexOf('\n', this.i);
    const end = nl < 0 ? this.src.length : nl;
    if (this.src.slice(this.i, end).includes('\r')) this.refuse();
    this.copy(end - this.i);
  }

  /** `<<` or `<<-` and its delimiter word, whose body starts after the next line end. */
  private heredocOperator(): void {
    this.copy(2);
    let stripTabs = false;
    if (this.src[this.i] === '-') {
      stripTabs = true;
      this.copy(1);
    }
    while (this.src[this.i] === ' ' || this.src[this.i] === '\t') this.copy(1);
    let delimiter = '';
    let quoted = false;
    while (this.i < this.src.length) {
      const c = this.src[this.i]!;
      if (c === '\\') {
        if (this.src[this.i + 1] === '\n') {
          this.i += 2;
          continue;
        }
        quoted = true;
        delimiter += this.src[this.i + 1] ?? '';
        this.copy(2);
      } else if (c === "'" || c === '"') {
        quoted = true;
        const close = this.src.indexOf(c, this.i + 1);
        const end = close < 0 ? this.src.length : close + 1;
        delimiter += this.src.slice(this.i + 1, close < 0 ? end : close);
        this.copy(end - this.i);
      } else if (c === '\r') {
        this.refuse();
      } else if (WORD_END.test(c) || c === '$' || c === '`') {
        if (c === '$' || c === '`') throw new Refusal('a here-document delimiter with an expansion');
        break;
      } else {
        delimiter += c;
        this.copy(1);
      }
    }
    this.heredocs.push({ delimiter, quoted, stripTabs });
  }

  /** The bodies of the pending here-documents, line by line, up to each delimiter line. */
  private heredocBodies(): void {
    for (const doc of this.heredocs) {
      for (;;) {
        if (this.i >= this.src.length) {
          throw new Refusal('a here-document runs to the end of the input without its delimiter line');
        }
        const line = this.bodyLine(doc.quoted);
        if (line.includes('\r')) {
          throw new Refusal('a carriage return in a here-document: it decides where the body ends');
        }
        if (!doc.quoted && line.includes('$"')) {
          throw new Refusal(
            '$"..." in a here-document: inside a substitution there it is a translated string',
          );
        }
        const compared = doc.stripTabs ? line.replace(/^\t+/, '') : line;
        if (compared === doc.delimiter) break;
      }
    }
    this.heredocs = [];
  }

  /** Copies one body line with its line end; returns the line as bash compares it to the delimiter. */
  private bodyLine(quoted: boolean): string {
    let line = '';
    while (this.i < this.src.length) {
      const c = this.src[this.i]!;
      if (c === '\n') {
        this.copy(1);
        return line;
      }
      if (c === '\\' && !quoted) {
        const next = this.src[this.i + 1];
        if (next === '\n') {
          this.i += 2;
          continue;
        }
        line += c + (next ?? '');
        this.copy(next === undefined ? 1 : 2);
        continue;
      }
      line += c;
      this.copy(1);
    }
    return line;
  }
}

class Refusal extends Error {}
