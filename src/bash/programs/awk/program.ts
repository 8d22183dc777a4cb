import type { EmbeddedSafety } from '../embedded.js';
import { AwkLexer, AwkSyntaxError, type AwkToken } from './lexer.js';

/** Built-in functions that only compute (close and fflush act only on what a redirection opened). */
const PURE_FUNCTIONS = new Set(
  (
    'length substr index split sub gsub match sprintf tolower toupper int sqrt exp log sin cos atan2 rand ' +
    'srand close fflush gensub strftime systime mktime asort asorti patsplit strtonum and or xor lshift ' +
    'rshift compl isarray typeof'
  ).split(' '),
);

/** Built-in functions that assign to one of their arguments. */
const MUTATING = new Set(['split', 'sub', 'gsub', 'match', 'asort', 'asorti', 'patsplit', 'gensub']);

const KEYWORDS = new Set(
  (
    'BEGIN END BEGINFILE ENDFILE function func if else while for do break continue next nextfile exit ' +
    'return delete getline print printf in switch case default'
  ).split(' '),
);

/** Variables that read the environment or reach the interpreter's internals: never read-only. */
const HIDDEN_STATE = new Set(['ENVIRON', 'PROCINFO', 'SYMTAB', 'FUNCTAB']);
/** Variables that choose the input files: changing them makes awk read other files. */
const INPUT_LIST = new Set(['ARGV', 'ARGC']);

/** Variables a command-line assignment must not set. */
export const AWK_SPECIAL_VARIABLES: ReadonlySet<string> = new Set([...HIDDEN_STATE, ...INPUT_LIST]);

/** Output files that are the standard streams, or discard what is written (`/dev/null`). */
const STANDARD_STREAMS = new Set(['"/dev/stdout"', '"/dev/stderr"', '"/dev/null"']);

const ASSIGNMENTS = new Set(['=', '+=', '-=', '*=', '/=', '%=', '^=', '**=']);
const COMPARISONS = new Set(['<', '<=', '!=', '==', '>', '>=']);

/** What an expression is, as far as the checks need: a variable, field or element that can be assigned. */
interface Expr {
  lvalue: boolean;
  /** The variable or array name of a plain name or an element. */
  name?: string;
  /** Set for an array element (`a[1]`) rather than a plain name. */
  element?: boolean;
  /** The literal text of a lone string constant. */
  literal?: string;
}

const VALUE: Expr = { lvalue: false };

/** What an awk program was found to do besides computing. */
export interface AwkFindings {
  /** Constructs outside the allow-list, each named once: `system(`, `print >`, `ENVIRON`... */
  constructs: string[];
  reads: string[];
  writes: string[];
  runs: { via: string; command?: string }[];
}

interface Context {
  /** Inside print's argument list, where `>` and `|` redirect. */
  print: boolean;
  /** Inside the head of a for loop, where `in` is part of the loop. */
  noIn: boolean;
}

const PLAIN: Context = { print: false, noIn: false };

class AwkParser {
  private readonly lexer: AwkLexer;
  private token: AwkToken;
  private readonly defined = new Set<string>();
  private readonly called = new Set<string>();

  constructor(
    text: string,
    private readonly found: AwkFindings,
  ) {
    this.lexer = new AwkLexer(text);
    this.token = this.lexer.next();
  }

  private note(construct: string): void {
    if (!this.found.constructs.includes(construct)) this.found.constructs.push(construct);
  }

  private fail(message: string): never {
    return this.lexer.fail(message, this.token.start);
  }

  private advance(): AwkToken {
    const current = this.token;
    this.token = this.lexer.next();
    return current;
  }

  private is(text: string): boolean {
    return this.token.kind !== 'string' && this.token.kind !== 'regex' && this.token.text === text;
  }

  private accept(text: string): boolean {
    if (!this.is(text)) return false;
    this.advance();
    return true;
  }

  private expect(text: string): void {
    if (!this.accept(text)) this.fail(`expected ${text}`);
  }

  private newlines(): void {
    while (this.token.kind === 'newline') this.advance();
  }

