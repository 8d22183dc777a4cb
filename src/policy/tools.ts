import braces from 'braces';
import type { Behavior, PatternRule, PermissionRule } from '../rules/index.js';
import { matchDomain, matchParamRule, matchPatternRule } from '../rules/index.js';
import type { DecisionContext } from './context.js';
import { decideFile, type FileAccessKind } from './files.js';
import { resolvePath } from './paths.js';
import { type PartVerdict, ruleName, ruleRef, strictestPart } from './verdict.js';

/** Tools that read files: Read rules decide them. */
export const READ_TOOLS: ReadonlySet<string> = new Set(['Read', 'Glob', 'Grep', 'LS', 'NotebookRead']);
/** Tools that write files: Edit rules decide them. */
export const EDIT_TOOLS: ReadonlySet<string> = new Set(['Edit', 'Write', 'MultiEdit', 'NotebookEdit']);
/** Tools that change nothing outside the conversation. */
const HARMLESS_TOOLS = new Set([
  'TodoWrite',
  'TodoRead',
  'ToolSearch',
  'BashOutput',
  'Task',
  'Agent',
  'Skill',
]);

/** Grep tool parameters that leave rg's ignore handling as it is (`glob` becomes `--glob`, which overrides it). */
const GREP_IGNORE_NEUTRAL = new Set([
  'pattern',
  'path',
  'output_mode',
  '-i',
  '-n',
  '-A',
  '-B',
  '-C',
  'type',
  'head_limit',
  'offset',
  'multiline',
]);

function pathOf(tool: string, input: Record<string, unknown>, cwd: string): unknown {
  if (tool === 'NotebookEdit' || tool === 'NotebookRead') return input.notebook_path;
  if (tool === 'Glob' || tool === 'Grep' || tool === 'LS') return input.path ?? cwd;
  return input.file_path;
}

function part(
  subject: string,
  decision: Behavior,
  by: PartVerdict['by'],
  reason: string,
  rule?: PermissionRule | PatternRule,
) {
  const p: PartVerdict = { subject, decision, by, reason };
  if (rule) p.rule = ruleRef(rule);
  return p;
}

/** Rules that name the tool itself: bare names, `Tool(param:value)`, input regexes. Deny, then ask, then allow. */
function toolRule(
  tool: string,
  input: Record<string, unknown>,
  ctx: DecisionContext,
  behavior: Behavior,
  match: (rule: PermissionRule) => boolean,
): PermissionRule | PatternRule | undefined {
  for (const rule of ctx.index.tool(behavior, tool)) {
    const parsed = rule.parsed;
    if (parsed.kind === 'tool') return rule;
    if (parsed.kind === 'mcp') return rule;
    if (parsed.kind === 'param' && behavior !== 'allow' && matchParamRule(parsed, input)) return rule;
    if (match(rule)) return rule;
  }
  const json = JSON.stringify(input);
  return ctx.index.pattern(behavior, 'input', tool).find((r) => matchPatternRule(r, json));
}

/** Decides a call to any tool other than Bash: one part, or the file access it makes. */
export function classifyTool(
  tool: string,
  input: Record<string, unknown>,
  ctx: DecisionContext,
): PartVerdict[] {
  const subject = tool;
  const parts: PartVerdict[] = [];
  const never = () => false;
  for (const behavior of ['deny', 'ask'] as const) {
    const match = tool === 'WebFetch' ? (r: PermissionRule) => domainMatch(r, input) : never;
    const rule = toolRule(tool, input, ctx, behavior, match);
    if (rule) {
      parts.push(
        part(
          subject,
          behavior,
          'rule',
          `${behavior === 'deny' ? 'denied' : 'asked'} by ${ruleName(rule)}`,
          rule,
        ),
      );
      return parts;
    }
  }
  if (READ_TOOLS.has(tool) || EDIT_TOOLS.has(tool)) {
    const raw = pathOf(tool, input, ctx.cwd);
    const access: FileAccessKind = READ_TOOLS.has(tool) ? 'read' : 'write';
    const path = typeof raw === 'string' && raw !== '' ? resolvePath(raw, ctx) : undefined;
    const shown = typeof raw === 'string' ? raw : '(no path)';
    const allowed = toolRule(tool, input, ctx, 'allow', never);
    const listing = tool === 'Glob' || tool === 'LS';
    const respectsGitignore = tool === 'Grep' && Object.keys(input).every((k) => GREP_IGNORE_NEUTRAL.has(k));
    let file = decideFile({ access, path, shown, tool, listing, respectsGitignore }, ctx);
    const listed = tool === 'Glob' && path !== undefined ? patternFolders(input.pattern, path, ctx) : [path];
    const shownPattern = typeof input.pattern === 'string' ? input.pattern : '(no pattern)';
    for (const folder of listed) {
      if (folder === path) continue;
      const other = decideFile({ access, path: folder, shown: shownPattern, tool, listing }, ctx);
      file = strictestPart(file, other);
    }
    if (allowed && file.decision === 'ask' && file.by === 'file') {
      parts.push(part(subject, 'allow', 'rule', `allowed by ${ruleName(allowed)}`, allowed));
    } else {
      parts.push(file);
    }
    return parts;
  }
  const allow = toolRule(tool, input, ctx, 'allow', (r) => tool === 'WebFetch' && domainMatch(r, input));
  if (allow) parts.push(part(subject, 'allow', 'rule', `allowed by ${ruleName(allow)}`, allow));
  else if (HARMLESS_TOOLS.has(tool))
    parts.push(part(subject, 'allow', 'read-only', `${tool} changes nothing outside the session`));
  else if (ctx.mode === 'auto' && !ctx.hasModel) {
    parts.push(part(subject, 'ask', 'no-model', `no rule decides ${tool} and no model is configured`));
  } else parts.push(part(subject, 'ask', 'no-rule', `no rule allows ${tool}`));
  return parts;
}

