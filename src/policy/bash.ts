import { join } from 'node:path';
import type { Analysis, CodeExecution, FileEffect, SimpleCommand } from '../bash/index.js';
import {
  analyze,
  checkProgram,
  commandLine,
  effectsOf,
  onlyRunsCommand,
  programSpec,
  unknownWords,
} from '../bash/index.js';
import type { Behavior, PatternRule, PermissionRule } from '../rules/index.js';
import { matchPatternRule } from '../rules/index.js';
import { decideEffect, writesNothing } from './bash-effects.js';
import {
  allowNames,
  allowRuleMatches,
  type CommandViews,
  commandWords,
  coversWord,
  denyMatches,
  lineOf,
  mayMatch,
  verbLines,
  viewsOf,
} from './bash-match.js';
import { isCodeRunnerRule, relocatingWord } from './broad.js';
import type { DecisionContext } from './context.js';
import { credentialRedirect } from './credential-options.js';
import { destructionOf } from './destruction.js';
import { foreignRepositories } from './git-folders.js';
import { resolveGitOperands } from './git-operands.js';
import { withoutOwnRepository } from './own-repository.js';
import { isInside, realPath } from './paths.js';
import { possibleFiles } from './possible-files.js';
import { type ProjectPlace, projectFilesProblem } from './project-files/index.js';
import { checkReadOnly, type ReadOnlyCheck, runTimeWordsHarmless } from './readonly.js';
import { type RunTimeOperands, runTimeOperands, withoutHarnessInput } from './run-time-operands.js';
import { callsItself, runawayProcesses } from './runaway.js';
import { isShipped, overridesAll } from './tiers.js';
import { type PartVerdict, type RuleRef, ruleName, ruleRef } from './verdict.js';
import { mayRepeat, workingFolders } from './working-folders.js';

export const MAX_COMMAND_CHARS = 10_000;
export const MAX_PARTS = 50;

/** File commands that acceptEdits mode allows, as Claude Code does, within the permitted folders. */
const ACCEPT_EDITS = new Set(['mkdir', 'touch', 'mv', 'cp', 'rm', 'rmdir', 'ln']);

/** Wrappers that only change how a command runs: `Bash(npm test)` also allows `timeout 5 npm test`. */
const TRANSPARENT = new Set([
  'timeout',
  'time',
  'nice',
  'nohup',
  'stdbuf',
  'command',
  'builtin',
  'xargs',
  // macOS: keeping the machine awake, choosing the architecture, recording the session (BSD script's file is
  // decided as a write).
  'caffeinate',
  'arch',
  'script',
  // Runs the command after it and filters its output (its own subcommands have no wrapped command).
  'rtk',
]);

interface Decided {
  part: PartVerdict;
  /** The allow rule, when one allowed the command: wrapped commands may be covered by it. */
  allowedBy?: PermissionRule;
  views: CommandViews;
  /** Operands handed over at run time by a producer of paths: the parts that decide them, the words they replace. */
  runTime?: RunTimeOperands;
  /**
   * A read by its words that the files it reads where it runs make load code, connect elsewhere or write (an
   * ansible.cfg, a project `.npmrc`): not a read.
   */
  loadsProjectCode?: true;
}

/**
 * Decides a Bash call from its analysis: every simple and nested command is a part, decided on its own; so is
 * every file it reads or writes. The strictest part decides.
 */