  /** Newlines and semicolons between items or statements. */
  private terminators(): void {
    while (this.token.kind === 'newline' || this.is(';')) this.advance();
  }

  program(): void {
    this.terminators();
    while (this.token.kind !== 'end') {
      this.item();
      this.terminators();
    }
    for (const name of this.called) {
      if (!this.defined.has(name)) this.note(`unknown function ${name}`);
    }
  }

  private item(): void {
    if (this.is('@')) {
      this.directive();
      return;
    }
    if (this.is('function') || this.is('func')) {
      this.functionDefinition();
      return;
    }
    if (this.is('BEGIN') || this.is('END') || this.is('BEGINFILE') || this.is('ENDFILE')) {
      this.advance();
      this.newlines();
      this.block();
      return;
    }
    if (this.is('{')) {
      this.block();
      return;
    }
    this.expression(PLAIN);
    if (this.accept(',')) {
      this.newlines();
      this.expression(PLAIN);
    }
    if (this.is('{')) this.block();
    else if (this.token.kind !== 'newline' && !this.is(';') && this.token.kind !== 'end')
      this.fail('expected {');
  }

  /** `@include`, `@load`, `@namespace`: gawk reads other files or changes how names resolve. */
  private directive(): void {
    this.advance();
    const name = this.token;
    if (name.kind !== 'name' || !['include', 'load', 'namespace'].includes(name.text))
      this.fail('unknown @ directive');
    this.note(`@${name.text}`);
    this.advance();
    if (this.token.kind !== 'string') this.fail('expected a file name');
    if (name.text !== 'namespace') addName(this.found.reads, this.token.text);
    this.advance();
  }

  private functionDefinition(): void {
    this.advance();
    const name = this.token;
    if ((name.kind !== 'name' && name.kind !== 'call') || KEYWORDS.has(name.text))
      this.fail('expected a function name');
    if (PURE_FUNCTIONS.has(name.text) || name.text === 'system')
      this.fail('a built-in function cannot be redefined');
    this.defined.add(name.text);
    this.advance();
    this.expect('(');
    this.newlines();
    if (!this.is(')')) {
      do {
        this.newlines();
        if (this.token.kind !== 'name') this.fail('expected a parameter name');
        this.reserved(this.token.text);
        this.advance();
        this.newlines();
      } while (this.accept(','));
    }
    this.expect(')');
    this.newlines();
    this.block();
  }

  /** A name the program uses as a variable. */
  private reserved(name: string): void {
    if (HIDDEN_STATE.has(name)) this.note(name);
  }

  private block(): void {
    this.expect('{');
    this.statements();
    this.expect('}');
  }

  private statements(): void {
    this.terminators();
    while (!this.is('}')) {
      if (this.token.kind === 'end') this.fail('expected }');
      this.statement();
      this.terminators();
    }
  }

  /** After a simple statement: a terminator, or a `}` or the end that closes it. */
  private endOfStatement(): void {
    if (this.token.kind === 'newline' || this.is(';')) {
      this.advance();
      return;
    }
    if (!this.is('}') && this.token.kind !== 'end') this.fail('expected the end of the statement');
  }

  private statement(): void {
    const t = this.token;
    if (t.kind === 'op') {
      if (t.text === '{') {
        this.block();
        return;
      }
      if (t.text === ';') {
        this.advance();
        return;
      }
    }
    if (t.kind === 'name' || t.kind === 'call') {
      switch (t.text) {
        case 'if':
          this.ifStatement();
          return;
        case 'while':
          this.advance();
          this.condition();
          if (this.accept(';')) return;
          this.newlines();
          this.statement();
          return;
        case 'do':
          this.advance();
          this.newlines();
          this.statement();
          this.terminators();
          this.expect('while');
          this.condition();
          this.endOfStatement();
          return;
        case 'for':
          this.forStatement();
          return;
        case 'switch':
          this.switchStatement();
          return;
        case 'break':
        case 'continue':
        case 'next':
        case 'nextfile':
          this.advance();
          this.endOfStatement();
          return;
        case 'exit':
        case 'return':
          this.advance();
          if (!this.atStatementEnd()) this.expression(PLAIN);
          this.endOfStatement();
          return;
        case 'delete':
          this.deleteStatement();
          return;
        case 'print':
        case 'printf':
          this.printStatement();
          return;
      }
    }
    this.expression(PLAIN);
    this.endOfStatement();
  }

