import type { EmbeddedSafety } from '../embedded.js';

/** What a sed script does besides editing the stream, read with GNU sed's grammar. */
export interface SedScript {
  /** False when the script could not be parsed: treat it as able to do anything. */
  ok: boolean;
  /** Why it could not be parsed. */
  error?: string;
  /**
   * Shell commands: `e COMMAND`, `e` (runs the pattern space) and the `s///e` flag. `command` is set only
   * when it is exactly the text sed runs (no backslash escapes to convert).
   */
  executes: { via: string; command?: string }[];
  /** Files written by `w`, `W` and the `s///w` flag. */
  writes: string[];
  /** Files read by `r` and `R`. */
  reads: string[];
}

class SedError extends Error {}

/** Commands that take no argument and end where the command ends. */
const PLAIN = new Set([...'=dDgGhHnNpPxzF']);
/** Commands that take an optional number (`q 5`, `l 70`). */
const NUMBERED = new Set([...'qQlL']);
const FILE_COMMANDS = new Set([...'rRwW']);
const LABELLED = new Set([...'btT']);

const isBlank = (c: string | undefined) => c === ' ' || c === '\t';
const isSpace = (c: string | undefined) => c !== undefined && ' \t\n\r\v\f'.includes(c);
const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';

/** `v VERSION` fails unless VERSION sorts before GNU sed 4.9 (strverscmp); unsure cases fail. */
function oldVersion(version: string): boolean {
  return version < '4' || /^4(\.[0-9])?$/.test(version);
}

/**
 * Parses a sed script as GNU sed 4.9 compiles it: addresses, `!`, blocks, labels, `a`/`i`/`c` text in both
 * forms, regexes with bracket expressions (a delimiter inside `[...]` does not end the regex), custom
 * delimiters, `s` flags and the file and execute commands. Several `-e` scripts are one script joined by
 * newlines.
 */
export function parseSed(script: string): SedScript {
  const result: SedScript = { ok: true, executes: [], writes: [], reads: [] };
  try {
    new SedParser(script, result).program();
  } catch (e) {
    if (!(e instanceof SedError)) throw e;
    result.ok = false;
    result.error = e.message;
  }
  return result;
}

class SedParser {
  private i = 0;
  private depth = 0;
  private readonly labels = new Set<string>();
  private readonly jumps: string[] = [];

  constructor(
    private readonly s: string,
    private readonly result: SedScript,
  ) {}

  private fail(message: string): never {
    throw new SedError(`${message} at char ${this.i}`);
  }

  private skipBlanks(): void {
    while (isBlank(this.s[this.i])) this.i++;
  }

  private digits(): boolean {
    const start = this.i;
    while (isDigit(this.s[this.i])) this.i++;
    return this.i > start;
  }

  program(): void {
    const s = this.s;
    while (true) {
      while (this.i < s.length && (s[this.i] === ';' || isSpace(s[this.i]))) this.i++;
      if (this.i >= s.length) break;
      this.command();
    }
    if (this.depth > 0) this.fail('unmatched `{`');
    const missing = this.jumps.find((label) => label !== '' && !this.labels.has(label));
    if (missing !== undefined) this.fail(`no label \`${missing}\``);
  }