/**
 * Deny and ask rules about a Bash call's input as a whole: `Bash(run_in_background:true)`, input regexes.
 * The command itself is decided part by part elsewhere.
 */
export function classifyBashInput(input: Record<string, unknown>, ctx: DecisionContext): PartVerdict[] {
  let text: string | undefined;
  const json = () => {
    text ??= JSON.stringify(input);
    return text;
  };
  for (const behavior of ['deny', 'ask'] as const) {
    const param = ctx.index
      .tool(behavior, 'Bash')
      .find((r) => r.parsed.kind === 'param' && matchParamRule(r.parsed, input));
    const rule =
      param ?? ctx.index.pattern(behavior, 'input', 'Bash').find((r) => matchPatternRule(r, json()));
    if (rule) {
      const verb = behavior === 'deny' ? 'denied' : 'asked';
      return [part('Bash input', behavior, 'rule', `${verb} by ${ruleName(rule)}`, rule)];
    }
  }
  return [];
}

/** More alternatives than this in one Glob pattern are not looked at one by one. */
const MAX_ALTERNATIVES = 256;

/**
 * The folders a Glob pattern lists: for each of its brace alternatives (`{..,src}/.ssh/*` is `../.ssh/*` and
 * `src/.ssh/*`), the part before the first wildcard, which may leave the tool's folder (`../../*`, `/etc/*`,
 * `~/.ssh/*`). An undefined folder (the path is then asked) where it cannot be told: a `..` after a wildcard
 * leads wherever the matched entries lead, or too many alternatives.
 */
function patternFolders(pattern: unknown, base: string, ctx: DecisionContext): Array<string | undefined> {
  if (typeof pattern !== 'string') return [base];
  // Alternatives multiply: a few braces can stand for millions of patterns.
  if (pattern.split('{').length > 9) return [undefined];
  let alternatives: string[];
  try {
    alternatives = braces(pattern, { expand: true, rangeLimit: MAX_ALTERNATIVES });
  } catch {
    return [undefined];
  }
  // A brace the expansion left standing (`{..,src}`, which braces reads as a range) is one nobody can tell.
  if (alternatives.length > MAX_ALTERNATIVES || alternatives.some((a) => a.includes('{'))) return [undefined];
  return alternatives.map((alternative) => patternFolder(alternative, base, ctx));
}

function patternFolder(pattern: string, base: string, ctx: DecisionContext): string | undefined {
  const segments = pattern.split('/');
  const wild = segments.findIndex((s) => /[*?[{]/.test(s));
  if (wild >= 0 && segments.slice(wild).some((s) => s === '..')) return undefined;
  const head = (wild < 0 ? segments.slice(0, -1) : segments.slice(0, wild)).join('/');
  if (head === '') return pattern.startsWith('/') ? '/' : base;
  return resolvePath(head, ctx, base);
}

function domainMatch(rule: PermissionRule, input: Record<string, unknown>): boolean {
  if (rule.parsed.kind !== 'domain' || typeof input.url !== 'string') return false;
  try {
    return matchDomain(rule.parsed.pattern, input.url);
  } catch {
    return false;
  }
}
