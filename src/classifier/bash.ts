import type { Analysis, FileEffect, SimpleCommand, Word } from '../bash/types.js';
import { matchPatternRule } from '../rules/pattern-rules.js';
import type { Behavior, PatternRule, PermissionRule } from '../rules/types.js';
import { allowMatches, type CommandViews, denyMatches, mayMatch, viewsOf } from './bash-match.js';
import type { DecisionContext } from './context.js';
import { decideFile, type FileAccessKind } from './files.js';
import { resolvePath, resolveWordPath } from './paths.js';
import { checkReadOnly } from './readonly.js';
import { isStricter, type PartVerdict, ruleRef } from './verdict.js';

export const MAX_COMMAND_CHARS = 10_000;
export const MAX_PARTS = 50;

/** Wrappers that only change how a command runs: `Bash(npm test)` also allows `timeout 5 npm test`. */
/** File commands that acceptEdits mode allows, as Claude Code does, within the permitted folders. */
const ACCEPT_EDITS = new Set(['mkdir', 'touch', 'mv', 'cp', 'rm', 'rmdir', 'ln']);

const TRANSPARENT = new Set(['timeout', 'time', 'nice', 'nohup', 'stdbuf', 'command', 'builtin', 'xargs']);

/**
 * Decides a Bash call from its analysis: every simple and nested command is a part, decided on its own; so is
 * every file it reads or writes. The strictest part decides.
 */
export function classifyBash(analysis: Analysis, ctx: DecisionContext): PartVerdict[] {
  const parts: PartVerdict[] = [];
  if (analysis.opaque) {
    const first = analysis.problems[0];
    parts.push({
      subject: 'the whole command',
      decision: 'ask',
      by: 'opaque',
      reason: `cannot be fully analysed: ${first?.message ?? 'unknown problem'}`,
    });
  }
  if (analysis.source.length > MAX_COMMAND_CHARS) {
    parts.push({
      subject: 'the whole command',
      decision: 'ask',
      by: 'size',
      reason: `longer than ${MAX_COMMAND_CHARS} characters`,
    });
  }
  if (analysis.commands.length > MAX_PARTS) {
    parts.push({
      subject: 'the whole command',
      decision: 'ask',
      by: 'size',
      reason: `more than ${MAX_PARTS} commands`,
    });
  }
  const cwds = workingFolders(analysis, ctx);
  const byId = new Map<number, PartVerdict>();
  for (const cmd of analysis.commands) {
    const part = decideCommand(cmd, analysis, ctx, byId);
    part.readOnly = isReadOnlyCommand(cmd);
    byId.set(cmd.id, part);
    parts.push(part);
    for (const effect of cmd.effects) {
      const covered =
        part.by === 'rule' && part.decision === 'allow' && effect.via !== 'redirect' ? part : undefined;
      parts.push(decideEffect(effect, cmd, ctx, cwds, covered));
    }
  }
  for (const r of analysis.compoundRedirects) {
    if (r.writes)
      parts.push(decideEffect({ access: 'write', path: r.target, via: 'redirect' }, undefined, ctx, cwds));
    if (r.reads)
      parts.push(decideEffect({ access: 'read', path: r.target, via: 'redirect' }, undefined, ctx, cwds));
  }
  return parts;
}

function commandText(cmd: SimpleCommand): string {
  const env = cmd.assignments.map((a) => `${a.name}=${a.value.value}`);
  return [...env, ...cmd.argv.map((w) => w.value)].join(' ') || '(assignment)';
}

function part(
  cmd: SimpleCommand,
  decision: Behavior,
  by: PartVerdict['by'],
  reason: string,
  rule?: PermissionRule | PatternRule,
): PartVerdict {
  const p: PartVerdict = { command: cmd.id, subject: commandText(cmd), decision, by, reason };
  if (rule) p.rule = ruleRef(rule);
  return p;
}

