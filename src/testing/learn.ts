import path from 'node:path';
import { analyze, loadBash, type SimpleCommand } from '../bash/index.js';
import { type ClassifiedVerdict, createClassifier, type ToolCall } from '../classifier/index.js';
import { loadRuleChecks, type RuleRef } from '../policy/index.js';
import {
  canonicalToolName,
  checkRuleText,
  type LoadedSettings,
  type ScopeFile,
  withRuleEdit,
} from '../rules/index.js';
import type { Mode } from '../shared/index.js';
import { describeCall, toCall } from './call.js';
import type { CorpusEntry } from './corpus.js';
import type { SessionCall } from './learn-read.js';
import { holdsSecret, redact, redactInput } from './redact.js';
import type { Decision } from './results.js';
import { broadWitness, fixedLevels, shellWords } from './suggest.js';

/** Modes in which Claude Code shows no prompt for what the rules leave open: a call that ran there was not approved by anyone. */
export const UNPROMPTED_MODES: readonly Mode[] = ['bypassPermissions', 'dontAsk', 'auto'];

export interface LearnOptions {
  /** The settings in force now: calls they would ask about are the prompts. */
  settings: LoadedSettings;
  /** The settings file the rules are for (its folder is the root of `/path` rules). */
  file: ScopeFile;
  /** Calls whose changed decisions witness what a rule admits besides the sessions' calls (the shipped corpus). */
  corpus: readonly CorpusEntry[];
  /** Commands no learned rule may allow (the dangerous corpus). */
  dangerous: readonly string[];
  /** How many distinct commands (or files) a wildcard needs as evidence; default 3. */
  minDistinct?: number;
  /** Learn only from calls a person approved, leaving out those that ran in a mode that shows no prompt. */
  approvedOnly?: boolean;
}

/** A call as the report shows it: secrets redacted. */
export interface ShownCall {
  call: string;
  file: string;
  line: number;
}

export interface LearnedRule {
  rule: string;
  kind: 'exact' | 'wildcard';
  /** The calls of the sessions it allows that were asked before (prompts it would have saved). */
  prompts: number;
  /** How many distinct commands (or files) among them. */
  distinct: number;
  /** How the calls it learned from ran: approved at a prompt, or in a mode that shows none. */
  evidence: Record<string, number>;
  projects: string[];
  examples: ShownCall[];
  /** A wider rule left out, the prompts it would have covered too, and why it is left out. */
  wider?: { rule: string; prompts: number; why: string };
  /** Shipped-corpus calls whose decision the rule changes (a few) and how many in all. */
  admits: { call: string; id: string; from: Decision; to: Decision }[];
  admitted: number;
}

/** A rule considered and left out, and why (a witness it would have allowed, the rule that shadows it). */
export interface RefusedRule {
  rule: string;
  why: string;
  witness?: string;
  by?: { rule: string; behavior: string; at?: string };
}

/** Prompts no rule is proposed for, grouped by why. */
export interface Unlearned {
  why: string;
  calls: number;
  examples: ShownCall[];
}

export interface PromptFigures {
  project: string;
  /** Calls read from the sessions, and those that ran. */
  calls: number;
  ran: number;
  /** Calls that ran and the settings in force would ask about. */
  prompts: number;
  /** Prompts for a call asked two or more times (the same command, file or tool input). */
  repeated: number;
  /** Of those, the calls the learned rules allow. */
  spared: number;
  sparedRepeated: number;
}

export interface LearnReport {
  rules: LearnedRule[];
  refused: RefusedRule[];
  unlearned: Unlearned[];
  projects: PromptFigures[];
  total: PromptFigures;
  /** How the calls that ran were made: by permission mode as the transcripts record it. */
  modes: Record<string, number>;
  /**
   * Test cases of what the rules change, as an automode test file writes them: each prompt they spare (allow) and
   * each call the person rejected (the decision it keeps); secrets redacted.
   */
  cases: LearnedCase[];
  /** The settings with every proposed rule added. */
  after: LoadedSettings;
}

export interface LearnedCase {
  name: string;
  tool: string;
  command?: string;
  input?: Record<string, unknown>;
  /** Relative to the project folder. */
  cwd?: string;
  mode?: Mode;
  expect: Decision;
}

