import { LRUCache } from 'lru-cache';
import { auditTree } from './audit.js';
import { copyTree } from './copy-tree.js';
import { effectsOf } from './effects.js';
import { nestedOf, programFamily } from './nested.js';
import { isBashLoaded, loadBash as loadParser, ParserNotLoaded, parseBash } from './parser.js';
import { takesAnyWords } from './programs/read-only.js';
import { programModule, programSpec } from './programs/registry.js';
import { runtimeWord } from './programs/words.js';
import { bashReading } from './reading.js';
import { type StateChange, shellEffects } from './shell-state.js';
import { plainCommands } from './simple.js';
import type { SyntaxNode } from './syntax.js';
import type {
  Analysis,
  FileEffect,
  NestedSpec,
  Problem,
  Redirect,
  SimpleCommand,
  Span,
  Word,
} from './types.js';
import { harmlessVariable } from './variables.js';
import { nameInfo, Walker } from './walk.js';
import { makeWord } from './words.js';

export const MAX_INPUT_BYTES = 64 * 1024;
/** How many shell strings deep (bash -c 'bash -c ...') the analysis follows. */
export const MAX_SHELL_DEPTH = 8;
/** Deeper trees are refused before the recursive audits and walk (each level of `$(` is about 3 tree levels). */
const MAX_TREE_DEPTH = 400;
/** How many wrappers deep (sudo timeout nice ...) one command may go. */
const MAX_WRAPPER_DEPTH = 32;
const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'busybox']);

/** Loads the parser once per process. Its declaration names no web-tree-sitter type, whose own need @types/emscripten. */
export const loadBash: () => Promise<void> = loadParser;

/** Analyses a bash command line. The parser must be loaded first (`await loadBash()`); see analyzeBash. */
export function analyze(source: string): Analysis {
  let next = 0;
  return analyzeWith(source, () => next++, 0);
}

/**
 * Analyses, loading the parser only when the command needs it: plain command lines never do, which keeps a
 * hook call on `git status` from compiling the grammar. An analysis depends on the text alone (and `$TAPE`, which
 * tar's effects read): one is kept per text for the process, frozen, so that a corpus classified under several
 * rule sets (`automode diff`, `critique`, `rules suggest` and `learn`) is analysed once.
 */
export async function analyzeBash(source: string): Promise<Analysis> {
  const key = `${process.env.TAPE ?? ''}\0${source}`;
  const kept = analyses.get(key);
  if (kept) return kept;
  const analysis = deepFreeze(await analyzeFresh(source));
  analyses.set(key, analysis);
  return analysis;
}

/** Analyses kept: a corpus's worth (the shipped corpus has some 650 calls), bounded by their texts' length too. */
const analyses = new LRUCache<string, Analysis>({
  max: 1024,
  maxSize: 256 * 1024,
  sizeCalculation: (_, key) => key.length + 1,
});