function firstRule(
  behavior: Behavior,
  v: CommandViews,
  ctx: DecisionContext,
  program: string,
): PermissionRule | PatternRule | undefined {
  for (const rule of ctx.index.bash(behavior, program)) {
    if (behavior === 'allow' ? allowMatches(rule.parsed.pattern, v) : denyMatches(rule.parsed.pattern, v)) {
      return rule;
    }
  }
  for (const rule of ctx.index.tool(behavior, 'Bash')) {
    if (rule.parsed.kind === 'tool') return rule;
  }
  for (const rule of ctx.index.pattern(behavior, 'command', 'Bash')) {
    const subjects =
      behavior === 'allow' ? (v.allStatic ? [v.raw] : []) : [v.raw, v.based, v.normalized.line];
    if (subjects.some((s) => matchPatternRule(rule, s))) return rule;
  }
  return undefined;
}

function possibleRule(behavior: Behavior, v: CommandViews, ctx: DecisionContext, program: string) {
  return ctx.index.bash(behavior, program).find((rule) => mayMatch(rule.parsed.pattern, v));
}

function decideCommand(
  cmd: SimpleCommand,
  analysis: Analysis,
  ctx: DecisionContext,
  decided: Map<number, PartVerdict>,
): PartVerdict {
  if (cmd.argv.length === 0) {
    if (cmd.executes.length > 0) return hiddenCode(cmd);
    return part(cmd, 'allow', 'read-only', 'only sets shell variables or redirects');
  }
  const v = viewsOf(cmd);
  const program = v.normalized.program;
  for (const behavior of ['deny', 'ask'] as const) {
    const rule = firstRule(behavior, v, ctx, program);
    if (rule)
      return part(cmd, behavior, 'rule', `${behavior === 'deny' ? 'denied' : 'asked'} by ${rule.text}`, rule);
  }
  for (const behavior of ['deny', 'ask'] as const) {
    const rule = possibleRule(behavior, v, ctx, program);
    if (rule) {
      return part(cmd, 'ask', 'dynamic', `arguments known only at run time may match ${rule.text}`, rule);
    }
  }
  if (cmd.name?.dynamic) return part(cmd, 'ask', 'dynamic', 'the program is only known at run time');
  const allow = firstRule('allow', v, ctx, program);
  if (allow) return part(cmd, 'allow', 'rule', `allowed by ${allow.text}`, allow);
  const carrier = cmd.nested ? decided.get(cmd.nested.carrier) : undefined;
  if (
    cmd.nested?.kind === 'wrapper' &&
    carrier?.decision === 'allow' &&
    carrier.by === 'rule' &&
    carrier.rule
  ) {
    const p = part(cmd, 'allow', 'rule', `run by a command allowed by ${carrier.rule.text}`);
    p.rule = carrier.rule;
    return p;
  }
  if (cmd.executes.length > 0) return hiddenCode(cmd);
  if (analysis.functions.includes(program) && !cmd.name?.path) {
    return part(
      cmd,
      'allow',
      'wrapper',
      `calls the function ${program}, whose commands are decided on their own`,
    );
  }
  if (isTransparentWrapper(cmd, analysis, v)) {
    return part(cmd, 'allow', 'wrapper', `${program} only runs the command it wraps, decided on its own`);
  }
  if (!v.harmlessEnv) return part(cmd, 'ask', 'no-rule', `no rule allows ${commandText(cmd)}`);
  const ro = checkReadOnly(program, v.values, v.allStatic);
  if (ro.readOnly && !cmd.name?.path) {
    if (!cmd.effectsKnown)
      return part(cmd, 'ask', 'file', `${program} may touch files that cannot be listed`);
    const writes = cmd.effects.some(
      (e) => e.access !== 'read' && e.access !== 'metadata' && e.via !== 'redirect',
    );
    if (!writes) return part(cmd, 'allow', 'read-only', ro.reason);
  }
  return noRule(cmd, ctx, v);
}