const SHOWN = 5;
const MAX_ROUNDS = 16;

interface Evidence {
  source: SessionCall;
  call: ToolCall;
  key: string;
  project: string;
  verdict: ClassifiedVerdict;
}

type Atom =
  | { kind: 'bash'; words: string[]; levels: number; line: string; call: number; runsCode: boolean }
  | { kind: 'path'; family: 'Edit' | 'Read'; file: string; call: number }
  | { kind: 'rule'; rule: string; call: number };

interface Candidate {
  rule: string;
  kind: 'exact' | 'wildcard';
  calls: Set<number>;
  distinct: number;
  wider?: { rule: string; calls: Set<number>; why: string };
}

/**
 * The narrowest allow rules that would have spared the prompts of the sessions: every call that ran and that
 * the settings in force would ask about gets a rule, exact unless `minDistinct` distinct commands (or files) of one
 * program and subcommand (or folder) support a wildcard that chooses no code. Every rule set is checked with the
 * classifier itself: a rule is refused when it would allow a dangerous-corpus command or a call the person
 * rejected, and left out when an ask or deny rule, or a check no rule overrides (a protected path), still stops
 * the calls it was for.
 */
export async function learnRules(calls: readonly SessionCall[], options: LearnOptions): Promise<LearnReport> {
  await Promise.all([loadBash(), loadRuleChecks()]);
  const { settings, file } = options;
  const minDistinct = options.minDistinct ?? 3;
  const before = createClassifier(settings);
  const modes: Record<string, number> = {};
  const evidence: Evidence[] = [];
  const rejected: ToolCall[] = [];
  const figures = new Map<string, PromptFigures>();
  const figure = (project: string) => {
    let f = figures.get(project);
    if (!f) {
      f = { project, calls: 0, ran: 0, prompts: 0, repeated: 0, spared: 0, sparedRepeated: 0 };
      figures.set(project, f);
    }
    return f;
  };
  for (const source of calls) {
    const project = source.project ?? '(unknown project)';
    figure(project).calls++;
    const call = rebased(source, settings.cwd);
    if (source.outcome === 'rejected') rejected.push(call);
    if (source.outcome !== 'ran') continue;
    figure(project).ran++;
    const how = source.mode ?? 'default';
    modes[how] = (modes[how] ?? 0) + 1;
    if (options.approvedOnly && source.mode && UNPROMPTED_MODES.includes(source.mode)) continue;
    const verdict = (await before.classify(call)) as ClassifiedVerdict;
    evidence.push({ source, call, key: promptKey(call), project, verdict });
  }

  const prompts = evidence.filter((e) => e.verdict.decision === 'ask');
  const unlearned = new Map<string, Evidence[]>();
  const skip = (e: Evidence, why: string) => unlearned.set(why, [...(unlearned.get(why) ?? []), e]);
  for (const e of evidence) {
    if (e.verdict.decision === 'deny')
      skip(e, `denied by the settings in force (${redact(e.verdict.reason)})`);
  }
  const atoms: Atom[] = [];
  prompts.forEach((e, index) => {
    const found = atomsOf(e, index, file);
    if (typeof found === 'string') skip(e, redact(found));
    else atoms.push(...found);
  });

  // Propose, check with the classifier, refuse what it shows unsafe, and propose again without it.
  const banned = new Map<string, RefusedRule>();
  const dangerousBefore = new Map<string, Decision>();
  const danger = createClassifier(settings);
  for (const command of options.dangerous) {
    dangerousBefore.set(command, (await danger.classify(bashCall(command, settings.cwd))).decision);
  }
  const rejectedBefore: Decision[] = [];
  for (const r of rejected) rejectedBefore.push((await danger.classify(r)).decision);
  let candidates: Candidate[] = [];
  let after = settings;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    candidates = propose(atoms, minDistinct, banned, file.root);
    after = withRules(settings, candidates, file);
    const classifier = createClassifier(after);
    let refusedNow = 0;
    const refuse = (verdict: ClassifiedVerdict, why: string, witness: string) => {
      const culprits = allowRefs(verdict).filter((t) => candidates.some((c) => c.rule === t));
      const blamed = culprits.length > 0 ? culprits : candidates.map((c) => c.rule);
      for (const rule of blamed) {
        if (banned.has(rule)) continue;
        banned.set(rule, { rule, why, witness: redact(witness) });
        refusedNow++;
      }
    };
    for (const command of options.dangerous) {
      if (dangerousBefore.get(command) === 'allow') continue;
      const v = (await classifier.classify(bashCall(command, settings.cwd))) as ClassifiedVerdict;
      if (v.decision === 'allow') refuse(v, 'it would allow a command of the dangerous corpus', command);
    }
    for (const [i, r] of rejected.entries()) {
      if (rejectedBefore[i] === 'allow') continue;
      const v = (await classifier.classify(r)) as ClassifiedVerdict;
      if (v.decision === 'allow') refuse(v, 'it would allow a call the person rejected', show(r));
    }
    if (refusedNow > 0) continue;
    // An allow rule that decides before an ask rule (a narrow rule over a shipped ask) weakens that ask: reported
    // as shadowed by it, never proposed.
    const proposed = new Set(candidates.map((c) => c.rule));
    for (const e of prompts) {
      const v = (await classifier.classify(e.call)) as ClassifiedVerdict;
      for (const part of v.parts) {
        const rule = part.rule?.text;
        const ask = part.overrides?.[0];
        if (part.decision !== 'allow' || !rule || !ask || !proposed.has(rule) || banned.has(rule)) continue;
        const at = ask.file ? `${ask.file}${ask.line ? `:${ask.line}:${ask.column ?? 1}` : ''}` : ask.source;
        banned.set(rule, {
          rule,
          why: `an existing ask rule would shadow it: ${ask.label ?? ask.text} (${at}); asks are never weakened`,
          witness: show(e.call),
          by: { rule: ask.label ?? ask.text, behavior: 'ask', at },
        });
        refusedNow++;
      }
    }
    if (refusedNow > 0) continue;
    // A wildcard that leaves some of its own calls asked (a subcommand automode does not know, code it does not
    // name) gives way to narrower rules, which are checked in turn.
    for (const c of candidates) {
      if (c.kind !== 'wildcard') continue;
      for (const i of c.calls) {
        const v = (await classifier.classify(prompts[i]!.call)) as ClassifiedVerdict;
        if (v.decision === 'allow') continue;
        const stop = stopperOf(v);
        banned.set(c.rule, {
          rule: c.rule,
          why: `a call it is for would still be asked: ${redact(stop.reason)}`,
          witness: show(prompts[i]!.call),
        });
        refusedNow++;
        break;
      }
    }
    if (refusedNow === 0) break;
  }

  // Keep the rules that spare a prompt; a rule whose calls are still asked is shadowed or stopped by a check.
  const classifier = createClassifier(after);
  const afterVerdicts: ClassifiedVerdict[] = [];
  for (const e of prompts) afterVerdicts.push((await classifier.classify(e.call)) as ClassifiedVerdict);
  const used = new Map<string, Set<number>>();
  afterVerdicts.forEach((v, i) => {
    if (v.decision !== 'allow') return;
    for (const ref of allowRefs(v)) used.set(ref, (used.get(ref) ?? new Set()).add(i));
  });
  const refused: RefusedRule[] = [...banned.values()];
  const kept: Candidate[] = [];
  for (const c of candidates) {
    if (used.has(c.rule)) {
      kept.push(c);
      continue;
    }
    const stopped = [...c.calls].map((i) => afterVerdicts[i]!).find((v) => v.decision !== 'allow');
    const stop = stopped ? stopperOf(stopped) : undefined;
    refused.push({
      rule: c.rule,
      why: stop?.by
        ? `an existing ${stop.by.behavior} rule would shadow it: ${stop.by.rule}${stop.by.at ? ` (${stop.by.at})` : ''}`
        : `the calls it is for would still be asked: ${redact(stop?.reason ?? 'another part of them is asked')}`,
      ...(stop?.by ? { by: stop.by } : {}),
      ...(stopped ? { witness: show(prompts[[...c.calls][0]!]!.call) } : {}),
    });
  }
  after = withRules(settings, kept, file);
  const finalClassifier = createClassifier(after);
  const spared = new Set<number>();
  for (const [i, e] of prompts.entries()) {
    if ((await finalClassifier.classify(e.call)).decision === 'allow') spared.add(i);
  }
  for (const [i, e] of prompts.entries()) {
    if (spared.has(i)) continue;
    const owned = kept.some((c) => c.calls.has(i));
    if (owned || !atoms.some((a) => a.call === i)) continue;
    const v = afterVerdicts[i]!;
    const stop = stopperOf(v);
    if (!unlearnedHas(unlearned, e))
      skip(
        e,
        stop.by
          ? `shadowed by the ${stop.by.behavior} rule ${stop.by.rule}`
          : `still asked: ${redact(stop.reason)}`,
      );
  }

  const cases: LearnedCase[] = [];
  const named = new Set<string>();
  const addCase = (call: ToolCall, expect: Decision, why: string) => {
    const name = `${why}: ${show(call)}`;
    if (named.has(name) || holdsSecret(JSON.stringify(call.input))) return;
    named.add(name);
    const input = shownInput(call);
    const cwd = call.cwd && call.cwd !== settings.cwd ? path.relative(settings.cwd, call.cwd) : undefined;
    cases.push({
      name,
      tool: call.tool,
      ...(call.tool === 'Bash' ? { command: input.command as string } : { input: call.input }),
      ...(cwd ? { cwd } : {}),
      ...(call.mode && call.mode !== 'default' ? { mode: call.mode } : {}),
      expect,
    });
  };
  for (const i of spared) addCase(prompts[i]!.call, 'allow', 'a prompt the rules spare');
  for (const [i, r] of rejected.entries()) {
    if (rejectedBefore[i] === 'allow') continue;
    addCase(r, (await finalClassifier.classify(r)).decision, 'a call the person rejected');
  }

  // Figures: prompts, repeated prompts, and how many the rules spare, per project.
  const counts = new Map<string, number>();
  for (const e of prompts) counts.set(e.key, (counts.get(e.key) ?? 0) + 1);
  prompts.forEach((e, i) => {
    const f = figure(e.project);
    const repeated = (counts.get(e.key) ?? 0) >= 2;
    f.prompts++;
    if (repeated) f.repeated++;
    if (spared.has(i)) {
      f.spared++;
      if (repeated) f.sparedRepeated++;
    }
  });
  const projects = [...figures.values()].sort((a, b) => a.project.localeCompare(b.project));
  const total = projects.reduce(
    (t, f) => ({
      project: '(all)',
      calls: t.calls + f.calls,
      ran: t.ran + f.ran,
      prompts: t.prompts + f.prompts,
      repeated: t.repeated + f.repeated,
      spared: t.spared + f.spared,
      sparedRepeated: t.sparedRepeated + f.sparedRepeated,
    }),
    { project: '(all)', calls: 0, ran: 0, prompts: 0, repeated: 0, spared: 0, sparedRepeated: 0 },
  );

  // What each kept rule admits besides: the shipped corpus's calls whose decision it changes.
  const baseCorpus = new Map<CorpusEntry, Decision>();
  const rules: LearnedRule[] = [];
  for (const c of kept) {
    const own = createClassifier(withRules(settings, [c], file));
    const admits: LearnedRule['admits'] = [];
    let admitted = 0;
    for (const entry of options.corpus) {
      if (!mayMatch(c.rule, entry)) continue;
      const call = toCall(entry.call, settings.cwd);
      if ('error' in call) continue;
      let was = baseCorpus.get(entry);
      if (was === undefined) {
        was = (await before.classify(call)).decision;
        baseCorpus.set(entry, was);
      }
      const now = (await own.classify(call)).decision;
      if (now === was) continue;
      admitted++;
      if (admits.length < SHOWN)
        admits.push({ call: redact(describeCall(call)), id: entry.id, from: was, to: now });
    }
    const mine = [...(used.get(c.rule) ?? [])].filter((i) => spared.has(i));
    const evidenceOf: Record<string, number> = {};
    for (const i of c.calls) {
      const m = prompts[i]!.source.mode;
      const how = m && UNPROMPTED_MODES.includes(m) ? `ran in ${m} (no prompt)` : 'approved';
      evidenceOf[how] = (evidenceOf[how] ?? 0) + 1;
    }
    rules.push({
      rule: c.rule,
      kind: c.kind,
      prompts: mine.length,
      distinct: c.distinct,
      evidence: evidenceOf,
      projects: [...new Set(mine.map((i) => prompts[i]!.project))].sort(),
      examples: exampleCalls(mine.map((i) => prompts[i]!)),
      ...(c.wider
        ? {
            wider: {
              rule: c.wider.rule,
              prompts: [...c.wider.calls].filter((i) => spared.has(i)).length,
              why: c.wider.why,
            },
          }
        : {}),
      admits,
      admitted,
    });
  }
  rules.sort((a, b) => b.prompts - a.prompts || a.rule.localeCompare(b.rule));
  return {
    rules,
    refused: dedupe(refused),
    unlearned: [...unlearned.entries()]
      .map(([why, list]) => ({ why, calls: list.length, examples: exampleCalls(list) }))
      .sort((a, b) => b.calls - a.calls),
    projects,
    total,
    modes,
    cases,
    after,
  };
}