  private atStatementEnd(): boolean {
    return this.token.kind === 'newline' || this.token.kind === 'end' || this.is(';') || this.is('}');
  }

  private condition(): void {
    this.expect('(');
    this.newlines();
    this.expression(PLAIN);
    this.newlines();
    this.expect(')');
  }

  private ifStatement(): void {
    this.advance();
    this.condition();
    this.newlines();
    this.statement();
    const mark = this.lexer.mark();
    const saved = this.token;
    this.terminators();
    if (this.is('else')) {
      this.advance();
      this.newlines();
      this.statement();
    } else {
      this.lexer.reset(mark);
      this.token = saved;
    }
  }

  private forStatement(): void {
    this.advance();
    this.expect('(');
    const mark = this.lexer.mark();
    const saved = this.token;
    if (this.token.kind === 'name') {
      const name = this.advance();
      if (this.accept('in')) {
        this.assigned({ lvalue: true, name: name.text });
        const array = this.token;
        if (array.kind !== 'name') this.fail('expected an array name');
        this.reserved(array.text);
        this.advance();
        this.expect(')');
        this.newlines();
        this.statement();
        return;
      }
      this.lexer.reset(mark);
      this.token = saved;
    }
    if (!this.is(';')) this.expression(PLAIN);
    this.expect(';');
    this.newlines();
    if (!this.is(';')) this.expression(PLAIN);
    this.expect(';');
    this.newlines();
    if (!this.is(')')) this.expression(PLAIN);
    this.expect(')');
    if (this.accept(';')) return;
    this.newlines();
    this.statement();
  }

  private switchStatement(): void {
    this.advance();
    this.condition();
    this.newlines();
    this.expect('{');
    this.terminators();
    while (!this.is('}')) {
      if (this.accept('case')) {
        if (this.token.kind === 'op' && (this.token.text === '/' || this.token.text === '/=')) {
          this.token = this.lexer.regexAt(this.token);
        }
        if (this.accept('-') || this.accept('+')) {
          if (this.token.kind !== 'number') this.fail('expected a number');
        }
        if (!['number', 'string', 'regex'].includes(this.token.kind)) this.fail('expected a case constant');
        this.advance();
      } else {
        this.expect('default');
      }
      this.expect(':');
      this.terminators();
      while (!this.is('case') && !this.is('default') && !this.is('}')) {
        if (this.token.kind === 'end') this.fail('expected }');
        this.statement();
        this.terminators();
      }
    }
    this.advance();
  }

  private deleteStatement(): void {
    this.advance();
    const name = this.token;
    if (name.kind !== 'name') this.fail('expected an array name');
    this.advance();
    if (this.accept('[')) {
      this.expressionList(']');
      this.expect(']');
    }
    this.assigned({ lvalue: true, name: name.text });
    this.endOfStatement();
  }

  /** `print`, `printf`: arguments, with or without parentheses, then an optional redirection. */
  private printStatement(): void {
    const verb = this.advance().text;
    const ctx: Context = { print: true, noIn: false };
    if (!this.atStatementEnd() && !this.isRedirection()) {
      this.expression(ctx);
      while (this.accept(',')) {
        this.newlines();
        this.expression(ctx);
      }
    }
    if (this.isRedirection()) {
      const op = this.advance().text;
      const target = this.concatenation(ctx);
      if (op === '|' || op === '|&') {
        this.note(`print ${op}`);
        this.found.runs.push({ via: `${verb} ${op}`, ...commandText(target) });
      } else if (!(target.literal && STANDARD_STREAMS.has(target.literal))) {
        this.note('print >');
        addName(this.found.writes, target.literal);
      }
    }
    this.endOfStatement();
  }

  private isRedirection(): boolean {
    return this.is('>') || this.is('>>') || this.is('|') || this.is('|&');
  }