async function analyzeFresh(source: string): Promise<Analysis> {
  if (!isBashLoaded()) {
    try {
      return analyze(source);
    } catch (e) {
      if (!(e instanceof ParserNotLoaded)) throw e;
      await loadBash();
    }
  }
  return analyze(source);
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** The analysis through tree-sitter even for plain command lines (to check the plain path against). */
export function analyzeParsed(source: string): Analysis {
  let next = 0;
  return analyzeWith(source, () => next++, 0, false);
}

function analyzeWith(source: string, newId: () => number, shellDepth: number, plainPath = true): Analysis {
  return analyzeState(source, newId, shellDepth, plainPath).analysis;
}

interface Analysed {
  analysis: Analysis;
  /** What the input changes in the shell that runs it (for `eval`, in the shell that runs the carrier). */
  changes: StateChange[];
}

function analyzeState(source: string, newId: () => number, shellDepth: number, plainPath: boolean): Analysed {
  const empty = (problems: Problem[]): Analysed => ({
    analysis: {
      source,
      commands: [],
      compoundRedirects: [],
      listings: [],
      functions: [],
      problems,
      opaque: true,
    },
    changes: [],
  });
  if (source.length * 3 > MAX_INPUT_BYTES && Buffer.byteLength(source, 'utf8') > MAX_INPUT_BYTES) {
    return empty([{ code: 'too-large', message: `command longer than ${MAX_INPUT_BYTES} bytes` }]);
  }
  if (source.includes('\0')) {
    return empty([{ code: 'unsupported', message: 'the command contains a NUL character' }]);
  }
  const reading = bashReading(source);
  if (reading.problem) return empty([reading.problem]);
  source = reading.text;
  const plain = plainPath ? plainCommands(source, newId) : undefined;
  if (plain) {
    const commands: SimpleCommand[] = [];
    const analysis: Analysis = {
      source,
      commands,
      compoundRedirects: [],
      listings: [],
      functions: [],
      problems: [],
      opaque: false,
    };
    const expander = new Expander(
      newId,
      shellDepth,
      commands,
      analysis.compoundRedirects,
      analysis.listings,
      analysis.functions,
      analysis.problems,
    );
    for (const cmd of plain) expander.add(cmd, 0);
    expander.finish([]);
    analysis.opaque = analysis.problems.length > 0;
    return { analysis, changes: expander.changes };
  }
  const tree = parseBash(source);
  let copied: { root: SyntaxNode; tooDeep: boolean };
  try {
    copied = copyTree(tree, source, MAX_TREE_DEPTH);
  } finally {
    tree.delete();
  }
  const root = copied.root;
  if (copied.tooDeep) {
    return empty([
      { code: 'too-deep', message: `the syntax tree is nested more than ${MAX_TREE_DEPTH} levels deep` },
    ]);
  }
  {
    const audit = auditTree(root, source);
    const problems = audit.problems;
    const walker = new Walker(source, newId);
    walker.walkProgram(root, audit.mustVisit);
    problems.push(...walker.problems);
    const commands: SimpleCommand[] = [];
    const compoundRedirects = [...walker.compoundRedirects];
    const listings = [...walker.listings];
    const functions = [...walker.functions];
    const expander = new Expander(
      newId,
      shellDepth,
      commands,
      compoundRedirects,
      listings,
      functions,
      problems,
    );
    for (const cmd of walker.commands) expander.add(cmd, 0);
    expander.finish(walker.changes);
    return {
      analysis: {
        source,
        commands,
        compoundRedirects,
        listings,
        functions,
        problems,
        opaque: problems.length > 0,
      },
      changes: expander.changes,
    };
  }
}

/**
 * bash expands a glob word by listing the folders it walks, whatever the program then does with the names
 * (`echo ~/.ssh/*` prints them): every glob word no effect already covers is a listing of what it matches.
 */
function globListings(argv: readonly Word[], effects: readonly FileEffect[]): FileEffect[] {
  const out: FileEffect[] = [];
  for (const word of argv) {
    if (!word.dynamic.includes('glob')) continue;
    if (effects.some((e) => e.path.span.start === word.span.start && e.path.span.end === word.span.end))
      continue;
    out.push({ access: 'metadata', path: word, via: 'argument' });
  }
  return out;
}

/** Adds to each command what it runs (nested commands, hidden code) and the files it touches. */
class Expander {
  /** State changes with the id of the command that makes them (-1: a construct, not a command). */
  readonly changes: StateChange[] = [];
  private readonly carriers: number[] = [];

  constructor(
    private readonly newId: () => number,
    private readonly shellDepth: number,
    private readonly out: SimpleCommand[],
    private readonly compoundRedirects: Redirect[],
    private readonly listings: Word[],
    private readonly functions: string[],
    private readonly problems: Problem[],
  ) {}

  add(cmd: SimpleCommand, wrapperDepth: number): void {
    this.out.push(cmd);
    const program = cmd.name && !cmd.name.dynamic ? cmd.name.program : '';
    const view = { argv: cmd.argv, assignments: cmd.assignments, program };
    const fx = effectsOf(view);
    cmd.effects = [...redirectEffects(cmd.redirects), ...fx.effects, ...globListings(cmd.argv, fx.effects)];
    for (const a of cmd.assignments) {
      // The array's word carries the whole list: a glob character anywhere in it may expand.
      if (a.array && (a.value.dynamic.includes('glob') || /[*?[]/.test(a.value.text)))
        this.listings.push(runtimeWord(`the files ${a.value.text} matches`, a.value.span));
    }
    // Words a carrier appends at run time may name files, but not to a program that reads none (`xargs echo`).
    const appended = cmd.nested?.extraArgs === true && !(program !== '' && anyWords(program));
    cmd.effectsKnown =
      fx.known && !appended && cmd.redirects.every((r) => r.target.static || (!r.writes && !r.reads));
    if (program !== '' && programModule(programFamily(program))?.network?.(view)) cmd.network = true;
    if (program !== '' || cmd.argv.length === 0) this.shellEffects(cmd, program);
    for (const spec of [...nestedOf(view), ...aliasSpecs(cmd, program)]) this.spec(cmd, spec, wrapperDepth);
  }

  private shellEffects(cmd: SimpleCommand, program: string): void {
    if (cmd.argv.length === 0) {
      for (const a of cmd.assignments) {
        if (!harmlessVariable(a.name))
          this.change({ what: a.name, via: 'an assignment', span: a.span }, cmd.id);
      }
      return;
    }
    const effects = shellEffects(program, cmd.argv);
    if (!effects) return;
    this.problems.push(...effects.problems);
    for (const change of effects.changes) this.change(change, cmd.id);
  }

  private change(change: StateChange, carrier: number): void {
    this.changes.push(change);
    this.carriers.push(carrier);
  }

  /**
   * A change to the shell's state makes every other command of the input unknown: it may run after the change
   * (later on the line, in a later turn of a loop, in a function called later).
   */
  finish(constructs: readonly StateChange[]): void {
    for (const change of constructs) this.change(change, -1);
    if (this.changes.length === 0) return;
    const parent = new Map<number, number>();
    const byId = new Map<number, SimpleCommand>();
    for (const cmd of this.out) {
      byId.set(cmd.id, cmd);
      if (cmd.nested) parent.set(cmd.id, cmd.nested.carrier);
    }
    for (let i = 0; i < this.changes.length; i++) {
      const carrier = byId.get(this.carriers[i]!);
      const other = this.out.find((cmd) => !carrier || !partOf(cmd, carrier, parent));
      if (other) {
        const c = this.changes[i]!;
        this.problems.push({
          code: 'unsupported',
          message: `${c.via} changes ${c.what}, which changes what the other commands do`,
          span: c.span,
        });
        return;
      }
    }
  }

  private spec(carrier: SimpleCommand, spec: NestedSpec, wrapperDepth: number): void {
    switch (spec.kind) {
      case 'argv':
        if (wrapperDepth >= MAX_WRAPPER_DEPTH) {
          this.problems.push({ code: 'too-deep', message: 'too many nested wrappers', span: carrier.span });
          return;
        }
        this.add(this.argvCommand(carrier, spec), wrapperDepth + 1);
        return;
      case 'shell':
        this.shell(carrier, spec.script, spec.via);
        return;
      case 'code': {
        const script = shellStdin(carrier, spec);
        if (script) this.shell(carrier, script, 'stdin');
        else carrier.executes.push(spec.exec);
        return;
      }
      case 'unresolved':
        this.problems.push({ code: 'unsupported', message: spec.reason, span: spec.span });
        return;
    }
  }

  private argvCommand(carrier: SimpleCommand, spec: Extract<NestedSpec, { kind: 'argv' }>): SimpleCommand {
    const first = spec.words[0];
    const last = spec.words[spec.words.length - 1];
    const cmd: SimpleCommand = {
      id: this.newId(),
      argv: spec.words,
      assignments: spec.assignments ?? [],
      redirects: [],
      span: first && last ? { start: first.span.start, end: last.span.end } : carrier.span,
      context: [...carrier.context],
      nested: { kind: spec.link.kind, carrier: carrier.id, via: spec.link.via },
      executes: [],
      effects: [],
      effectsKnown: true,
    };
    if (spec.link.extraArgs) cmd.nested!.extraArgs = true;
    if (carrier.inFunction !== undefined) cmd.inFunction = carrier.inFunction;
    if (carrier.innerSource !== undefined) cmd.innerSource = carrier.innerSource;
    if (first) cmd.name = nameInfo(first);
    return cmd;
  }

  private shell(carrier: SimpleCommand, script: Word, via: string): void {
    if (!script.static) {
      this.problems.push({
        code: 'dynamic-shell-string',
        message: `${via} runs a string only known at run time`,
        span: script.span,
      });
      return;
    }
    if (this.shellDepth + 1 > MAX_SHELL_DEPTH) {
      this.problems.push({ code: 'too-deep', message: 'shell strings nested too deeply', span: script.span });
      return;
    }
    const analysed = analyzeState(script.value, this.newId, this.shellDepth + 1, true);
    const inner = analysed.analysis;
    for (const change of analysed.changes) this.change(change, carrier.id);
    for (const p of inner.problems) {
      this.problems.push({ code: p.code, message: `in ${via} string: ${p.message}`, span: script.span });
    }
    for (const cmd of inner.commands) {
      cmd.nested ??= { kind: 'shell', carrier: carrier.id, via };
      cmd.innerSource ??= script.value;
      cmd.context = [...carrier.context, ...cmd.context.filter((f) => !carrier.context.includes(f))];
      this.out.push(cmd);
    }
    this.compoundRedirects.push(...inner.compoundRedirects);
    this.listings.push(...inner.listings);
    this.functions.push(...inner.functions);
  }
}

/** The carrier itself, what it runs, and the substitutions in its words, which run before it. */
function partOf(cmd: SimpleCommand, carrier: SimpleCommand, parent: ReadonlyMap<number, number>): boolean {
  for (let at: number | undefined = cmd.id; at !== undefined; at = parent.get(at)) {
    if (at === carrier.id) return true;
  }
  return (
    cmd.nested === undefined &&
    carrier.nested === undefined &&
    cmd.span.start >= carrier.span.start &&
    cmd.span.end <= carrier.span.end
  );
}

function redirectEffects(redirects: Redirect[]): FileEffect[] {
  const out: FileEffect[] = [];
  for (const r of redirects) {
    if (r.writes) out.push({ access: 'write', path: r.target, via: 'redirect' });
    if (r.reads) out.push({ access: 'read', path: r.target, via: 'redirect' });
  }
  return out;
}

/** A shell reading a heredoc or here-string with static text runs exactly that text. */
function shellStdin(carrier: SimpleCommand, spec: Extract<NestedSpec, { kind: 'code' }>): Word | undefined {
  if (spec.exec.kind !== 'stdin' || !SHELLS.has(spec.exec.program)) return undefined;
  const input = carrier.redirects.filter(
    (r) =>
      (r.op === '<<' || r.op === '<<-' || r.op === '<<<' || r.op === '<') &&
      (r.fd === undefined || r.fd === '0'),
  );
  const r = input[input.length - 1];
  if (!r) return undefined;
  if (r.heredoc) {
    if (!r.heredoc.quoted && /[$`\\]/.test(r.heredoc.body)) return undefined;
    const body = r.heredoc.stripTabs ? r.heredoc.body.replace(/^\t+/gm, '') : r.heredoc.body;
    return makeWord(r.heredoc.body, body, [], r.heredoc.span);
  }
  if (r.op === '<<<' && r.target.static) return r.target;
  return undefined;
}

/** `alias name='...'` defines a command that later lines may run: its text is analysed like a shell string. */
function aliasSpecs(cmd: SimpleCommand, program: string): NestedSpec[] {
  if (program !== 'alias') return [];
  const out: NestedSpec[] = [];
  for (const word of cmd.argv.slice(1)) {
    const eq = word.value.indexOf('=');
    if (eq <= 0) continue;
    const span: Span = word.span;
    out.push({
      kind: 'shell',
      via: `alias ${word.value.slice(0, eq)}`,
      script: makeWord(word.text, word.value.slice(eq + 1), word.dynamic, span),
    });
  }
  return out;
}

function anyWords(program: string): boolean {
  const spec = programSpec(program);
  return spec !== undefined && takesAnyWords(spec);
}