function unlearnedHas(map: Map<string, Evidence[]>, e: Evidence): boolean {
  for (const list of map.values()) if (list.includes(e)) return true;
  return false;
}

function dedupe(list: readonly RefusedRule[]): RefusedRule[] {
  const seen = new Set<string>();
  return list.filter((r) => {
    if (seen.has(r.rule)) return false;
    seen.add(r.rule);
    return true;
  });
}

function exampleCalls(list: readonly Evidence[]): ShownCall[] {
  const seen = new Set<string>();
  const out: ShownCall[] = [];
  for (const e of list) {
    const call = show(e.call);
    if (seen.has(call)) continue;
    seen.add(call);
    out.push({ call, file: e.source.file, line: e.source.line });
    if (out.length >= SHOWN) break;
  }
  return out;
}

/** A call as the report shows it: its command or path, secrets redacted. */
function show(call: ToolCall): string {
  return redact(describeCall({ tool: call.tool, input: redactInput(shownInput(call)) }));
}

/** The input as a report names the call: the command of a Bash call, the path of a file tool. */
function shownInput(call: ToolCall): Record<string, unknown> {
  const i = call.input;
  if (call.tool === 'Bash' && typeof i.command === 'string') return { command: i.command };
  for (const k of ['file_path', 'notebook_path', 'path', 'url', 'pattern']) {
    if (typeof i[k] === 'string') return { [k]: i[k] };
  }
  return i;
}

