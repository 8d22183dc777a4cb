import { MUST_VISIT } from './audit.js';
import { boundWord, loopBinding, MAX_UNROLLED } from './loop-binding.js';
import type { StateChange } from './shell-state.js';
import type { SyntaxNode as Node } from './syntax.js';
import type {
  Assignment,
  ContextFlag,
  Heredoc,
  NameInfo,
  Problem,
  ProblemCode,
  Redirect,
  RedirectOp,
  SimpleCommand,
  Span,
  Word,
} from './types.js';
import { DYN } from './types.js';
import { harmlessVariable } from './variables.js';
import { evalWord, makeWord, spanOf, type WordHooks } from './words.js';

interface Ctx {
  flags: ContextFlag[];
  fn?: string;
  /** Inside the body or condition of a loop that may never end (`while`, `until`, `for ((…))`). */
  endless?: true;
  depth: number;
  /** Loop variables bound to one of their loop's words (`loopBinding`), and how many times the body is walked. */
  bound?: ReadonlyMap<string, Word>;
  unrolled?: number;
}

export const MAX_DEPTH = 64;

const ARITHMETIC_TESTS = new Set(['-eq', '-ne', '-lt', '-le', '-gt', '-ge']);

/** Arithmetic commands `(( ... ))` reach the walker as expressions inside a compound statement. */
const EXPRESSIONS = new Set([
  'binary_expression',
  'unary_expression',
  'ternary_expression',
  'postfix_expression',
  'parenthesized_expression',
  'number',
  'variable_name',
  'command_substitution',
  'expansion',
  'simple_expansion',
  'subscript',
  'string',
  'raw_string',
]);

/** Turns a tree-sitter-bash tree into simple commands, each with argv, assignments, redirects and context. */
export class Walker {
  readonly commands: SimpleCommand[] = [];
  readonly compoundRedirects: Redirect[] = [];
  readonly listings: Word[] = [];
  readonly functions: string[] = [];
  readonly problems: Problem[] = [];
  /** Variables set by constructs rather than commands (`for NAME in`). */
  readonly changes: StateChange[] = [];
  private readonly visited = new Set<number>();
  /**
   * tree-sitter hangs a redirection written after the last command of a list or pipeline on the whole list
   * (`a && b 2>/dev/null`); bash gives it to that last simple command. Keyed by the command's node id.
   */
  private readonly pending = new Map<number, Node[]>();

  constructor(
    private readonly source: string,
    private readonly newId: () => number,
  ) {}

  /** `mustVisit`: every command-bearing node of the tree (from the audit pass), checked after the walk. */
  walkProgram(root: Node, mustVisit: readonly Node[]): void {
    this.statements(root, { flags: [], depth: 0 });
    this.checkVisited(mustVisit);
  }

  private problem(code: ProblemCode, message: string, span?: Span): void {
    this.problems.push(span ? { code, message, span } : { code, message });
  }

  private with(ctx: Ctx, flag: ContextFlag): Ctx {
    return ctx.flags.includes(flag) ? ctx : { ...ctx, flags: [...ctx.flags, flag] };
  }

  private background(ctx: Ctx): Ctx {
    const job = this.with(ctx, 'background');
    return ctx.endless ? this.with(job, 'runaway') : job;
  }

  private deeper(ctx: Ctx, node: Node): Ctx | undefined {
    if (ctx.depth + 1 > MAX_DEPTH) {
      this.problem('too-deep', `nesting deeper than ${MAX_DEPTH} levels`, spanOf(node));
      return undefined;
    }
    return { ...ctx, depth: ctx.depth + 1 };
  }

  /** Children of a container: statements, with `&` marking the one before it as backgrounded. */
  private statements(node: Node, ctx: Ctx): void {
    const children = node.children.filter((c): c is Node => c !== null);
    for (let i = 0; i < children.length; i++) {
      const child = children[i]!;
      if (!child.isNamed || child.type === 'comment') continue;
      const next = children[i + 1];
      this.statement(child, next?.type === '&' ? this.background(ctx) : ctx);
    }
  }

