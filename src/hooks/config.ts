import type { HookBlock, HttpHookPolicy } from '../rules/index.js';
import { isObject, isStringRecord, isStrings } from '../shared/index.js';
import { type Condition, compileCondition, conditionHolds } from './condition.js';
import { compileMatcher, type Matcher } from './matcher.js';
import { type CommandHook, HOOK_EVENTS, type HookEvent } from './types.js';

/** Claude Code's default limit for a command hook. */
export const DEFAULT_HOOK_TIMEOUT_MS = 600_000;

export interface HookConfig {
  entries: ConfiguredHook[];
  /** Entries that were skipped or are suspicious, each naming its file and pointer. */
  diagnostics: string[];
}

export interface ConfiguredHook extends CommandHook {
  match: Matcher;
  /** The handler's `if`: the hook runs only for calls that match it. */
  condition?: Condition;
}

export interface HookConfigOptions {
  /** Limit for hooks that set no `timeout` (default 600 s). */
  defaultTimeoutMs?: number;
  /** The project folder, which `/path` in an `if` rule is relative to (default: the process's). */
  cwd?: string;
  /** `allowedHttpHookUrls` and `httpHookAllowedEnvVars` of the settings. */
  http?: HttpHookPolicy;
}

/** The command and http hooks of every settings source, in source order. Other hook types are reported and skipped. */
export function hookConfig(blocks: readonly HookBlock[], options: HookConfigOptions = {}): HookConfig {
  const defaultTimeoutMs = options.defaultTimeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS;
  const entries: ConfiguredHook[] = [];
  const diagnostics: string[] = [];
  for (const block of blocks) {
    const where = (pointer: string) => `${block.file ?? block.source}#${pointer}`;
    for (const [event, matchers] of Object.entries(block.hooks)) {
      // Names Claude Code does not have are reported by the settings loader (unknown-hook-event); Claude Code's
      // other events are not fired by the pipeline.
      if (!HOOK_EVENTS.includes(event as HookEvent)) continue;
      matchers.forEach((m, i) => {
        const base = `/hooks/${event}/${i}`;
        if (!isObject(m) || !Array.isArray(m.hooks)) {
          diagnostics.push(`${where(base)}: not a matcher entry, skipped`);
          return;
        }
        const matcher = typeof m.matcher === 'string' ? m.matcher : '';
        const match = compileMatcher(matcher);
        if (match.error)
          diagnostics.push(`${where(`${base}/matcher`)}: ${match.error}; it matches every tool`);
        m.hooks.forEach((h, j) => {
          const pointer = `${base}/hooks/${j}`;
          const target = isObject(h) ? hookTarget(h, options.http) : 'not an object';
          if (typeof target === 'string') {
            diagnostics.push(`${where(pointer)}: ${target}, skipped`);
            return;
          }
          const seconds = typeof h.timeout === 'number' && h.timeout > 0 ? h.timeout : undefined;
          const hook: ConfiguredHook = {
            event: event as HookEvent,
            matcher,
            ...target,
            timeoutMs: seconds !== undefined ? seconds * 1000 : defaultTimeoutMs,
            source: block.source,
            pointer,
            match,
          };
          if (h.onFailure === 'block') hook.onFailure = 'block';
          if (!target.http && (h.async === true || h.asyncRewake === true)) hook.async = true;
          if (h.if !== undefined) {
            const condition =
              typeof h.if === 'string'
                ? compileCondition(h.if, options.cwd ?? process.cwd())
                : '"if" is not a string';
            // A guard that silently never runs would fail open: an `if` that cannot be read runs it for every call.
            if (typeof condition === 'string')
              diagnostics.push(`${where(`${pointer}/if`)}: ${condition}; the hook runs for every call`);
            else hook.condition = condition;
          }
          if (block.file !== undefined) hook.file = block.file;
          entries.push(hook);
        });
      });
    }
  }
  return { entries, diagnostics };
}

/** What a hook entry runs: a command, or an http endpoint; a string says why the entry cannot run. */
function hookTarget(
  h: Record<string, unknown>,
  policy: HttpHookPolicy | undefined,
): Pick<CommandHook, 'command' | 'args' | 'http'> | string {
  if (h.type === 'command') {
    if (typeof h.command !== 'string' || !h.command.trim()) return 'a command hook needs a command';
    if (h.args === undefined) return { command: h.command };
    // A list that cannot be read would run the program with other arguments than the ones written.
    return isStrings(h.args)
      ? { command: h.command, args: h.args }
      : 'args must be a list of strings (the arguments of the program named by command)';
  }
  if (h.type === 'http') {
    if (typeof h.url !== 'string' || !/^https?:\/\//.test(h.url)) return 'an http hook needs an http(s) url';
    if (h.headers !== undefined && !isStringRecord(h.headers))
      return 'the headers of an http hook must be strings';
    const allowed = h.allowedEnvVars;
    if (allowed !== undefined && !isStrings(allowed)) {
      return 'allowedEnvVars must be a list of variable names';
    }
    if (policy?.allowedUrls && !policy.allowedUrls.some((p) => urlPattern(p).test(h.url as string))) {
      return `its url ${h.url} matches no entry of allowedHttpHookUrls (${policy.allowedUrls.join(', ') || 'empty: no http hook runs'})`;
    }
    const names = (allowed as string[] | undefined) ?? [];
    const limit = policy?.allowedEnvVars;
    return {
      command: h.url,
      http: {
        url: h.url,
        headers: (h.headers as Record<string, string>) ?? {},
        allowedEnvVars: limit ? names.filter((n) => limit.includes(n)) : names,
      },
    };
  }
  return `hooks of type ${JSON.stringify(h.type)} do not run here (only "command" and "http")`;
}

/** An `allowedHttpHookUrls` entry: `*` stands for any characters, the rest is literal; it matches the whole URL. */
function urlPattern(pattern: string): RegExp {
  const parts = pattern.split('*').map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('.*')}$`, 's');
}

/** What identical hooks are recognised by: the command with its arguments, or the URL. */
function identity(h: CommandHook): string {
  return h.args ? JSON.stringify([h.command, ...h.args]) : h.command;
}

/** The hooks whose event and matcher fit the tool (their `if` not yet checked), identical commands once. */
export function matchingHooks(config: HookConfig, event: HookEvent, toolName: string): ConfiguredHook[] {
  return onePerCommand(config.entries.filter((h) => h.event === event && h.match.test(toolName)));
}

/** The hooks that run for this call: event, matcher and `if`, then identical commands once. */
export async function hooksForCall(
  config: HookConfig,
  event: HookEvent,
  toolName: string,
  input: unknown,
  where: { cwd: string; home: string },
): Promise<ConfiguredHook[]> {
  const fitting = config.entries.filter((h) => h.event === event && h.match.test(toolName));
  const holds = await Promise.all(
    fitting.map((h) => !h.condition || conditionHolds(h.condition, toolName, input, where)),
  );
  return onePerCommand(fitting.filter((_, i) => holds[i]));
}

/** Identical commands run once: the first one's timeout holds; it blocks on failure when any of them says so. */
function onePerCommand(hooks: ConfiguredHook[]): ConfiguredHook[] {
  const runs = new Map<string, ConfiguredHook>();
  for (const h of hooks) {
    const key = identity(h);
    const first = runs.get(key);
    if (!first) runs.set(key, h);
    else if (h.onFailure === 'block' && first.onFailure !== 'block')
      runs.set(key, { ...first, onFailure: 'block' });
  }
  return [...runs.values()];
}