function isReadOnlyCommand(cmd: SimpleCommand): boolean {
  if (cmd.argv.length === 0)
    return cmd.executes.length === 0 && cmd.effects.every((e) => e.access === 'read');
  if (cmd.executes.length > 0 || cmd.name?.dynamic || cmd.name?.path || !cmd.effectsKnown) return false;
  if (cmd.effects.some((e) => e.access !== 'read' && e.access !== 'metadata')) return false;
  const v = viewsOf(cmd);
  return checkReadOnly(v.normalized.program, v.values, v.allStatic).readOnly;
}

function hiddenCode(cmd: SimpleCommand): PartVerdict {
  const e = cmd.executes[0]!;
  return part(
    cmd,
    'ask',
    'hidden-code',
    `runs code that cannot be analysed (${e.kind} via ${e.program} ${e.via})`,
  );
}

function noRule(cmd: SimpleCommand, ctx: DecisionContext, v: CommandViews): PartVerdict {
  const program = v.normalized.program;
  if (
    ctx.mode === 'acceptEdits' &&
    ACCEPT_EDITS.has(program) &&
    v.allStatic &&
    cmd.effectsKnown &&
    !cmd.name?.path
  ) {
    return part(
      cmd,
      'allow',
      'mode',
      `acceptEdits allows ${program}; the files it touches are decided on their own`,
    );
  }
  if (ctx.mode === 'auto' && !ctx.hasModel) {
    return part(cmd, 'ask', 'no-model', `no rule decides ${commandText(cmd)} and no model is configured`);
  }
  return part(cmd, 'ask', 'no-rule', `no rule allows ${commandText(cmd)}`);
}

function isTransparentWrapper(cmd: SimpleCommand, analysis: Analysis, v: CommandViews): boolean {
  if (!TRANSPARENT.has(v.normalized.program) || cmd.name?.path) return false;
  if (v.normalized.program === 'xargs' && v.values.length > 1 && v.values[1]!.startsWith('-')) return false;
  if (!v.allStatic && v.normalized.program !== 'time') return false;
  return analysis.commands.some((c) => c.nested?.carrier === cmd.id && c.nested.kind === 'wrapper');
}

/** Working folders a relative path may be resolved against: cwd, and every folder a `cd` in the command names. */
function workingFolders(analysis: Analysis, ctx: DecisionContext): string[] | undefined {
  const folders = [ctx.cwd];
  for (const cmd of analysis.commands) {
    const program = cmd.name?.program;
    if (program !== 'cd' && program !== 'pushd' && program !== 'popd') continue;
    const target = cmd.argv[1];
    if (program === 'popd' || !target) continue;
    if (!target.static) return undefined;
    folders.push(resolvePath(target.value, ctx));
  }
  return folders;
}

function decideEffect(
  effect: FileEffect,
  cmd: SimpleCommand | undefined,
  ctx: DecisionContext,
  cwds: string[] | undefined,
  covered?: PartVerdict,
): PartVerdict {
  const access: FileAccessKind =
    effect.access === 'read' || effect.access === 'metadata'
      ? 'read'
      : effect.access === 'delete'
        ? 'delete'
        : 'write';
  const paths = resolveAll(effect.path, ctx, cwds);
  let worst: PartVerdict | undefined;
  for (const path of paths) {
    const req = { access, path, shown: effect.path.value, tool: 'Bash' } as const;
    const p = decideFile(covered ? { ...req, coveredByRule: covered } : req, ctx);
    if (!worst || isStricter(p.decision, worst.decision)) worst = p;
  }
  const result = worst!;
  if (cmd) result.command = cmd.id;
  return result;
}

/** A relative path is checked against every folder the command may be in; a dynamic `cd` makes it unknown. */
function resolveAll(word: Word, ctx: DecisionContext, cwds: string[] | undefined): Array<string | undefined> {
  const absolute = word.static && (word.value.startsWith('/') || word.value.startsWith('~'));
  if (absolute || /^"?\$\{?HOME/.test(word.text)) return [resolveWordPath(word, ctx)];
  if (!cwds) return [undefined];
  return cwds.map((cwd) => resolveWordPath(word, ctx, cwd));
}