  private expressionList(close: string): void {
    this.newlines();
    if (this.is(close)) return;
    this.expression(PLAIN);
    this.newlines();
    while (this.accept(',')) {
      this.newlines();
      this.expression(PLAIN);
      this.newlines();
    }
  }

  /** An expression: the ternary, which holds every lower operator; assignments are parsed at their target. */
  private expression(ctx: Context): Expr {
    const condition = this.or(ctx);
    if (!this.accept('?')) return condition;
    this.newlines();
    this.expression(ctx);
    this.newlines();
    this.expect(':');
    this.newlines();
    this.expression(ctx);
    return VALUE;
  }

  private or(ctx: Context): Expr {
    let left = this.and(ctx);
    while (this.accept('||')) {
      this.newlines();
      this.and(ctx);
      left = VALUE;
    }
    return left;
  }

  private and(ctx: Context): Expr {
    let left = this.membership(ctx);
    while (this.accept('&&')) {
      this.newlines();
      this.membership(ctx);
      left = VALUE;
    }
    return left;
  }

  private membership(ctx: Context): Expr {
    let left = this.matching(ctx);
    while (!ctx.noIn && this.is('in')) {
      this.advance();
      const array = this.token;
      if (array.kind !== 'name') this.fail('expected an array name');
      this.reserved(array.text);
      this.advance();
      left = VALUE;
    }
    return left;
  }

  private matching(ctx: Context): Expr {
    let left = this.comparison(ctx);
    while (this.is('~') || this.is('!~')) {
      this.advance();
      this.comparison(ctx);
      left = VALUE;
    }
    return left;
  }

  private comparison(ctx: Context): Expr {
    let left = this.pipeGetline(ctx);
    while (this.token.kind === 'op' && COMPARISONS.has(this.token.text) && !(ctx.print && this.is('>'))) {
      this.advance();
      this.pipeGetline(ctx);
      left = VALUE;
    }
    return left;
  }

  /** `command | getline [var]` runs the command. */
  private pipeGetline(ctx: Context): Expr {
    let left = this.concatenation(ctx);
    while ((this.is('|') || this.is('|&')) && this.peekGetline()) {
      const op = this.advance().text;
      this.advance();
      this.note(op === '|' ? '| getline' : '|&');
      this.found.runs.push({ via: `${op} getline`, ...commandText(left) });
      this.getlineTarget(ctx);
      left = VALUE;
    }
    return left;
  }

  private peekGetline(): boolean {
    const mark = this.lexer.mark();
    const next = this.lexer.next();
    this.lexer.reset(mark);
    return next.kind === 'name' && next.text === 'getline';
  }

  private concatenation(ctx: Context): Expr {
    let left = this.additive(ctx);
    while (this.startsOperand()) {
      this.additive(ctx);
      left = VALUE;
    }
    return left;
  }

  /** Whether the token can start the next operand of a concatenation. */
  private startsOperand(): boolean {
    const t = this.token;
    if (t.kind === 'number' || t.kind === 'string' || t.kind === 'call') return true;
    if (t.kind === 'name') return !KEYWORDS.has(t.text);
    return t.kind === 'op' && (t.text === '$' || t.text === '(' || t.text === '++' || t.text === '--');
  }

  private additive(ctx: Context): Expr {
    let left = this.multiplicative(ctx);
    while (this.is('+') || this.is('-')) {
      this.advance();
      this.multiplicative(ctx);
      left = VALUE;
    }
    return left;
  }

  private multiplicative(ctx: Context): Expr {
    let left = this.unary(ctx);
    while (this.is('*') || this.is('/') || this.is('%')) {
      this.advance();
      this.unary(ctx);
      left = VALUE;
    }
    return left;
  }

  private unary(ctx: Context): Expr {
    if (this.is('!') || this.is('-') || this.is('+')) {
      this.advance();
      this.unary(ctx);
      return VALUE;
    }
    return this.power(ctx);
  }