  private statement(node: Node, ctx: Ctx): void {
    switch (node.type) {
      case 'command':
        this.command(node, ctx, this.pending.get(node.id) ?? []);
        return;
      case 'declaration_command':
      case 'unset_command':
        this.declaration(node, ctx, this.pending.get(node.id) ?? []);
        return;
      case 'test_command':
        this.test(node, ctx, this.pending.get(node.id) ?? []);
        return;
      case 'variable_assignment':
        this.bareAssignments([node], ctx, node);
        return;
      case 'variable_assignments':
        this.bareAssignments(
          node.namedChildren.filter((c): c is Node => c !== null),
          ctx,
          node,
        );
        return;
      case 'redirected_statement':
        this.redirected(node, ctx);
        return;
      case 'list':
        this.statements(node, this.with(ctx, 'list'));
        return;
      case 'pipeline':
        this.statements(node, this.with(ctx, 'pipeline'));
        return;
      case 'program':
      case 'do_group':
      case 'else_clause':
        this.statements(node, ctx);
        return;
      case 'subshell':
      case 'compound_statement': {
        const inner = this.deeper(ctx, node);
        if (inner) this.statements(node, this.with(inner, node.type === 'subshell' ? 'subshell' : 'group'));
        return;
      }
      case 'negated_command':
        this.statements(node, this.with(ctx, 'negated'));
        return;
      case 'if_statement':
      case 'elif_clause':
        this.conditional(node, ctx);
        return;
      case 'while_statement':
        this.loop(node, ctx);
        return;
      case 'for_statement':
        this.forLoop(node, ctx);
        return;
      case 'c_style_for_statement':
        this.cFor(node, ctx);
        return;
      case 'case_statement':
        this.caseStatement(node, ctx);
        return;
      case 'function_definition':
        this.functionDefinition(node, ctx);
        return;
      case 'heredoc_body':
        this.heredocBody(node, ctx, false);
        return;
      case 'comment':
        return;
      default:
        if (EXPRESSIONS.has(node.type)) {
          if (node.type === 'command_substitution')
            this.substitution(node, this.with(ctx, 'arithmetic'), 'command');
          else this.scan(node, this.with(ctx, 'arithmetic'));
          return;
        }
        this.problem('unsupported', `statement ${node.type} is not understood`, spanOf(node));
    }
  }

  private readonly hookCache = new WeakMap<Ctx, WordHooks>();

  private hooks(ctx: Ctx): WordHooks {
    let hooks = this.hookCache.get(ctx);
    if (!hooks) {
      hooks = {
        nested: (node, kind) => this.substitution(node, ctx, kind),
        scan: (node) => this.scan(node, ctx),
        problem: (code, message, span) => this.problem(code, message, span),
      };
      this.hookCache.set(ctx, hooks);
    }
    return hooks;
  }

  private word(node: Node, ctx: Ctx): Word {
    const bound = ctx.bound && boundWord(node, ctx.bound);
    if (bound) {
      this.visited.add(node.id);
      return bound;
    }
    return evalWord(node, this.hooks(ctx));
  }

  private substitution(node: Node, ctx: Ctx, kind: 'command' | 'process'): void {
    this.visited.add(node.id);
    const inner = this.deeper(ctx, node);
    if (!inner) return;
    const flagged = this.with(inner, kind === 'command' ? 'command-substitution' : 'process-substitution');
    for (const child of node.children) {
      if (!child?.isNamed) continue;
      if (
        child.type === 'file_redirect' ||
        child.type === 'heredoc_redirect' ||
        child.type === 'herestring_redirect'
      ) {
        this.compoundRedirects.push(...this.redirect(child, flagged, []));
      } else if (child.type !== 'comment') {
        this.statement(child, flagged);
      }
    }
  }