export function classifyBash(given: Analysis, ctx: DecisionContext): PartVerdict[] {
  const analysis = withoutOwnRepository(given, ctx) ?? given;
  const parts: PartVerdict[] = [];
  const whole = (by: PartVerdict['by'], reason: string) =>
    parts.push({ subject: 'the whole command', decision: 'ask', by, reason });
  if (analysis.opaque) {
    whole('opaque', `cannot be fully analysed: ${analysis.problems[0]?.message ?? 'unknown problem'}`);
    parts.push(...deniedLines(analysis, ctx));
  }
  if (analysis.source.length > MAX_COMMAND_CHARS)
    whole('size', `longer than ${MAX_COMMAND_CHARS} characters`);
  if (analysis.commands.length > MAX_PARTS) whole('size', `more than ${MAX_PARTS} commands`);
  const cwds = workingFolders(analysis, ctx);
  parts.push(...foreignRepositories(analysis, ctx, cwds));
  parts.push(...runawayProcesses(analysis));
  const decided = new Map<number, Decided>();
  const stale = staleInputs(analysis, ctx);
  // Whether a command that runs before this one (earlier on the line, or any when it may run again) may change
  // the repository it reads.
  const changed = (cmd: SimpleCommand) =>
    analysis.compoundRedirects.some((r) => r.writes) ||
    analysis.commands.some(
      (c) =>
        c.id !== cmd.id &&
        (c.id < cmd.id || mayRepeat(cmd)) &&
        c.nested?.carrier !== cmd.id &&
        cmd.nested?.carrier !== c.id &&
        ((c.argv.length > 0 && !isReadOnlyCommand(c, viewsOf(c, ctx.home))) ||
          c.redirects.some((r) => r.writes)),
    );
  for (const written of analysis.commands) {
    const cmd = withoutHarnessInput(written, analysis);
    const d = decideCommand(cmd, analysis, ctx, decided, cwds, changed);
    d.part.readOnly = !d.loadsProjectCode && isReadOnlyCommand(cmd, d.views);
    decided.set(cmd.id, d);
    parts.push(d.part);
    // An allow rule vouches for what the command it names does to its operands inside the permitted folders;
    // a file an option names is checked as a redirection to it is.
    const covered = d.part.by === 'rule' && d.part.decision === 'allow' ? d.part : undefined;
    if (covered) {
      const unknown = unvouchedEffects(cmd, d.allowedBy ?? covered, d.views);
      if (unknown) parts.push(unknown);
    }
    if (d.runTime) parts.push(...d.runTime.parts);
    for (const effect of cmd.effects) {
      if (d.runTime?.replaced.some((w) => w.span.start === effect.path.span.start)) continue;
      // The entries a tree write names are decided one by one, wherever the folder was named.
      const vouch = effect.via === 'argument' || effect.tree ? covered : undefined;
      parts.push(decideEffect(effect, cmd, ctx, cwds, vouch, false, stale?.(cmd)));
    }
    // A rule allowed a program whose files are not all listed: the words that may name files still meet the
    // Read deny and ask rules.
    if (covered && !cmd.effectsKnown && ctx.index.hasReadLimits()) {
      for (const path of possibleFiles(cmd)) {
        parts.push(decideEffect({ access: 'read', path, via: 'argument' }, cmd, ctx, cwds, undefined, true));
      }
    }
  }
  for (const path of analysis.listings) {
    parts.push(decideEffect({ access: 'metadata', path, via: 'argument' }, undefined, ctx, cwds));
  }
  for (const r of analysis.compoundRedirects) {
    if (r.writes)
      parts.push(decideEffect({ access: 'write', path: r.target, via: 'redirect' }, undefined, ctx, cwds));
    if (r.reads)
      parts.push(decideEffect({ access: 'read', path: r.target, via: 'redirect' }, undefined, ctx, cwds));
  }
  // `[[ -f foo ]]`, `(( n > 1 ))`: bash evaluates the test itself and runs no program, touches no file.
  if (parts.length === 0 && !analysis.opaque && analysis.source.trim() !== '') {
    parts.push({
      subject: 'the whole command',
      decision: 'allow',
      by: 'read-only',
      reason: 'runs no program: only tests and arithmetic the shell evaluates itself',
    });
  }
  return parts;
}

/**
 * What reads a write set computes from (an archive, a patch, the repository) another command of the same line may
 * change before it runs (`curl -o a.tar … && tar -xf a.tar`, `git fetch && git rebase origin/main`): for each
 * command, the first other command that is not read-only, as the reason its write set cannot be read beforehand.
 */
function staleInputs(
  analysis: Analysis,
  ctx: DecisionContext,
): ((cmd: SimpleCommand) => string | undefined) | undefined {
  const computed = analysis.commands.filter((c) =>
    c.effects.some((e) => e.names && e.names.kind !== 'unknown'),
  );
  if (computed.length === 0) return undefined;
  const writers = analysis.commands.filter(
    (c) => c.argv.length > 0 && !isReadOnlyCommand(c, viewsOf(c, ctx.home)),
  );
  const redirects = analysis.compoundRedirects.some((r) => r.writes);
  return (cmd) => {
    const other = writers.find(
      (c) => c.id !== cmd.id && c.nested?.carrier !== cmd.id && cmd.nested?.carrier !== c.id,
    );
    if (other)
      return `${commandText(other)}, earlier or beside it on the line, may change what it reads first`;
    const written = analysis.commands.some((c) => c.id !== cmd.id && c.redirects.some((r) => r.writes));
    if (written || redirects) return 'a redirection on the line may change what it reads first';
    return undefined;
  };
}

/**
 * bash runs a script line by line, so the lines before a syntax error do run. When the whole input cannot be
 * analysed, each line that can be is still checked against deny and ask rules.
 */
function deniedLines(analysis: Analysis, ctx: DecisionContext): PartVerdict[] {
  const lines = analysis.source.split('\n');
  if (lines.length < 2 || lines.length > MAX_PARTS) return [];
  const out: PartVerdict[] = [];
  for (const line of lines) {
    const a = analyze(line);
    if (a.opaque) continue;
    for (const cmd of a.commands) {
      if (cmd.argv.length === 0) continue;
      const v = viewsOf(cmd, ctx.home);
      for (const behavior of ['deny', 'ask'] as const) {
        const rule = firstRule(behavior, v, ctx, v.program);
        if (rule && (rule.type === 'pattern' || rule.parsed.kind !== 'tool')) {
          const p = part(
            cmd,
            behavior,
            'rule',
            `${behavior === 'deny' ? 'denied' : 'asked'} by ${ruleName(rule)}`,
            rule,
          );
          delete p.command;
          out.push(p);
          break;
        }
      }
    }
  }
  return out;
}