  private command(): void {
    const s = this.s;
    const first = this.i;
    const addressed = this.address(false);
    const zero = addressed && /^0+(?!\d|\s*~)/.test(s.slice(first));
    let range = false;
    if (addressed) {
      this.skipBlanks();
      if (s[this.i] === ',') {
        this.i++;
        this.skipBlanks();
        range = s[this.i] === '/' || s[this.i] === '\\';
        if (!this.address(true)) this.fail('unexpected `,`');
        if (!range && zero) this.fail('invalid usage of line address 0');
        range = true;
      }
    }
    this.skipBlanks();
    const negated = s[this.i] === '!';
    if (negated) {
      this.i++;
      this.skipBlanks();
      if (s[this.i] === '!') this.fail('multiple `!`s');
    }
    const c = s[this.i++];
    if (c === undefined) this.fail('missing command');
    // GNU sed takes line 0 alone only before `r`: the file is read before the first line.
    if (zero && !range && (negated || c !== 'r')) this.fail('invalid usage of line address 0');
    if (PLAIN.has(c)) {
      this.endOfCommand();
      return;
    }
    if (NUMBERED.has(c)) {
      if (range && (c === 'q' || c === 'Q')) this.fail(`\`${c}\` takes one address`);
      this.skipBlanks();
      this.digits();
      this.endOfCommand();
      return;
    }
    if (c === 'v') {
      if (!oldVersion(this.label())) this.fail('expects a newer version of sed');
      return;
    }
    if (LABELLED.has(c)) {
      this.jumps.push(this.label());
      return;
    }
    if (FILE_COMMANDS.has(c)) {
      (c === 'r' || c === 'R' ? this.result.reads : this.result.writes).push(this.fileName());
      return;
    }
    switch (c) {
      case '{':
        this.depth++;
        return;
      case '}':
        if (addressed) this.fail('`}` takes no address');
        if (--this.depth < 0) this.fail('unexpected `}`');
        this.endOfCommand();
        return;
      case '#':
        if (addressed) this.fail('comments take no address');
        this.toEndOfLine();
        return;
      case ':':
        if (addressed) this.fail('`:` takes no address');
        {
          const label = this.label();
          if (label === '') this.fail('`:` lacks a label');
          this.labels.add(label);
        }
        return;
      case 'a':
      case 'i':
      case 'c':
        this.text(c);
        return;
      case 'e':
        this.execute();
        return;
      case 's':
        this.substitute();
        return;
      case 'y':
        this.transliterate();
        return;
      default:
        this.i--;
        this.fail(`unknown command \`${c}\``);
    }
  }

  /** Reads an address if one starts here; true when it did. */
  private address(second: boolean): boolean {
    const s = this.s;
    const c = s[this.i];
    if (isDigit(c)) {
      this.digits();
      const save = this.i;
      this.skipBlanks();
      if (s[this.i] === '~') {
        this.i++;
        this.skipBlanks();
        this.digits();
      } else {
        this.i = save;
      }
      return true;
    }
    if (c === '$') {
      this.i++;
      return true;
    }
    if (second && (c === '+' || c === '~')) {
      this.i++;
      this.skipBlanks();
      if (!this.digits()) this.fail(`expected a number after \`${c}\``);
      return true;
    }
    if (c === '/' || c === '\\') {
      this.i++;
      const delimiter = c === '\\' ? s[this.i++] : '/';
      if (delimiter === undefined || delimiter === '\n' || delimiter === '\\')
        this.fail('unexpected delimiter');
      this.part(delimiter, true);
      while (true) {
        this.skipBlanks();
        if (s[this.i] !== 'I' && s[this.i] !== 'M') break;
        this.i++;
      }
      return true;
    }
    return false;
  }

  /**
   * Reads up to the closing delimiter: a backslash escapes the next character (a newline too); a newline
   * not escaped ends the script part unterminated. In a regex a bracket expression is read whole.
   */
  private part(delimiter: string, regex: boolean): string {
    const s = this.s;
    const start = this.i;
    while (this.i < s.length) {
      const c = s[this.i++]!;
      if (c === delimiter) return s.slice(start, this.i - 1);
      if (c === '\n') break;
      if (c === '\\') {
        if (this.i >= s.length) break;
        this.i++;
      } else if (regex && c === '[') {
        this.bracket();
      }
    }
    this.fail('unterminated regex or replacement');
  }

  /** Skips a bracket expression after its `[`: `[]...]`, `[^]...]`, `[[:alpha:]]`, `[[.x.]]`, `[[=x=]]`. */
  private bracket(): void {
    const s = this.s;
    if (s[this.i] === '^') this.i++;
    if (s[this.i] === ']') this.i++;
    while (this.i < s.length) {
      const c = s[this.i]!;
      if (c === '\n') break;
      if (c === ']') {
        this.i++;
        return;
      }
      const kind = s[this.i + 1];
      if (c === '[' && (kind === ':' || kind === '.' || kind === '=')) {
        const end = s.indexOf(`${kind}]`, this.i + 2);
        if (end < 0) break;
        this.i = end + 2;
      } else {
        this.i++;
      }
    }
    this.fail('unterminated bracket expression');
  }

  private endOfCommand(): void {
    this.skipBlanks();
    const c = this.s[this.i];
    if (c === undefined) return;
    if (c === ';' || c === '\n' || c === '\r') {
      this.i++;
      return;
    }
    if (c === '#' || c === '}') return;
    this.fail('extra characters after command');
  }