  private power(ctx: Context): Expr {
    const base = this.postfix(ctx);
    if (this.is('^') || this.is('**')) {
      this.advance();
      this.powerOperand(ctx);
      return VALUE;
    }
    return base;
  }

  /** The right operand of `^`: right associative, and it may carry a sign (`2^-1`). */
  private powerOperand(ctx: Context): void {
    if (this.is('-') || this.is('+') || this.is('!')) {
      this.advance();
      this.powerOperand(ctx);
      return;
    }
    this.power(ctx);
  }

  private postfix(ctx: Context): Expr {
    if (this.is('++') || this.is('--')) {
      this.advance();
      this.assigned(this.lvalue(ctx));
      return VALUE;
    }
    const operand = this.primary(ctx);
    if (operand.lvalue && (this.is('++') || this.is('--'))) {
      this.advance();
      this.assigned(operand);
      return VALUE;
    }
    if (operand.lvalue && this.token.kind === 'op' && ASSIGNMENTS.has(this.token.text)) {
      this.advance();
      this.newlines();
      this.assigned(operand);
      this.expression(ctx);
      return VALUE;
    }
    return operand;
  }

  /** A variable, element or field written by the program. */
  private assigned(target: Expr): void {
    if (target.name && INPUT_LIST.has(target.name)) this.note(`${target.name} assignment`);
  }

  private lvalue(ctx: Context): Expr {
    const target = this.is('$')
      ? this.primary(ctx)
      : this.token.kind === 'name'
        ? this.primary(ctx)
        : this.fail('expected a variable');
    if (!target.lvalue) this.fail('expected a variable');
    return target;
  }

  private primary(ctx: Context): Expr {
    const t = this.token;
    switch (t.kind) {
      case 'number':
        this.advance();
        return VALUE;
      case 'string':
        this.advance();
        return { lvalue: false, literal: t.text };
      case 'call':
        return this.call();
      case 'name':
        return this.named(ctx);
      case 'op':
        break;
      default:
        return this.fail('expected an expression');
    }
    switch (t.text) {
      case '/':
      case '/=':
        this.token = this.lexer.regexAt(t);
        this.advance();
        return VALUE;
      case '$':
        this.advance();
        if (this.is('++') || this.is('--')) {
          this.advance();
          this.assigned(this.lvalue(ctx));
        } else if (this.is('-') || this.is('+') || this.is('!')) {
          this.advance();
          this.unary(ctx);
        } else {
          this.primary(ctx);
        }
        return { lvalue: true };
      case '(': {
        this.advance();
        this.newlines();
        const inner = this.expression({ print: false, noIn: false });
        this.newlines();
        if (this.is(',')) {
          while (this.accept(',')) {
            this.newlines();
            this.expression(PLAIN);
            this.newlines();
          }
          this.expect(')');
          if (!this.is('in') && !ctx.print) this.fail('a grouping needs `in`');
          return VALUE;
        }
        this.expect(')');
        return inner.literal ? { lvalue: false, literal: inner.literal } : VALUE;
      }
      case '@':
        this.note('@ indirect call');
        this.advance();
        if (this.token.kind !== 'call') this.fail('expected a function call');
        this.advance();
        this.arguments('@');
        return VALUE;
      case '-':
      case '+':
      case '!':
        this.advance();
        this.unary(ctx);
        return VALUE;
    }
    return this.fail(`unexpected ${t.text}`);
  }

  private named(ctx: Context): Expr {
    const t = this.token;
    if (t.text === 'getline') {
      this.advance();
      this.getlineTarget(ctx);
      if (this.is('<')) {
        this.advance();
        const file = this.getlineFile(ctx);
        this.note('getline <');
        addName(this.found.reads, file.literal);
      }
      return VALUE;
    }
    if (PURE_FUNCTIONS.has(t.text) || t.text === 'system') {
      this.advance();
      if (t.text === 'system') {
        this.note('system(');
        this.found.runs.push({ via: 'system(' });
      }
      if (this.is('(')) this.arguments(t.text);
      else if (t.text !== 'length') this.fail(`${t.text} needs arguments`);
      return VALUE;
    }
    if (KEYWORDS.has(t.text)) this.fail(`unexpected ${t.text}`);
    this.reserved(t.text);
    this.advance();
    let element = false;
    while (this.accept('[')) {
      this.expressionList(']');
      this.expect(']');
      element = true;
    }
    return { lvalue: true, name: t.text, ...(element ? { element } : {}) };
  }