/** What makes two prompts the same question: the command, the file, the address, else the whole input. */
function promptKey(call: ToolCall): string {
  return JSON.stringify([call.tool, shownInput(call)]);
}

function bashCall(command: string, cwd: string): ToolCall {
  return { tool: 'Bash', input: { command }, cwd, mode: 'default' };
}

/** The call as it would be made in `root`: paths below the session's project folder move below `root`. */
function rebased(source: SessionCall, root: string): ToolCall {
  const from = source.project;
  const move = (p: string) => {
    if (!from || !path.isAbsolute(p)) return p;
    const rel = path.relative(from, p);
    return rel === '' ? root : rel.startsWith('..') || path.isAbsolute(rel) ? p : path.join(root, rel);
  };
  const input: Record<string, unknown> = { ...source.input };
  for (const k of ['file_path', 'notebook_path', 'path']) {
    if (typeof input[k] === 'string') input[k] = move(input[k] as string);
  }
  const mode = source.mode && !UNPROMPTED_MODES.includes(source.mode) ? source.mode : 'default';
  return {
    tool: canonicalToolName(source.tool),
    input,
    cwd: source.cwd ? move(source.cwd) : root,
    mode,
  };
}

/** The rules a verdict's allowed parts name. */
function allowRefs(v: ClassifiedVerdict): string[] {
  const refs = v.parts.filter((p) => p.decision === 'allow' && p.rule).map((p) => p.rule!.text);
  if (v.decision === 'allow' && v.rule) refs.push(v.rule.text);
  return [...new Set(refs)];
}