  private label(): string {
    this.skipBlanks();
    const s = this.s;
    const start = this.i;
    while (this.i < s.length && !isSpace(s[this.i]) && !';}#'.includes(s[this.i]!)) this.i++;
    return s.slice(start, this.i);
  }

  private toEndOfLine(): string {
    const s = this.s;
    const end = s.indexOf('\n', this.i);
    const text = s.slice(this.i, end < 0 ? s.length : end);
    this.i = end < 0 ? s.length : end + 1;
    return text;
  }

  private fileName(): string {
    this.skipBlanks();
    const name = this.toEndOfLine();
    if (name === '') this.fail('missing file name');
    return name;
  }

  /** Text up to a newline not escaped by a backslash; returns it raw. */
  private textLine(): string {
    const s = this.s;
    const start = this.i;
    while (this.i < s.length) {
      const c = s[this.i++]!;
      if (c === '\\') this.i++;
      else if (c === '\n') return s.slice(start, this.i - 1);
    }
    this.i = Math.min(this.i, s.length);
    return s.slice(start);
  }

  /** `a text`, `a\text` and `a\` followed by lines of text. */
  private text(command: string): void {
    this.skipBlanks();
    if (this.i >= this.s.length) this.fail(`expected \\ after \`${command}\``);
    if (this.s[this.i] === '\\') {
      this.i++;
      if (this.s[this.i] === '\n') this.i++;
    }
    this.textLine();
  }

  /** `e COMMAND` runs COMMAND; a bare `e` runs the pattern space. */
  private execute(): void {
    this.skipBlanks();
    const c = this.s[this.i];
    if (c === undefined || c === '\n') {
      this.result.executes.push({ via: 'e' });
      return;
    }
    const command = this.textLine();
    this.result.executes.push(command.includes('\\') ? { via: 'e' } : { via: 'e', command });
  }

  private delimiter(command: string): string {
    const delimiter = this.s[this.i++];
    if (delimiter === undefined || delimiter === '\n') this.fail(`unterminated \`${command}\``);
    return delimiter;
  }

  private substitute(): void {
    const delimiter = this.delimiter('s');
    this.part(delimiter, true);
    this.part(delimiter, false);
    const s = this.s;
    const seen = new Set<string>();
    while (true) {
      const c = s[this.i++];
      if (c === undefined || c === '\n' || c === ';') return;
      if (c === '}' || c === '#') {
        this.i--;
        return;
      }
      if (isBlank(c) || c === '\r') continue;
      if (c === 'w') {
        this.result.writes.push(this.fileName());
        return;
      }
      if (isDigit(c)) {
        this.i--;
        const start = this.i;
        this.digits();
        if (Number(s.slice(start, this.i)) === 0) this.fail('number option to `s` may not be zero');
        if (seen.has('N')) this.fail('multiple number options to `s`');
        seen.add('N');
        continue;
      }
      if (!'gpiImMe'.includes(c)) {
        this.i--;
        this.fail('unknown option to `s`');
      }
      if ((c === 'g' || c === 'p') && seen.has(c)) this.fail(`multiple \`${c}\` options to \`s\``);
      seen.add(c);
      if (c === 'e') this.result.executes.push({ via: 's///e' });
    }
  }

  private transliterate(): void {
    const delimiter = this.delimiter('y');
    this.part(delimiter, false);
    this.part(delimiter, false);
    this.endOfCommand();
  }
}

/** The read-only verdict of a sed script: known commands only, and none that runs, reads or writes files. */
export function sedScriptSafety(script: string): EmbeddedSafety {
  const parsed = parseSed(script);
  const runs = parsed.executes.map((exec) => ({
    via: exec.via,
    ...(exec.command ? { command: exec.command } : {}),
  }));
  const safety: EmbeddedSafety = { readOnly: false, reads: parsed.reads, writes: parsed.writes, runs };
  if (!parsed.ok) return { ...safety, reason: `sed script: ${parsed.error}` };
  if (runs.length) return { ...safety, reason: `sed ${runs[0]!.via} runs a command` };
  if (parsed.writes.length) return { ...safety, reason: `sed writes ${parsed.writes[0]}` };
  if (parsed.reads.length) return { ...safety, reason: `sed reads ${parsed.reads[0]}` };
  return { ...safety, readOnly: true };
}