  /** The optional variable `getline` reads into. */
  private getlineTarget(ctx: Context): void {
    if (
      this.is('$') ||
      (this.token.kind === 'name' && !KEYWORDS.has(this.token.text) && !PURE_FUNCTIONS.has(this.token.text))
    ) {
      this.assigned(this.lvalue(ctx));
    }
  }

  /** The file after `getline <`: one operand, not a concatenation. */
  private getlineFile(ctx: Context): Expr {
    if (this.is('$')) return this.primary(ctx);
    return this.primary(ctx);
  }

  private call(): Expr {
    const name = this.advance().text;
    if (name === 'system') {
      this.note('system(');
      this.found.runs.push({ via: 'system(', ...this.systemCommand() });
      return VALUE;
    }
    if (!PURE_FUNCTIONS.has(name)) {
      if (KEYWORDS.has(name)) this.fail(`unexpected ${name}`);
      this.called.add(name);
    }
    this.arguments(name);
    return VALUE;
  }

  /** `system("cmd")`: the command text when it is one string constant. */
  private systemCommand(): { command?: string } {
    this.expect('(');
    this.newlines();
    const argument = this.expression(PLAIN);
    this.newlines();
    this.expect(')');
    return argument.literal ? commandText(argument) : {};
  }

  private arguments(callee?: string): void {
    this.expect('(');
    this.newlines();
    if (!this.is(')')) {
      do {
        this.newlines();
        const argument = this.expression(PLAIN);
        if (
          argument.name &&
          INPUT_LIST.has(argument.name) &&
          (!argument.element || !callee || !PURE_FUNCTIONS.has(callee) || MUTATING.has(callee))
        ) {
          this.note(`${argument.name} passed to ${callee ?? 'a function'}`);
        }
        this.newlines();
      } while (this.accept(','));
    }
    this.expect(')');
  }
}

/** A string constant's value, when it has no escapes to convert. */
function unquote(literal: string): string | undefined {
  return literal.includes('\\') ? undefined : literal.slice(1, -1);
}

function commandText(expr: Expr): { command?: string } {
  const command = expr.literal === undefined ? undefined : unquote(expr.literal);
  return command === undefined ? {} : { command };
}

function addName(list: string[], literal: string | undefined): void {
  const name = literal === undefined ? undefined : unquote(literal);
  if (name !== undefined) list.push(name);
}

/** Parses an awk program and lists what it does besides computing; throws AwkSyntaxError when it cannot. */
export function awkFindings(program: string): AwkFindings {
  const found: AwkFindings = { constructs: [], reads: [], writes: [], runs: [] };
  new AwkParser(program, found).program();
  return found;
}

/**
 * The read-only verdict of an awk program: it must parse, and every construct in it must be on the
 * allow-list (patterns, actions, print to standard output, expressions, pure built-in functions and
 * functions the program defines).
 */
export function awkProgramSafety(program: string): EmbeddedSafety {
  try {
    const found = awkFindings(program);
    const first = found.constructs[0];
    return {
      readOnly: first === undefined,
      ...(first === undefined ? {} : { reason: `awk ${first}` }),
      reads: found.reads,
      writes: found.writes,
      runs: found.runs,
    };
  } catch (e) {
    if (!(e instanceof AwkSyntaxError)) throw e;
    return {
      readOnly: false,
      reason: `awk program not understood: ${e.message}`,
      reads: [],
      writes: [],
      runs: [],
    };
  }
}

/**
 * The constructs of an awk program that are not known safe, each named once; `awk program` when the
 * program cannot be parsed.
 */
export function awkConstructs(program: string): string[] {
  try {
    return awkFindings(program).constructs;
  } catch (e) {
    if (!(e instanceof AwkSyntaxError)) throw e;
    return ['awk program'];
  }
}