/** What still stops a call: the ask or deny rule of its strictest part, else the reason. */
function stopperOf(v: ClassifiedVerdict): { reason: string; by?: RefusedRule['by'] } {
  const part =
    v.parts.find((p) => p.decision === v.decision && p.rule) ??
    v.parts.find((p) => p.decision === v.decision);
  const ref: RuleRef | undefined = part?.rule ?? v.rule;
  if (ref && ref.behavior !== 'allow') {
    const at = ref.file ? `${ref.file}${ref.line ? `:${ref.line}:${ref.column ?? 1}` : ''}` : ref.source;
    return {
      reason: part?.reason ?? v.reason,
      by: { rule: ref.label ?? ref.text, behavior: ref.behavior, at },
    };
  }
  return { reason: part?.reason ?? v.reason };
}

/** Which rules a call needs, one atom per part the settings in force do not allow; a string says why none. */
function atomsOf(e: Evidence, index: number, file: ScopeFile): Atom[] | string {
  const v = e.verdict;
  const blocked = v.parts.find(
    (p) => p.decision !== 'allow' && (p.by === 'protected-path' || p.by === 'critical-path'),
  );
  if (blocked) return `a protected path: automode always asks (${blocked.reason})`;
  const tool = e.call.tool;
  const input = e.call.input;
  if (tool === 'Bash') {
    const command = typeof input.command === 'string' ? input.command : '';
    const analysis = v.analysis ?? analyze(command);
    if (analysis.opaque) return 'a command automode cannot read in full';
    const asked = new Set(v.parts.filter((p) => p.decision !== 'allow').map((p) => p.command));
    const out: Atom[] = [];
    for (const cmd of analysis.commands) {
      if (cmd.nested || cmd.argv.length === 0) continue;
      if (!asked.has(cmd.id) && !asked.has(undefined)) continue;
      const atom = bashAtom(cmd, index, runsCode(cmd, analysis.commands));
      if (typeof atom === 'string') return atom;
      out.push(atom);
    }
    return out.length > 0 ? out : `nothing a Bash rule can name (${v.reason})`;
  }
  if (tool === 'WebFetch') {
    const url = typeof input.url === 'string' ? safeUrl(input.url) : undefined;
    if (!url) return 'a WebFetch without a readable address';
    return [{ kind: 'rule', rule: `WebFetch(domain:${url.hostname})`, call: index }];
  }
  if (tool.startsWith('mcp__') || tool === 'WebSearch') return [{ kind: 'rule', rule: tool, call: index }];
  const family = ['Edit', 'Write', 'MultiEdit', 'NotebookEdit'].includes(tool)
    ? 'Edit'
    : ['Read', 'Glob', 'Grep', 'LS', 'NotebookRead'].includes(tool)
      ? 'Read'
      : undefined;
  if (!family) return `no rule form for the ${tool} tool`;
  const target = [input.file_path, input.notebook_path, input.path].find((p) => typeof p === 'string') as
    | string
    | undefined;
  if (!target) return `a ${tool} call without a path`;
  const absolute = path.resolve(e.call.cwd ?? file.root, target);
  if (file.scope === 'user' && isInside(absolute, e.call.cwd ?? file.root))
    return 'a file of the project: a user-scope rule would name it by its absolute path in every project';
  return [{ kind: 'path', family, file: absolute, call: index }];
}