  /** Finds substitutions anywhere inside an expression (arithmetic, subscripts, [[ ]], ${...}). */
  private scan(node: Node, ctx: Ctx): void {
    for (const child of node.namedChildren) {
      if (!child) continue;
      if (child.type === 'command_substitution') this.substitution(child, ctx, 'command');
      else if (child.type === 'process_substitution') this.substitution(child, ctx, 'process');
      else this.scan(child, ctx);
    }
  }

  private newCommand(node: Node, ctx: Ctx): SimpleCommand {
    this.visited.add(node.id);
    const cmd: SimpleCommand = {
      id: this.newId(),
      argv: [],
      assignments: [],
      redirects: [],
      span: spanOf(node),
      context: [...ctx.flags],
      executes: [],
      effects: [],
      effectsKnown: true,
    };
    if (ctx.fn !== undefined) cmd.inFunction = ctx.fn;
    this.commands.push(cmd);
    return cmd;
  }

  private command(node: Node, ctx: Ctx, extraRedirects: Node[]): void {
    const cmd = this.newCommand(node, ctx);
    const trailing: Node[] = [];
    for (let i = 0; i < node.childCount; i++) {
      const child = node.child(i);
      if (!child) continue;
      const field = node.fieldNameForChild(i);
      if (child.type === 'variable_assignment') cmd.assignments.push(this.assignment(child, ctx));
      else if (field === 'name') cmd.argv.push(this.word(child.namedChild(0) ?? child, ctx));
      else if (field === 'argument') {
        const test = testSyntax(child);
        if (test) {
          this.problem('misparse-word', '`[[` after a command name is ordinary words to bash', spanOf(test));
        }
        this.pushArgument(cmd, this.word(child, ctx));
      } else if (field === 'redirect') cmd.redirects.push(...this.redirect(child, ctx, trailing, cmd));
      else if (child.isNamed && child.type !== 'comment') {
        this.problem('unsupported', `unexpected ${child.type} in a command`, spanOf(child));
      }
    }
    for (const r of extraRedirects) cmd.redirects.push(...this.redirect(r, ctx, trailing, cmd));
    this.keywordPrefix(cmd);
    this.finishName(cmd);
    for (const t of trailing) this.statement(t, ctx);
  }

  /**
   * tree-sitter sometimes splits one bash word in two: at a line continuation (`r\\<newline>m`), or into
   * touching nodes (`"r"\\m`, `$D/$O`). bash reads them as one word.
   */
  private pushArgument(cmd: SimpleCommand, word: Word): void {
    const prev = cmd.argv[cmd.argv.length - 1];
    if (prev && glued(this.source, prev, word)) {
      cmd.argv[cmd.argv.length - 1] = joinWords(this.source, prev, word);
      return;
    }
    cmd.argv.push(word);
  }

  /** `time` and `coproc` reach the grammar as command names; bash treats them as keywords. */
  private keywordPrefix(cmd: SimpleCommand): void {
    for (;;) {
      const first = cmd.argv[0];
      if (!first || first.text !== first.value) return;
      if (first.value === 'time' && !afterPipe(this.source, cmd.span.start)) {
        cmd.argv.shift();
        if (cmd.argv[0]?.text === '-p') cmd.argv.shift();
        if (!cmd.context.includes('timed')) cmd.context.push('timed');
      } else if (first.value === 'coproc') {
        const next = cmd.argv[1];
        if (next && (next.text === '{' || next.text === '(' || next.text.startsWith('('))) {
          this.problem('misparse-coproc', 'coproc with a compound command is not parsed', cmd.span);
        }
        cmd.argv.shift();
        if (!cmd.context.includes('coproc')) cmd.context.push('coproc');
      } else {
        return;
      }
    }
  }

  private finishName(cmd: SimpleCommand): void {
    const first = cmd.argv[0];
    if (first) cmd.name = nameInfo(first);
  }