function commandText(cmd: SimpleCommand): string {
  return commandLine(cmd) || '(assignment)';
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

/** A rule's part, with what the command destroys or changes where its words show it. */
function withEffect(p: PartVerdict, cmd: SimpleCommand, v: CommandViews): PartVerdict {
  const effect = destructionOf(cmd, v);
  return effect === undefined ? p : { ...p, effect };
}

/** The first deny (or ask) rule that matches: robustly, through every view of the command. */
function firstRule(
  behavior: 'deny' | 'ask',
  v: CommandViews,
  ctx: DecisionContext,
  program: string,
): PermissionRule | PatternRule | undefined {
  for (const rule of matchingRules(behavior, v, ctx, program)) return rule;
  return undefined;
}

/** Every deny (or ask) rule that matches, in the order Bash patterns, bare `Bash`, command patterns. */
function* matchingRules(
  behavior: 'deny' | 'ask',
  v: CommandViews,
  ctx: DecisionContext,
  program: string,
): Generator<PermissionRule | PatternRule> {
  const family = v.family;
  const words = () => commandWords(v, ctx.home);
  const own = ctx.index.bashFor(behavior, program, words);
  const candidates = family === program ? own : [...own, ...ctx.index.bashFor(behavior, family, words)];
  for (const rule of candidates) {
    if (denyMatches(rule.parsed.pattern, v, ctx.home)) yield rule;
  }
  for (const rule of ctx.index.tool(behavior, 'Bash')) {
    if (rule.parsed.kind === 'tool') yield rule;
  }
  const subjects = [v.raw, v.based, lineOf(v), v.tilde];
  for (const rule of ctx.index.commandPatterns(behavior, subjects)) {
    if (!subjects.some((s) => matchPatternRule(rule, s))) continue;
    // A shipped ask rule that matches only where an option's value spells its verb (`az --query delete vm
    // show`) does not. A user's rule and every deny rule keep matching the words as written (fail closed).
    const verbs = behavior === 'ask' && isShipped(rule) ? verbLines(v, rule.text) : undefined;
    if (verbs && !verbs.some((s) => matchPatternRule(rule, s))) continue;
    yield rule;
  }
}

/**
 * A user's allow rule that overrides every shipped ask rule matching a static command (see `tiers.ts`); none
 * when an ask rule that is not shipped matches too.
 */
function overridingAllow(
  asks: readonly (PermissionRule | PatternRule)[],
  v: CommandViews,
  ctx: DecisionContext,
  program: string,
): PermissionRule | undefined {
  if (!v.allStatic || v.extraArgs || !asks.every(isShipped)) return undefined;
  for (const rule of ctx.index.bashFor('allow', program, () => commandWords(v, ctx.home))) {
    if (!isShipped(rule) && allowRuleMatches(rule, v) && overridesAll(rule, asks, ctx.home)) return rule;
  }
  return undefined;
}

/**
 * Every allow rule that matches, in the order Bash patterns, bare `Bash`, command patterns: the index narrows
 * the candidates, `allowRuleMatches` (which the critique also asks) decides each.
 */
function* allowRules(
  v: CommandViews,
  ctx: DecisionContext,
  program: string,
): Generator<PermissionRule | PatternRule> {
  for (const rule of ctx.index.bashFor('allow', program, () => commandWords(v, ctx.home))) {
    if (allowRuleMatches(rule, v)) yield rule;
  }
  for (const rule of ctx.index.tool('allow', 'Bash')) {
    if (allowRuleMatches(rule, v)) yield rule;
  }
  if (!v.allStatic || v.extraArgs) return;
  for (const rule of ctx.index.commandPatterns('allow', [v.raw])) {
    if (allowRuleMatches(rule, v)) yield rule;
  }
}

/**
 * The allow rule that decides: among those that match, one that vouches for the whole command (the code it runs,
 * the options its wildcard stands for), whatever their order; else the first that matches, whose reason says
 * what it does not vouch for.
 */
function chooseAllowRule(
  cmd: SimpleCommand,
  v: CommandViews,
  ctx: DecisionContext,
  program: string,
): PermissionRule | PatternRule | undefined {
  let first: PermissionRule | PatternRule | undefined;
  for (const rule of allowRules(v, ctx, program)) {
    first ??= rule;
    if (!coversCode(rule, cmd, v) && !unvouchedEffects(cmd, rule, v)) return rule;
  }
  return first;
}

function possibleRule(behavior: Behavior, v: CommandViews, ctx: DecisionContext, program: string) {
  if (v.allStatic) return undefined;
  return ctx.index.bash(behavior, program).find((rule) => mayMatch(rule.parsed.pattern, v, ctx.home));
}

/** Index of the argv word that carries the code, or -1 when no word does (an assignment, stdin). */
function codeWord(cmd: SimpleCommand, exec: CodeExecution): number {
  return cmd.argv.findIndex((w) => w.span.start <= exec.span.start && exec.span.start < w.span.end);
}

/**
 * The code the command runs that an allow rule does not vouch for. A rule approves running the program on the
 * words it shows: it vouches for code only when it names the word that carries it (`Bash(npm test)` for the
 * script `npm test` runs, `Bash(./build.sh)` for that script), never for code a `*` stands for, code read from
 * stdin or set through the environment.
 */
function coversCode(
  rule: PermissionRule | PatternRule,
  cmd: SimpleCommand,
  v: CommandViews,
): CodeExecution | undefined {
  for (const exec of cmd.executes) {
    if (exec.kind === 'stdin' || exec.kind === 'environment') return exec;
    if (rule.type !== 'permission' || rule.parsed.kind !== 'bash') return exec;
    if (runsOwnCode(rule, exec, v)) continue;
    const at = codeWord(cmd, exec);
    if (at < 0 || coversWord(rule.parsed.pattern, v, at)) return exec;
  }
  return undefined;
}

/**
 * A rule vouches for the code a runner finds where it runs: an option that makes it take its code, configuration
 * or shell from another place (`make -C src`, `cargo run --manifest-path ../x/Cargo.toml`, `just -f x`) is
 * vouched for only when the rule names the word that says where. `rule` matched `matched`, the command itself or
 * the one carrying it, in which the command's words start at `from`.
 */
function relocatedCode(
  rule: PermissionRule | PatternRule,
  cmd: SimpleCommand,
  v: CommandViews,
  matched: CommandViews,
  from: number,
): PartVerdict | undefined {
  const at = relocatingWord(v.program, v.values);
  if (at === undefined) return undefined;
  if (rule.type === 'permission' && rule.parsed.kind === 'tool') return undefined;
  if (
    rule.type === 'permission' &&
    rule.parsed.kind === 'bash' &&
    !coversWord(rule.parsed.pattern, matched, from + at)
  )
    return undefined;
  return part(
    cmd,
    'ask',
    'no-rule',
    `${v.values[at]} makes ${v.program} take its code from another place than the project's; ${ruleName(rule)} does not name it`,
  );
}

/**
 * A rule for a code runner (`Bash(npm run *)`, `Bash(python3 *)`) vouches for the project's code the runner
 * itself runs, a script or a target or inline code, as its words say; never for code a program reads from its
 * configuration, stdin or the environment. Auto mode sets such broad rules aside before they get here.
 */
function runsOwnCode(rule: PermissionRule | PatternRule, exec: CodeExecution, v: CommandViews): boolean {
  if (exec.kind !== 'script-file' && exec.kind !== 'interpreter-code' && exec.kind !== 'source-file')
    return false;
  if (exec.program !== v.program || !isCodeRunnerRule(rule, v.program)) return false;
  // The code elsewhere is the rule's when the rule names where (`Bash(make -C src *)`).
  const at = relocatingWord(v.program, v.values);
  return (
    at === undefined ||
    (rule.type === 'permission' && rule.parsed.kind === 'bash' && !coversWord(rule.parsed.pattern, v, at))
  );
}

/**
 * A program automode has a spec for, allowed by a rule whose wildcard stands for an option or a subcommand the
 * spec does not know: the rule approved the words, and nobody knows what those words make the program do, so
 * the call asks. A rule that names the word (`Bash(gh pr comment *)` for `pr`) vouches for it.
 */
function unvouchedEffects(
  cmd: SimpleCommand,
  rule: PermissionRule | PatternRule | PartVerdict,
  v: CommandViews,
): PartVerdict | undefined {
  const redirect = credentialRedirect(v);
  const pattern0 =
    'type' in rule && rule.type === 'permission' && rule.parsed.kind === 'bash'
      ? rule.parsed.pattern
      : undefined;
  if (redirect !== undefined && (!pattern0 || coversWord(pattern0, v, redirect))) {
    const name = 'type' in rule ? ruleName(rule) : (rule.rule?.text ?? 'an allow rule');
    return part(
      cmd,
      'ask',
      'file',
      `${v.values[redirect]} sends the credentials ${v.program} holds to a server the command names, stops checking it, logs them or reads a file into the request; ${name} approves the words shown, not where the credentials go`,
    );
  }
  const spec = programSpec(v.program);
  if (!spec || readOnlyOf(v).readOnly) return undefined;
  const unknown = unknownWords(spec, cmd.argv).find((word) => word.kind !== 'unlisted');
  if (!unknown) return undefined;
  const pattern =
    'type' in rule && rule.type === 'permission' && rule.parsed.kind === 'bash'
      ? rule.parsed.pattern
      : undefined;
  if (pattern && !coversWord(pattern, v, unknown.at)) return undefined;
  const name = 'type' in rule ? ruleName(rule) : (rule.rule?.text ?? 'an allow rule');
  return part(
    cmd,
    'ask',
    'file',
    `${unknown.what}, so what it does is unknown; ${name} approves the words shown, not effects nobody can see`,
  );
}

function decideCommand(
  cmd: SimpleCommand,
  analysis: Analysis,
  ctx: DecisionContext,
  decided: Map<number, Decided>,
  cwds: readonly string[] | undefined,
  changed: (cmd: SimpleCommand) => boolean,
): Decided {
  const v = resolveGitOperands(cmd, viewsOf(cmd, ctx.home), ctx, cwds, () => changed(cmd));
  const done = (p: PartVerdict, allowedBy?: PermissionRule): Decided =>
    allowedBy ? { part: p, allowedBy, views: v } : { part: p, views: v };
  if (cmd.argv.length === 0) {
    if (cmd.executes.length > 0) return done(hiddenCode(cmd, cmd.executes[0]!));
    return done(part(cmd, 'allow', 'read-only', 'only sets shell variables or redirects'));
  }
  const program = v.program;
  const deny = firstRule('deny', v, ctx, program);
  if (deny) return done(withEffect(part(cmd, 'deny', 'rule', `denied by ${ruleName(deny)}`, deny), cmd, v));
  const asks = [...matchingRules('ask', v, ctx, program)];
  const override = asks.length > 0 ? overridingAllow(asks, v, ctx, program) : undefined;
  if (asks[0] && !override)
    return done(withEffect(part(cmd, 'ask', 'rule', `asked by ${ruleName(asks[0])}`, asks[0]), cmd, v));
  if (override) {
    const hidden = coversCode(override, cmd, v);
    if (hidden) return done(hiddenCode(cmd, hidden, override));
    const moved = relocatedCode(override, cmd, v, v, 0);
    if (moved) return done(moved);
    const overridden = asks.map(ruleName).join(', ');
    const reason = `allowed by ${ruleName(override)}, which overrides the shipped ask ${overridden}`;
    return done({ ...part(cmd, 'allow', 'rule', reason, override), overrides: asks.map(ruleRef) }, override);
  }
  for (const behavior of v.allStatic ? [] : (['deny', 'ask'] as const)) {
    const rule = possibleRule(behavior, v, ctx, program);
    if (rule)
      return done(
        part(cmd, 'ask', 'dynamic', `arguments known only at run time may match ${ruleName(rule)}`, rule),
      );
  }
  if (cmd.name?.dynamic) return done(part(cmd, 'ask', 'dynamic', 'the program is only known at run time'));
  const allow = chooseAllowRule(cmd, v, ctx, program);
  if (allow) {
    const hidden = coversCode(allow, cmd, v);
    if (hidden) return done(hiddenCode(cmd, hidden, allow));
    const moved = relocatedCode(allow, cmd, v, v, 0);
    if (moved) return done(moved);
    const permission = allow.type === 'permission' ? allow : undefined;
    return done(part(cmd, 'allow', 'rule', `allowed by ${ruleName(allow)}`, allow), permission);
  }
  const covered = coveredByCarrier(cmd, decided, ctx);
  if (covered) {
    const hidden = coversCode(covered, cmd, v);
    if (hidden) return done(hiddenCode(cmd, hidden, covered));
    const carrier = cmd.nested ? decided.get(cmd.nested.carrier)?.views : undefined;
    const moved = carrier && relocatedCode(covered, cmd, v, carrier, carrier.values.length - v.values.length);
    if (moved) return done(moved);
    return done(
      part(cmd, 'allow', 'rule', `run by a command allowed by ${ruleName(covered)}`, covered),
      covered,
    );
  }
  const handed = handedOver(cmd, analysis, ctx, cwds, v);
  if (handed) return handed;
  if (v.extraArgs && (cmd.name?.path || !runTimeWordsHarmless(program)))
    return done(part(cmd, 'ask', 'dynamic', `${program} gets arguments only known at run time`));
  if (cmd.executes.length > 0) return done(hiddenCode(cmd, cmd.executes[0]!));
  if (analysis.functions.includes(program) && !cmd.name?.path) {
    if (callsItself(program, analysis)) {
      return done(
        part(cmd, 'ask', 'no-rule', `the function ${program} calls itself: it may run without end`),
      );
    }
    return done(
      part(cmd, 'allow', 'wrapper', `calls the function ${program}, whose commands are decided on their own`),
    );
  }
  if (isTransparentWrapper(cmd, analysis, v)) {
    return done(
      part(cmd, 'allow', 'wrapper', `${program} only runs the command it wraps, decided on its own`),
    );
  }
  if (isLiteralScript(cmd, v, ctx) && v.harmlessEnv) {
    return done(
      part(
        cmd,
        'allow',
        'wrapper',
        `${program} -c only runs the script it is given, decided command by command`,
      ),
    );
  }
  if (!v.inertEnv) return done(part(cmd, 'ask', 'no-rule', `no rule allows ${commandText(cmd)}`));
  const ro = readOnlyOf(v);
  const place = { program, cmd, words: v.values, network: cmd.network === true, cwds, ctx };
  const settings = ro.readOnly
    ? projectFilesProblem({ ...place, changedBefore: () => changed(cmd) })
    : undefined;
  if (settings) return { ...done(part(cmd, 'ask', 'no-rule', settings)), loadsProjectCode: true };
  if (ro.readOnly && !cmd.name?.path) {
    const secret = secretVariable(cmd);
    if (secret) {
      return done(part(cmd, 'ask', 'no-rule', `${program} may print the credential in $${secret}`));
    }
    if (!cmd.effectsKnown)
      return done(part(cmd, 'ask', 'file', `${program} may touch files that cannot be listed`));
    const writes = cmd.effects.some(
      (e) =>
        e.access !== 'read' &&
        e.access !== 'metadata' &&
        e.via !== 'redirect' &&
        !writesNothing(e, cmd, ctx, cwds),
    );
    if (!writes) return done(part(cmd, 'allow', 'read-only', ro.reason));
  }
  const service = serviceRead(cmd, v, ctx, { ...place, changedBefore: () => changed(cmd) });
  if (service?.decision === 'allow') return done(service);
  return done(noRule(cmd, ctx, v, service?.reason ?? (ro.known && !ro.readOnly ? ro.reason : undefined)));
}

/** A write of one file the command line names, which the file policy decides by its path. */
function namedWrite(e: FileEffect): boolean {
  return (e.access === 'write' || e.access === 'create') && e.tree !== true;
}

/**
 * A consumer that only reads its operands, given paths at run time by a producer of paths below known folders
 * (`find . -name '*.py' | xargs grep TODO`, `cat $(git ls-files)`, `find src -exec wc -l {} +`): allowed as the
 * read-only command it is with the folder in place of the paths, the reads of the folders decided as parts.
 */
function handedOver(
  cmd: SimpleCommand,
  analysis: Analysis,
  ctx: DecisionContext,
  cwds: readonly string[] | undefined,
  v: CommandViews,
): Decided | undefined {
  if (!v.extraArgs && !cmd.argv.some((w) => w.dynamic.includes('command'))) return undefined;
  const writesBesides = (ids: ReadonlySet<number>) =>
    analysis.compoundRedirects.some((r) => r.writes) ||
    analysis.commands.some(
      (c) =>
        c.redirects.some((r) => r.writes) ||
        (!ids.has(c.id) && c.argv.length > 0 && !isReadOnlyCommand(c, viewsOf(c, ctx.home))),
    );
  const runTime = runTimeOperands(cmd, analysis, ctx, cwds, writesBesides);
  if (!runTime) return undefined;
  const { nested: _, ...rest } = cmd;
  const fx = effectsOf({ argv: runTime.argv, assignments: cmd.assignments, program: v.program });
  const standIn: SimpleCommand = { ...rest, argv: runTime.argv, effects: fx.effects, effectsKnown: fx.known };
  const views = viewsOf(standIn, ctx.home);
  if (!views.inertEnv || !views.globsOnly || !fx.known) return undefined;
  if (!isReadOnlyCommand(standIn, views) || secretVariable(standIn)) return undefined;
  const place = { program: v.program, cmd: standIn, words: views.values, network: standIn.network === true };
  // The hand-over already refuses a line with any other write.
  if (projectFilesProblem({ ...place, cwds, ctx, changedBefore: () => false })) return undefined;
  // The stand-in word must be a file the consumer reads, not its pattern (`xargs grep` takes the first name as one).
  const stand = runTime.argv.filter((w) => !cmd.argv.includes(w));
  const read = (w: (typeof stand)[number]) =>
    fx.effects.some((e) => e.path === w && (e.access === 'read' || e.access === 'metadata'));
  if (!stand.every(read)) return undefined;
  const reason = `${v.program} only reads the files ${runTime.source} hands it`;
  return { part: part(cmd, 'allow', 'read-only', reason), views: v, runTime };
}

/**
 * A read of the user's own service (`kubectl get pods`, `gh pr list`) where the settings name the program in
 * `automode.readServices`: allowed, with that entry as its provenance, when every word is known before the
 * command runs and its spec's service-read allow-list takes them all, no option sends the credentials
 * elsewhere, no assignment on the line steers the program (`KUBECONFIG=…`: `harmlessEnv`, checked before) and
 * the command writes no file but ones it names, each decided by its path as a redirect's is. Otherwise the reason it is not one, for the ask; undefined where the settings do
 * not name the program.
 */
function serviceRead(
  cmd: SimpleCommand,
  v: CommandViews,
  ctx: DecisionContext,
  place: ProjectPlace,
): PartVerdict | undefined {
  const entry = ctx.readServices?.get(v.program);
  if (!entry) return undefined;
  const refuse = (why: string) => part(cmd, 'ask', 'no-rule', `not a service read: ${why}`);
  if (cmd.name?.path) return refuse(`${cmd.argv[0]?.value} is named by a path`);
  if (!v.allStatic || v.extraArgs || !v.harmlessEnv)
    return refuse('words or variables known only at run time');
  if (cmd.executes.length > 0) return refuse(`${v.program} runs code`);
  const redirect = credentialRedirect(v);
  if (redirect !== undefined)
    return refuse(`${v.values[redirect]} sends the credentials ${v.program} holds elsewhere`);
  if (!cmd.effectsKnown) return refuse(`${v.program} may touch files that cannot be listed`);
  // A file the command line names for the output (`curl -o page.html`, `> out.json`) is decided by its path, as
  // any write is; one whose name it does not show, a removal or a run is not a read.
  if (cmd.effects.some((e) => e.access !== 'read' && e.access !== 'metadata' && !namedWrite(e)))
    return refuse(`${v.program} writes files`);
  const settings = projectFilesProblem(place);
  if (settings) return refuse(settings);
  const spec = programSpec(v.program);
  if (!spec) return refuse(`${v.program} has no service-read allow-list`);
  const check = checkProgram(spec, v.words, true, 'serviceRead');
  if (!check.readOnly) return refuse(check.reason);
  const where = entry.provenance;
  const rule: RuleRef = {
    text: entry.program,
    behavior: 'allow',
    source: where.source,
    index: where.index,
    pointer: where.pointer,
    label: 'automode.readServices',
    ...(where.file === undefined ? {} : { file: where.file }),
    ...(where.line === undefined ? {} : { line: where.line, column: where.column ?? 1 }),
  };
  return {
    ...part(cmd, 'allow', 'service-read', `${check.reason}, as automode.readServices turns on`),
    rule,
  };
}

/**
 * A command a wrapper runs (`sudo apt update`) is covered by the rule that allowed the wrapper only when that
 * rule names the wrapped words: `Bash(sudo apt update)` covers `apt update`, `Bash(sudo *)` does not.
 */
function coveredByCarrier(
  cmd: SimpleCommand,
  decided: Map<number, Decided>,
  ctx: DecisionContext,
): PermissionRule | undefined {
  if (cmd.nested?.kind !== 'wrapper' || cmd.nested.extraArgs) return undefined;
  const carrier = decided.get(cmd.nested.carrier);
  const first = carrier?.allowedBy;
  if (!carrier || !first || first.parsed.kind !== 'bash' || !cmd.argv[0]) return undefined;
  const views = carrier.views;
  const from = views.values.length - cmd.argv.length;
  if (from <= 0) return undefined;
  if (allowNames(first.parsed.pattern, views, from)) return first;
  // A later rule may name the wrapped words that the first one covers with `*`: `Bash(npx *)`, `Bash(npx tsc *)`.
  for (const rule of ctx.index.bashFor('allow', views.program, () => commandWords(views, ctx.home))) {
    if (allowRuleMatches(rule, views) && allowNames(rule.parsed.pattern, views, from)) return rule;
  }
  return undefined;
}

function isReadOnlyCommand(cmd: SimpleCommand, v: CommandViews): boolean {
  if (cmd.argv.length === 0)
    return cmd.executes.length === 0 && cmd.effects.every((e) => e.access === 'read');
  if (cmd.executes.length > 0 || cmd.name?.dynamic || cmd.name?.path || !cmd.effectsKnown) return false;
  if (cmd.effects.some((e) => e.access !== 'read' && e.access !== 'metadata')) return false;
  return readOnlyOf(v).readOnly;
}

/** Variables that by their name hold a credential: printing one exposes it. */
const SECRET_NAME =
  /\$\{?([A-Za-z_]*(?:TOKEN|SECRET|PASSW|PASSPHRASE|API_?KEY|PRIVATE_?KEY|ACCESS_?KEY|CREDENTIAL|AUTH)[A-Za-z0-9_]*)/i;

function secretVariable(cmd: SimpleCommand): string | undefined {
  for (const w of cmd.argv) {
    if (w.static) continue;
    const m = SECRET_NAME.exec(w.text);
    if (m) return m[1];
  }
  return undefined;
}

function readOnlyOf(v: CommandViews): ReadOnlyCheck {
  v.readOnly ??= checkReadOnly(v.program, v.values, v.globsOnly, v.words);
  return v.readOnly;
}

function hiddenCode(cmd: SimpleCommand, e: CodeExecution, rule?: PermissionRule | PatternRule): PartVerdict {
  if (e.kind === 'script-file' || e.kind === 'source-file') {
    const what = e.code && !e.via.endsWith(` ${e.code}`) ? `${e.via} ${e.code}` : e.via;
    const named = rule ? `; ${ruleName(rule)} does not name it` : '';
    return part(
      cmd,
      'ask',
      'no-rule',
      `no rule allows running ${what} (${e.kind} run by ${e.program})${named}`,
    );
  }
  const what = `runs code that cannot be analysed (${e.kind} via ${e.program} ${e.via})`;
  const reason = rule ? `${what}; ${ruleName(rule)} does not name that code` : what;
  return part(cmd, 'ask', canBeShown(e) ? 'hidden-code' : 'unseen-code', reason);
}

/**
 * Code the model can be told about: inline code it can read, or a file the project holds (a script, a Dockerfile
 * or Makefile a program option reads, a sourced file). Code piped in on stdin (`curl … | sh`), set through the
 * environment, or inline code only known at run time is seen by no one.
 */
function canBeShown(e: CodeExecution): boolean {
  if (e.kind === 'stdin' || e.kind === 'environment') return false;
  return e.kind !== 'interpreter-code' || e.code !== undefined;
}

/** `unsafe`: why a program of the read-only table is not read-only here (`sed -i` edits files). */
function noRule(cmd: SimpleCommand, ctx: DecisionContext, v: CommandViews, unsafe?: string): PartVerdict {
  const program = v.program;
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
  const why = unsafe ? ` (not a read-only default: ${unsafe})` : '';
  return part(cmd, 'ask', 'no-rule', `no rule allows ${commandText(cmd)}${why}`);
}

/**
 * `bash -c 'SCRIPT' [NAME ARGS…]` with SCRIPT written out: the analysis reads SCRIPT as it reads the line itself,
 * every command in it a part of its own (zsh and ksh only when SCRIPT keeps to what they read as bash does:
 * `posixShell`). `-e`, `-u` and `-x` change only when the script stops and what it prints; so does `-v` (it
 * echoes the script) and `-o pipefail` and the like.
 *
 * The shell may also run the user's startup files: a login shell (`-l`, `--login`) `/etc/profile` and
 * `~/.bash_profile`, `~/.bash_login` or `~/.profile` (zsh `~/.zprofile`, `~/.zlogin`), an interactive one (`-i`)
 * `~/.bashrc` (zsh `~/.zshrc`, ksh `$ENV` or `~/.kshrc`), and zsh always `/etc/zshenv` and `~/.zshenv`. They are
 * the user's own environment, which the agent's own shell already runs, and the agent cannot write them without
 * asking (`PROTECTED_FILES` in paths.ts, in every mode). `BASH_ENV`, `ENV` and `ZDOTDIR` set on the line move them
 * (not harmless), and when the home folder is inside the project or another folder the agent may write, or a
 * startup file links into one, they are project files: then only bash and sh without `-l` and `-i`, which read
 * none, are allowed. bash's `--norc` and `--noprofile` only leave some out.
 */
function isLiteralScript(cmd: SimpleCommand, v: CommandViews, ctx: DecisionContext): boolean {
  if (!SCRIPT_SHELLS.has(v.program) || cmd.name?.path || !v.allStatic) return false;
  let command = false;
  let startup = v.program === 'zsh' || v.program === 'ksh';
  for (let i = 1; i < v.values.length; i++) {
    const word = v.values[i]!;
    if (/^-[euxvcli]+$/.test(word)) {
      command ||= word.includes('c');
      startup ||= /[li]/.test(word);
    } else if (word === '--login' && v.program !== 'ksh') startup = true;
    else if ((word === '--norc' || word === '--noprofile') && v.program === 'bash' && !command) continue;
    else if (word === '-o' && SCRIPT_SET_OPTIONS.has(v.values[i + 1] ?? '')) i++;
    else return command && !word.startsWith('-') && !(startup && homeWritable(ctx));
  }
  return false;
}

/** The user's startup files, in the home folder: bash's, sh's, zsh's and ksh's. */
const STARTUP_FILES = [
  '.profile',
  '.bash_profile',
  '.bash_login',
  '.bashrc',
  '.zshenv',
  '.zprofile',
  '.zshrc',
  '.zlogin',
  '.zlogout',
  '.kshrc',
];

/**
 * Whether the shells' startup files are inside a folder the agent may write: the home folder is, or a startup
 * file is a link into one (a dotfiles repository as the project, whose `bashrc` no protected name covers).
 */
function homeWritable(ctx: DecisionContext): boolean {
  const folders = [ctx.cwd, ...(ctx.root ? [ctx.root] : []), ...ctx.additionalDirectories];
  const inside = (path: string) => folders.some((folder) => isInside(path, folder));
  if (inside(ctx.home)) return true;
  return STARTUP_FILES.some((name) => {
    const path = join(ctx.home, name);
    const real = realPath(path, ctx.realPaths);
    return real !== undefined && real !== path && inside(real);
  });
}

/** The `set -o` names that change only when a script stops and what it prints, never what it runs or reads. */
const SCRIPT_SET_OPTIONS = new Set(['errexit', 'nounset', 'xtrace', 'verbose', 'pipefail', 'errtrace']);

const SCRIPT_SHELLS = new Set(['bash', 'sh', 'dash', 'zsh', 'ksh']);

/**
 * `env [-i] [-u NAME]… NAME=value… COMMAND` and `xargs` with options that only make it run its command: they set
 * or empty the environment of the command they run (its assignments decided with it), or feed it words.
 * Removing variables leaves every program its defaults, which no read-only allow-list counts on being changed.
 */
function isTransparentWrapper(cmd: SimpleCommand, analysis: Analysis, v: CommandViews): boolean {
  if (!(TRANSPARENT.has(v.program) || v.program === 'env') || cmd.name?.path) return false;
  if (
    (v.program === 'xargs' || v.program === 'env') &&
    !onlyRunsCommand({ argv: cmd.argv, assignments: [], program: v.program })
  )
    return false;
  if (!v.allStatic && v.program !== 'time') return false;
  // rtk reads variables of its own (RTK_DB_PATH moves the history database it writes).
  if (v.program === 'rtk' && !v.harmlessEnv) return false;
  return analysis.commands.some((c) => c.nested?.carrier === cmd.id && c.nested.kind === 'wrapper');
}