/** Whether the command, or one it runs, runs code: a script, a test suite, a build, a program named in an option. */
function runsCode(cmd: SimpleCommand, all: readonly SimpleCommand[]): boolean {
  return all.some(
    (c) => c.executes.length > 0 && c.span.start >= cmd.span.start && c.span.end <= cmd.span.end,
  );
}

function bashAtom(cmd: SimpleCommand, call: number, code: boolean): Atom | string {
  const dynamic = cmd.argv.find((w) => !w.static);
  if (dynamic) return `${dynamic.text} is known only when the command runs`;
  if (cmd.assignments.length > 0) return 'a command with variable assignments';
  const words = cmd.argv.map((w) => w.value);
  if (words.some((w) => holdsSecret(w)))
    return 'it holds a value that looks like a secret: no rule is written with it';
  return {
    kind: 'bash',
    words,
    levels: Math.min(fixedLevels(cmd), words.length),
    // As it was written: an exact rule matches the command's words as they are quoted.
    line: cmd.argv.map((w) => w.text).join(' '),
    call,
    runsCode: code,
  };
}

function safeUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

function isInside(file: string, folder: string): boolean {
  const rel = path.relative(folder, file);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

/** The rules for the atoms, exact unless the evidence supports a wildcard; banned rules are never proposed. */
function propose(
  atoms: readonly Atom[],
  minDistinct: number,
  banned: ReadonlyMap<string, RefusedRule>,
  root: string,
): Candidate[] {
  const out = new Map<string, Candidate>();
  const add = (c: Candidate) => {
    const had = out.get(c.rule);
    if (!had) out.set(c.rule, c);
    else for (const i of c.calls) had.calls.add(i);
  };
  const bash = atoms.filter((a) => a.kind === 'bash');
  const groups = groupBy(bash, (a) => JSON.stringify(a.words.slice(0, a.levels)));
  for (const group of groups.values()) {
    for (const c of ladder(group, group[0]!.levels, minDistinct, banned)) add(c);
  }
  for (const a of atoms) {
    if (a.kind === 'rule' && !banned.has(a.rule) && checkRuleText(a.rule, 'allow').refused.length === 0)
      add({ rule: a.rule, kind: 'exact', calls: new Set([a.call]), distinct: 1 });
  }
  const paths = atoms.filter((a) => a.kind === 'path');

  for (const [family, group] of groupBy(paths, (a) => a.family)) {
    const files = [...new Set(group.map((a) => a.file))];
    // Each file goes under the deepest folder holding `minDistinct` of the files, if any; the folders inside
    // another chosen folder give way to it.
    const chosen = new Map<string, string | undefined>();
    for (const f of files)
      chosen.set(
        f,
        folderFor(f, files, minDistinct, root, (rule) => banned.has(`${family}(${rule})`)),
      );
    const folders = new Set([...chosen.values()].filter((x): x is string => x !== undefined));
    for (const f of files) {
      const folder = chosen.get(f);
      const outer = folder && [...folders].find((o) => o !== folder && isInside(folder, o));
      chosen.set(f, outer || folder);
    }
    for (const [target, same] of groupBy(group, (a) => chosen.get(a.file) ?? `\0${a.file}`)) {
      const exact = target.startsWith('\0');
      const f = exact ? target.slice(1) : target;
      const rule = exact ? `${family}(${pathPattern(f, root)})` : `${family}(${pathPattern(f, root)}/**)`;
      if (banned.has(rule) || /[*?[\]{}]/.test(f) || holdsSecret(f)) continue;
      const distinct = new Set(same.map((a) => a.file)).size;
      add({ rule, kind: exact ? 'exact' : 'wildcard', calls: new Set(same.map((a) => a.call)), distinct });
    }
  }
  return [...out.values()];
}

/**
 * The deepest folder above `file` that holds at least `min` of `files`: never the root itself or a folder holding
 * it (a whole project, home or file system), nor one whose rule is banned.
 */
function folderFor(
  file: string,
  files: readonly string[],
  min: number,
  root: string,
  isBanned: (pattern: string) => boolean,
): string | undefined {
  for (let folder = path.dirname(file); folder !== path.dirname(folder); folder = path.dirname(folder)) {
    if (folder === root || isInside(root, folder)) return undefined;
    if (isBanned(`${pathPattern(folder, root)}/**`)) continue;
    if (files.filter((f) => isInside(f, folder)).length >= min) return folder;
  }
  return undefined;
}

/** A path as a rule writes it: `/` and the path from the settings file's root below it, else `//` and the absolute path. */
function pathPattern(absolute: string, root: string): string {
  return isInside(absolute, root)
    ? `/${path.relative(root, absolute).split(path.sep).join('/')}`
    : `/${absolute}`;
}

type BashAtom = Extract<Atom, { kind: 'bash' }>;

/** Bash rules for atoms sharing their first `depth` words: one wildcard where it is safe and supported, else deeper. */
function ladder(
  atoms: readonly BashAtom[],
  depth: number,
  minDistinct: number,
  banned: ReadonlyMap<string, RefusedRule>,
  wider?: Candidate['wider'],
): Candidate[] {
  const lines = new Set(atoms.map((a) => a.line));
  const calls = new Set(atoms.map((a) => a.call));
  if (lines.size === 1) {
    const exact = exactRule(atoms[0]!, banned);
    return exact ? [{ rule: exact, kind: 'exact', calls, distinct: 1, ...(wider ? { wider } : {}) }] : [];
  }
  const prefix = atoms[0]!.words.slice(0, depth);
  const rule = writable(prefix) ? `Bash(${shellWords(prefix)} *)` : undefined;
  let nextWider = wider;
  const code = atoms.some((a) => a.runsCode);
  // The narrowest wildcard left out is the one the report names beside the rules below it.
  if (rule && !banned.has(rule) && code) {
    // A code runner's wildcard would admit forms never used (another option, file or configuration that chooses
    // the code): code runners stay exact.
    nextWider = {
      rule,
      calls,
      why: `${shellWords(prefix)} runs code: its wildcard would admit forms never used (other options, files or configuration choosing the code)`,
    };
  } else if (rule && !banned.has(rule)) {
    const witness = broadWitness(rule);
    if (witness === undefined && lines.size >= minDistinct)
      return [{ rule, kind: 'wildcard', calls, distinct: lines.size, ...(wider ? { wider } : {}) }];
    nextWider = {
      rule,
      calls,
      why:
        witness !== undefined
          ? `its wildcard chooses the code that runs (it admits ${redact(witness)})`
          : `${lines.size} distinct commands: fewer than the ${minDistinct} a wildcard needs`,
    };
  } else if (rule) {
    const b = banned.get(rule)!;
    nextWider = { rule, calls, why: `${b.why}${b.witness ? `: ${b.witness}` : ''}` };
  }
  const out: Candidate[] = [];
  const bare = atoms.filter((a) => a.words.length <= depth);
  if (bare.length > 0) out.push(...ladder(bare, depth, minDistinct, banned, nextWider).slice(0, 1));
  const longer = atoms.filter((a) => a.words.length > depth);
  for (const group of groupBy(longer, (a) => a.words[depth]!).values())
    out.push(...ladder(group, depth + 1, minDistinct, banned, nextWider));
  return out;
}

function writable(words: readonly string[]): boolean {
  return words.length > 0 && !words.some((w) => w === '' || /[*\n]/.test(w) || holdsSecret(w));
}

function exactRule(atom: BashAtom, banned: ReadonlyMap<string, RefusedRule>): string | undefined {
  if (!writable(atom.words) || /[*\n]/.test(atom.line)) return undefined;
  const rule = `Bash(${atom.line})`;
  return banned.has(rule) ? undefined : rule;
}

function groupBy<T>(list: readonly T[], key: (t: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const x of list) out.set(key(x), [...(out.get(key(x)) ?? []), x]);
  return out;
}

function withRules(
  settings: LoadedSettings,
  rules: readonly { rule: string }[],
  file: ScopeFile,
): LoadedSettings {
  let out = settings;
  for (const r of rules) out = withRuleEdit(out, { op: 'add', behavior: 'allow', rule: r.rule }, file);
  return out;
}

/** Whether a rule could change a corpus call's decision: the same tool, and for Bash the same program named. */
function mayMatch(rule: string, entry: CorpusEntry): boolean {
  const tool = entry.call.tool ?? 'Bash';
  const bash = /^Bash\((\S+)/.exec(rule);
  if (bash) {
    if (tool !== 'Bash') return false;
    const command = entry.call.command ?? (entry.call.input?.command as string | undefined) ?? '';
    return command.includes(bash[1]!.replace(/\)$/, ''));
  }
  const family = /^(\w+)\(/.exec(rule)?.[1] ?? rule;
  if (family === 'Edit') return ['Edit', 'Write', 'MultiEdit', 'NotebookEdit'].includes(tool);
  if (family === 'Read') return ['Read', 'Glob', 'Grep', 'LS'].includes(tool);
  return tool === family;
}