  private declaration(node: Node, ctx: Ctx, extraRedirects: Node[]): void {
    const cmd = this.newCommand(node, ctx);
    const trailing: Node[] = [];
    for (let i = 0; i < node.childCount; i++) {
      const child = node.child(i);
      if (!child) continue;
      const field = node.fieldNameForChild(i);
      if (field === 'redirect') cmd.redirects.push(...this.redirect(child, ctx, trailing, cmd));
      else if (!child.isNamed) {
        if (i === 0) cmd.argv.push(makeWord(child.text, child.text, [], spanOf(child)));
      } else if (child.type === 'variable_assignment') {
        const a = this.assignment(child, ctx);
        const value = `${a.name}${a.append ? '+=' : '='}${a.value.value}`;
        cmd.argv.push(makeWord(child.text, value, a.value.dynamic, a.span));
      } else if (child.type !== 'comment') {
        cmd.argv.push(this.word(child, ctx));
      }
    }
    for (const r of extraRedirects) cmd.redirects.push(...this.redirect(r, ctx, trailing, cmd));
    this.finishName(cmd);
    for (const t of trailing) this.statement(t, ctx);
  }

  private test(node: Node, ctx: Ctx, extraRedirects: Node[]): void {
    this.visited.add(node.id);
    const inner = this.with(ctx, 'test');
    if (node.text.startsWith('[[')) {
      this.scan(node, inner);
      this.evaluatedOperands(node, inner);
      for (const r of extraRedirects) this.compoundRedirects.push(...this.redirect(r, ctx, []));
      return;
    }
    const cmd = this.newCommand(node, ctx);
    const flatten = (n: Node): void => {
      for (const child of n.children) {
        if (!child) continue;
        if (
          child.type === 'binary_expression' ||
          child.type === 'unary_expression' ||
          child.type === 'parenthesized_expression'
        ) {
          flatten(child);
        } else if (!child.isNamed || child.type === 'test_operator') {
          cmd.argv.push(makeWord(child.text, child.text, [], spanOf(child)));
        } else {
          cmd.argv.push(this.word(child, inner));
        }
      }
    };
    flatten(node);
    for (const r of extraRedirects) cmd.redirects.push(...this.redirect(r, ctx, [], cmd));
    this.finishName(cmd);
  }

  /**
   * `[[ -v NAME ]]` evaluates NAME's subscript and `[[ A -eq B ]]` evaluates both sides as arithmetic: text
   * that reaches them quoted is code bash runs (`[[ -v 'a[$(cmd)]' ]]`).
   */
  private evaluatedOperands(node: Node, ctx: Ctx): void {
    const stack: Node[] = [node];
    while (stack.length) {
      const n = stack.pop()!;
      for (const c of n.namedChildren) if (c) stack.push(c);
      const op = n.children.find((c) => c?.type === 'test_operator');
      if (!op) continue;
      const unary = n.type === 'unary_expression' && (op.text === '-v' || op.text === '-R');
      const compare = n.type === 'binary_expression' && ARITHMETIC_TESTS.has(op.text);
      if (!unary && !compare) continue;
      for (const c of n.namedChildren) {
        if (!c || c.type === 'test_operator' || c.type.endsWith('_expression')) continue;
        const word = this.word(c, ctx);
        const evaluated = unary ? /\[(?!(?:\d+|[@*])\])/.test(word.value) : /[$`[]/.test(word.value);
        if (word.dynamic.every((k) => k === 'glob') && evaluated) {
          this.problem(
            'unsupported',
            `[[ ${op.text} ]] evaluates ${word.text}, which may run commands`,
            spanOf(c),
          );
        }
      }
    }
  }

  private bareAssignments(nodes: Node[], ctx: Ctx, at: Node): void {
    const cmd = this.newCommand(at, ctx);
    for (const n of nodes) cmd.assignments.push(this.assignment(n, ctx));
  }

  private assignment(node: Node, ctx: Ctx): Assignment {
    const nameNode = node.childForFieldName('name');
    const valueNode = node.childForFieldName('value');
    if (nameNode?.type === 'subscript') this.scan(nameNode, ctx);
    const inner = this.with(ctx, 'assignment');
    const name =
      nameNode?.type === 'subscript'
        ? (nameNode.childForFieldName('name')?.text ?? '')
        : (nameNode?.text ?? '');
    const append = node.children.some((c) => c?.type === '+=');
    let value: Word;
    if (!valueNode) {
      value = makeWord('', '', [], { start: node.endIndex, end: node.endIndex });
    } else {
      value = this.word(valueNode, inner);
    }
    return { name, append, value, array: valueNode?.type === 'array', span: spanOf(node) };
  }

  private redirected(node: Node, ctx: Ctx): void {
    const body = node.childForFieldName('body');
    const redirects: Node[] = [];
    for (let i = 0; i < node.childCount; i++) {
      const child = node.child(i);
      if (!child || child === body || child.id === body?.id) continue;
      if (node.fieldNameForChild(i) === 'redirect' || child.type.endsWith('_redirect')) redirects.push(child);
      else if (child.isNamed && child.type !== 'comment') {
        this.problem('unsupported', `unexpected ${child.type} in a redirected statement`, spanOf(child));
      }
    }
    if (!body) {
      const trailing: Node[] = [];
      for (const r of redirects) this.compoundRedirects.push(...this.redirect(r, ctx, trailing));
      for (const t of trailing) this.statement(t, ctx);
      return;
    }
    switch (body.type) {
      case 'command':
        this.command(body, ctx, redirects);
        return;
      case 'declaration_command':
      case 'unset_command':
        this.declaration(body, ctx, redirects);
        return;
      case 'test_command':
        this.test(body, ctx, redirects);
        return;
      default: {
        const last = lastSimple(body);
        if (last) {
          this.pending.set(last.id, redirects);
          this.statement(body, ctx);
          return;
        }
        const trailing: Node[] = [];
        for (const r of redirects) this.compoundRedirects.push(...this.redirect(r, ctx, trailing));
        this.statement(body, ctx);
        for (const t of trailing) this.statement(t, ctx);
      }
    }
  }

  /**
   * One redirect node to Redirect values. Heredoc redirects may carry statements that follow the command
   * (`cat <<EOF | sh`, `cat <<EOF && rm x`): they are pushed to `trailing`, and arguments after the heredoc
   * operator belong to the command.
   */
  private redirect(node: Node, ctx: Ctx, trailing: Node[], cmd?: SimpleCommand): Redirect[] {
    const inTarget = this.with(ctx, 'redirect-target');
    if (node.type === 'file_redirect') {
      let fd: string | undefined;
      let op = '';
      const targets: Word[] = [];
      for (let i = 0; i < node.childCount; i++) {
        const child = node.child(i);
        if (!child) continue;
        const field = node.fieldNameForChild(i);
        if (field === 'descriptor') {
          if (/^(\d+|\{[A-Za-z_]\w*\})$/.test(child.text)) fd = child.text;
          else if (cmd) this.pushArgument(cmd, makeWord(child.text, child.text, [], spanOf(child)));
          else this.problem('misparse-word', `${child.text} is not a file descriptor`, spanOf(child));
        } else if (field === 'destination') {
          const word = this.word(child, inTarget);
          const prev = targets[targets.length - 1];
          if (prev && glued(this.source, prev, word))
            targets[targets.length - 1] = joinWords(this.source, prev, word);
          else targets.push(word);
        } else if (!child.isNamed) op = child.text;
      }
      let target = targets[0];
      if (targets.length > 1) {
        if (cmd) for (const extra of targets.slice(1)) this.pushArgument(cmd, extra);
        else this.problem('misparse-redirect', 'a redirection swallowed the words after it', spanOf(node));
      }
      if (op === '>&-' || op === '<&-') {
        target = makeWord('-', '-', [], { start: node.endIndex - 1, end: node.endIndex });
        op = op.slice(0, 2);
      }
      if (!target) {
        this.problem('unsupported', `redirection ${node.text} has no target`, spanOf(node));
        target = makeWord('', '', ['parameter'], spanOf(node));
      }
      return [makeRedirect(fd, op as RedirectOp, target, spanOf(node))];
    }
    if (node.type === 'herestring_redirect') {
      const expr = node.namedChildren.find((c) => c && c.type !== 'file_descriptor');
      const fd = node.namedChildren.find((c) => c?.type === 'file_descriptor')?.text;
      const target = expr
        ? this.word(expr, this.with(ctx, 'herestring'))
        : makeWord('', '', [], { start: node.endIndex, end: node.endIndex });
      return [makeRedirect(fd, '<<<', target, spanOf(node))];
    }
    if (node.type === 'heredoc_redirect') return this.heredoc(node, ctx, trailing, cmd);
    this.problem('unsupported', `redirection ${node.type} is not understood`, spanOf(node));
    return [];
  }

  private heredoc(node: Node, ctx: Ctx, trailing: Node[], cmd?: SimpleCommand): Redirect[] {
    const out: Redirect[] = [];
    let fd: string | undefined;
    let op: RedirectOp = '<<';
    let start: Node | undefined;
    let body: Node | undefined;
    for (let i = 0; i < node.childCount; i++) {
      const child = node.child(i);
      if (!child) continue;
      const field = node.fieldNameForChild(i);
      if (field === 'descriptor') fd = child.text;
      else if (child.type === '<<' || child.type === '<<-') op = child.type;
      else if (child.type === 'heredoc_start') start = child;
      else if (child.type === 'heredoc_body') body = child;
      else if (child.type === 'heredoc_end' || child.type === 'comment') continue;
      else if (field === 'argument') {
        if (cmd) cmd.argv.push(this.word(child, ctx));
        else this.problem('unsupported', 'heredoc arguments without a command', spanOf(child));
      } else if (field === 'redirect') {
        out.push(...this.redirect(child, ctx, trailing, cmd));
      } else if (field === 'right' || child.type === 'pipeline' || child.type === 'list') {
        trailing.push(child);
      } else if (field === 'operator' || !child.isNamed) {
        if (child.type === '|' || child.type === '|&') cmd?.context.push('pipeline');
      } else {
        this.problem('unsupported', `unexpected ${child.type} in a heredoc`, spanOf(child));
      }
    }
    const delimText = start?.text ?? '';
    const quoted = /['"\\]/.test(delimText);
    const delimiter = quoted ? delimText.replace(/['"\\]/g, '') : delimText;
    const heredoc: Heredoc = {
      delimiter,
      quoted,
      stripTabs: op === '<<-',
      body: body?.text ?? '',
      span: body ? spanOf(body) : spanOf(node),
    };
    if (body && !quoted) this.heredocBody(body, ctx, true);
    else if (body) this.visitedBelow(body);
    const target = makeWord(delimText, delimiter, [], start ? spanOf(start) : spanOf(node));
    const r = makeRedirect(fd, op, target, spanOf(node));
    r.heredoc = heredoc;
    return [r, ...out];
  }

  private heredocBody(node: Node, ctx: Ctx, expands: boolean): void {
    if (!expands) return;
    this.scan(node, this.with(ctx, 'heredoc'));
  }

  /** Quoted heredoc bodies are data: nothing in them runs. */
  private visitedBelow(node: Node): void {
    const stack = [node];
    while (stack.length) {
      const n = stack.pop()!;
      if (MUST_VISIT.has(n.type)) this.visited.add(n.id);
      for (const c of n.children) if (c) stack.push(c);
    }
  }

  private conditional(node: Node, ctx: Ctx): void {
    const cond = this.with(ctx, 'condition');
    for (let i = 0; i < node.childCount; i++) {
      const child = node.child(i);
      if (!child?.isNamed || child.type === 'comment') continue;
      this.statement(child, node.fieldNameForChild(i) === 'condition' ? cond : ctx);
    }
  }

  private loop(node: Node, ctx: Ctx): void {
    const inLoop: Ctx = { ...this.with(ctx, 'loop'), endless: true };
    const cond = this.with(inLoop, 'condition');
    for (let i = 0; i < node.childCount; i++) {
      const child = node.child(i);
      if (!child?.isNamed || child.type === 'comment') continue;
      this.statement(child, node.fieldNameForChild(i) === 'condition' ? cond : inLoop);
    }
  }

  private forLoop(node: Node, ctx: Ctx): void {
    const inLoop = this.with(ctx, 'loop');
    const words: Word[] = [];
    const body: Node[] = [];
    let variable: Node | undefined;
    for (let i = 0; i < node.childCount; i++) {
      const child = node.child(i);
      if (!child?.isNamed || child.type === 'comment') continue;
      const field = node.fieldNameForChild(i);
      if (field === 'variable') {
        variable = child;
        if (!harmlessVariable(child.text)) {
          this.changes.push({
            what: child.text,
            via: node.text.startsWith('select') ? 'select' : 'for',
            span: spanOf(child),
          });
        }
        continue;
      }
      if (field === 'value') {
        const word = this.word(child, ctx);
        words.push(word);
        if (word.dynamic.includes('glob')) this.listings.push(word);
      } else body.push(child);
    }
    const unrolled = (ctx.unrolled ?? 1) * words.length;
    const binding =
      variable && body.length === 1 && !node.text.startsWith('select') && unrolled <= MAX_UNROLLED
        ? loopBinding(variable, words, body[0]!, this.functions)
        : undefined;
    if (!binding) {
      for (const child of body) this.statement(child, inLoop);
      return;
    }
    for (const word of binding.words) {
      const bound = new Map(ctx.bound);
      bound.set(binding.name, word);
      this.statement(body[0]!, { ...inLoop, bound, unrolled });
    }
  }

  private cFor(node: Node, ctx: Ctx): void {
    const inLoop: Ctx = { ...this.with(ctx, 'loop'), endless: true };
    for (let i = 0; i < node.childCount; i++) {
      const child = node.child(i);
      if (!child?.isNamed || child.type === 'comment') continue;
      if (
        node.fieldNameForChild(i) === 'body' ||
        child.type === 'do_group' ||
        child.type === 'compound_statement'
      ) {
        this.statement(child, inLoop);
      } else if (child.type === 'command_substitution') {
        this.substitution(child, this.with(ctx, 'arithmetic'), 'command');
      } else {
        this.scan(child, this.with(ctx, 'arithmetic'));
      }
    }
  }

  private caseStatement(node: Node, ctx: Ctx): void {
    const inCase = this.with(ctx, 'case');
    for (let i = 0; i < node.childCount; i++) {
      const child = node.child(i);
      if (!child?.isNamed || child.type === 'comment') continue;
      if (node.fieldNameForChild(i) === 'value') {
        this.word(child, ctx);
        continue;
      }
      if (child.type !== 'case_item') {
        this.problem('unsupported', `unexpected ${child.type} in case`, spanOf(child));
        continue;
      }
      for (let j = 0; j < child.childCount; j++) {
        const part = child.child(j);
        if (!part?.isNamed || part.type === 'comment') continue;
        if (child.fieldNameForChild(j) === 'value') this.word(part, inCase);
        else this.statement(part, inCase);
      }
    }
  }

  private functionDefinition(node: Node, ctx: Ctx): void {
    this.visited.add(node.id);
    const name = node.childForFieldName('name');
    const fname = name ? this.word(name, ctx).value : '';
    this.functions.push(fname);
    const inner = this.deeper(ctx, node);
    if (!inner) return;
    const fctx: Ctx = { ...this.with(inner, 'function'), fn: fname };
    for (let i = 0; i < node.childCount; i++) {
      const child = node.child(i);
      if (!child?.isNamed || child === name || child.id === name?.id) continue;
      if (node.fieldNameForChild(i) === 'redirect')
        this.compoundRedirects.push(...this.redirect(child, fctx, []));
      else if (child.type !== 'comment') this.statement(child, fctx);
    }
  }

  /** Every command-bearing node in the tree must have been reached; otherwise something was hidden. */
  private checkVisited(mustVisit: readonly Node[]): void {
    for (const n of mustVisit) {
      if (!this.visited.has(n.id) && !n.hasError) {
        this.problem('unsupported', `${n.type} at ${n.startIndex} was not analysed`, spanOf(n));
        return;
      }
    }
  }
}

/** `a | time b`: `time` is a reserved word only where a pipeline starts; after `|` it names the program. */
function afterPipe(source: string, start: number): boolean {
  const before = source.slice(Math.max(0, start - 64), start).trimEnd();
  return /(^|[^|])\|&?$/.test(before);
}

/** Two words with nothing between them, or only line continuations, are one word to bash. */
function glued(source: string, prev: Word, next: Word): boolean {
  return /^(?:\\\r?\n)*$/.test(source.slice(prev.span.end, next.span.start));
}

function joinWords(source: string, prev: Word, next: Word): Word {
  const span = { start: prev.span.start, end: next.span.end };
  const dynamic = [...prev.dynamic, ...next.dynamic];
  let value = prev.value + next.value;
  const name = /^(?:[A-Za-z_]\w*|\d|\{[^}]*\})/.exec(next.text)?.[0];
  if (/(^|[^\\])\$$/.test(prev.text) && prev.value.endsWith('$') && name) {
    dynamic.push('parameter');
    value = `${prev.value.slice(0, -1)}${DYN}${next.value.slice(name.length)}`;
  }
  return makeWord(source.slice(span.start, span.end), value, dynamic, span);
}

/** The simple command that ends a list or pipeline, if it is one. */
function lastSimple(node: Node): Node | undefined {
  let current: Node | null = node;
  while (current && (current.type === 'list' || current.type === 'pipeline')) {
    const named: Node[] = current.namedChildren.filter((c): c is Node => c !== null && c.type !== 'comment');
    current = named[named.length - 1] ?? null;
  }
  if (!current || current.id === node.id) return undefined;
  const simple = ['command', 'declaration_command', 'unset_command', 'test_command'];
  return simple.includes(current.type) ? current : undefined;
}

const WRITE_OPS = new Set<RedirectOp>(['>', '>>', '>|', '&>', '&>>', '<>']);

function makeRedirect(fd: string | undefined, op: RedirectOp, target: Word, span: Span): Redirect {
  const devNull = target.static && target.value === '/dev/null';
  const dupTarget = target.static && /^(\d+|-)$/.test(target.value);
  let writes = WRITE_OPS.has(op) && !devNull;
  if (op === '>&' && !dupTarget && !devNull) writes = true;
  const reads = (op === '<' || op === '<>') && !devNull;
  const r: Redirect = { op, target, writes, reads, span };
  if (fd !== undefined) r.fd = fd;
  return r;
}

export function nameInfo(word: Word): NameInfo {
  const value = word.value;
  if (!word.static) return { value, program: '', dynamic: true };
  const slash = value.lastIndexOf('/');
  if (slash >= 0) return { value, program: value.slice(slash + 1), path: value, dynamic: false };
  return { value, program: value, dynamic: false };
}

/**
 * tree-sitter reads `[[ a == $(x) ]]` after a command name as a test expression, whose `regex` operand it leaves
 * unexpanded; to bash these are ordinary words, expanded and split.
 */
function testSyntax(node: Node): Node | undefined {
  if (node.type === 'regex' || node.type === 'test_operator') return node;
  if (node.type !== 'concatenation') return undefined;
  for (const child of node.namedChildren) {
    const found = child ? testSyntax(child) : undefined;
    if (found) return found;
  }
  return undefined;
}
