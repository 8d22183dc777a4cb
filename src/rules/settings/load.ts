import path from 'node:path';
import { LRUCache } from 'lru-cache';
import { isError } from '../diagnostics.js';
import { patternChecks, readPatternRules, TRUSTED_CHECKS } from '../pattern/rules.js';
import { locatedPermissionRule } from '../permission/located.js';
import { mergeProse } from '../prose/merge.js';
import type { ProseDefaults } from '../prose/types.js';
import type { Diagnostic, Rule } from '../types.js';
import { BEHAVIORS } from '../types.js';
import { type SchemaIssue, settingsLookValid, settingsSchemaIssues } from './check.js';
import {
  formatOf,
  type LocatedDocument,
  parsedTexts,
  parseText,
  type ReadOutcome,
  readDocument,
} from './document.js';
import { readSettingsContent, type SettingsContent } from './file.js';
import { bySource, keepManagedOnly } from './order.js';
import type { Origin } from './origin.js';
import { projectFolders } from './project-root.js';
import { mergeSandbox } from './sandbox.js';
import { disableShipped } from './shipped.js';
import { locateSettings, type SettingsLocation } from './sources.js';
import type { FileStamp } from './stamp.js';
import type {
  HookBlock,
  HttpHookPolicy,
  LoadedSettings,
  SandboxSettings,
  Scalars,
  SettingsFileInfo,
} from './types.js';

export interface CliRules {
  allow?: string[];
  ask?: string[];
  deny?: string[];
}

export interface LoadOptions {
  cwd: string;
  home: string;
  /** `--settings` values: files, or inline JSON objects. */
  settingsFiles?: string[];
  cli?: CliRules;
  /** automode pattern rule files (JSON or YAML). */
  ruleFiles?: string[];
  /** Shipped rules, lowest in precedence: Claude-style settings files (only their permissions) and rule files. */
  builtins?: { settingsFiles?: string[]; ruleFiles?: string[] };
  /** Managed settings file; default `AUTOMODE_MANAGED_SETTINGS` or the system path. Its drop-in folder is `<name>.d`. */
  managedPath?: string;
  /** The built-in prose rules that `$defaults` stands for. */
  defaults?: ProseDefaults;
  env?: NodeJS.ProcessEnv;
  /** false: the project's own settings files are not read (default true). */
  projectSettings?: boolean;
  /**
   * The session's project root, as Claude Code passes it in CLAUDE_PROJECT_DIR (default: that variable of `env`,
   * else the root of the repository holding `cwd`, else `cwd`). Project and local settings are read from it,
   * never from `cwd`, which is only where the call runs.
   */
  projectDir?: string;
}

interface ReadSettings {
  location: SettingsLocation;
  content: SettingsContent;
}

export async function loadSettingsFiles(options: LoadOptions): Promise<LoadedSettings> {
  const cwd = path.resolve(options.cwd);
  const home = path.resolve(options.home);
  const stamps: FileStamp[] = [];
  const project = projectFolders(cwd, options.projectDir ?? (options.env ?? process.env).CLAUDE_PROJECT_DIR);
  const located = await locateSettings({ ...options, cwd, home, project, stamps });
  const diagnostics: Diagnostic[] = [...located.diagnostics];
  const files: SettingsFileInfo[] = [];
  const read: ReadSettings[] = [];

  for (const location of located.locations) {
    const outcome = await readLocation(location, stamps);
    const explicit = location.source === 'flagSettings';
    files.push({ source: location.source, path: location.path, exists: outcome.status !== 'missing' });
    const origin: Origin = {
      source: location.source,
      ...(location.inline === undefined ? { file: location.path } : {}),
      root: location.root,
    };
    const document = documentOf(outcome, origin, explicit, diagnostics);
    if (!document) continue;
    const content = readSettingsContent(document, origin, { cwd, home }, await issuesOf(document.value));
    diagnostics.push(...content.diagnostics);
    read.push({ location, content });
  }

  const rules: Rule[] = read.flatMap(({ content }) => content.rules);
  rules.push(...cliRules(options.cli ?? {}, cwd, diagnostics));
  const ruleFiles: Array<[string, 'ruleFile' | 'defaults']> = [
    ...(options.ruleFiles ?? []).map((f): [string, 'ruleFile'] => [f, 'ruleFile']),
    ...(options.builtins?.ruleFiles ?? []).map((f): [string, 'defaults'] => [f, 'defaults']),
  ];
  for (const [file, source] of ruleFiles) {
    const absolute = path.resolve(cwd, file);
    const shipped = source === 'defaults';
    const outcome = await readDocument(
      absolute,
      formatOf(absolute),
      stamps,
      undefined,
      shipped ? SHIPPED_TEXTS : undefined,
    );
    files.push({ source, path: absolute, exists: outcome.status !== 'missing' });
    const origin: Origin = { source, file: absolute, root: path.dirname(absolute) };
    const document = documentOf(outcome, origin, true, diagnostics);
    if (!document) continue;
    const patterns = shipped
      ? await shippedRules(document, absolute, async () => readPatternRules(document, origin, TRUSTED_CHECKS))
      : readPatternRules(document, origin, await patternChecks());
    diagnostics.push(...patterns.diagnostics);
    rules.push(...patterns.rules);
  }
  for (const file of options.builtins?.settingsFiles ?? []) {
    const outcome = await readDocument(file, 'json', stamps, undefined, SHIPPED_TEXTS);
    files.push({ source: 'defaults', path: file, exists: outcome.status !== 'missing' });
    const origin: Origin = { source: 'defaults', file, root: project.projectRoot };
    const document = documentOf(outcome, origin, true, diagnostics);
    if (!document) continue;
    const content = await shippedRules(document, [file, origin.root, cwd, home].join('\0'), async () =>
      readSettingsContent(document, origin, { cwd, home }, await issuesOf(document.value)),
    );
    diagnostics.push(...content.diagnostics);
    rules.push(...content.rules);
  }

  const scalars: Scalars = Object.assign({}, ...read.map(({ content }) => content.scalars));
  const env: Record<string, string> = Object.assign({}, ...read.map(({ content }) => content.env ?? {}));
  const display = bySource(read, ({ location }) => location.source);
  const prose = mergeProse(
    display.flatMap(({ content }) => (content.prose ? [content.prose] : [])),
    options.defaults ?? {},
  );
  diagnostics.push(...prose.diagnostics);
  if (scalars.classifyAllShell) prose.prose.classifyAllShell = scalars.classifyAllShell.value;

  let kept = bySource(rules, (rule) => rule.provenance.source);
  const managedOnly = scalars.allowManagedPermissionRulesOnly?.value === true;
  if (managedOnly) {
    const managed = keepManagedOnly(kept);
    kept = managed.rules;
    diagnostics.push(...managed.diagnostics);
  }
  const entries = display.flatMap(({ location, content }) =>
    managedOnly && location.source !== 'policySettings' ? [] : (content.disableShipped ?? []),
  );
  const readServices = display.flatMap(({ location, content }) =>
    managedOnly && location.source !== 'policySettings' ? [] : (content.readServices ?? []),
  );
  const shipped = disableShipped(kept, entries);
  kept = shipped.rules;
  diagnostics.push(...shipped.diagnostics);

  return {
    cwd,
    projectRoot: project.projectRoot,
    home,
    rules: kept,
    prose: prose.prose,
    ...(scalars.defaultMode ? { defaultMode: scalars.defaultMode.value } : {}),
    scalars,
    additionalDirectories: display.flatMap(({ content }) => content.additionalDirectories),
    env,
    hooks: hooksOf(display),
    ...httpHooksOf(display),
    ...sandboxOf(read),
    diagnostics,
    failed: diagnostics.filter(isError),
    files,
    stamps,
    ...(shipped.disabled.length > 0 ? { disabledShipped: shipped.disabled } : {}),
    ...(readServices.length > 0 ? { readServices } : {}),
  };
}

/** The shipped files' parses, kept for the process: each is still read at every load, and parsed again if it changed. */
const SHIPPED_TEXTS = parsedTexts();

interface ShippedRules {
  rules: readonly Rule[];
  diagnostics: readonly Diagnostic[];
}

/**
 * The rules a shipped file's document yields, by the document (one per text read) and everything else they are
 * read with (`key`: the file, and for settings the folders their paths resolve against), at most a few per text.
 */
const SHIPPED_RULES = new WeakMap<LocatedDocument, LRUCache<string, ShippedRules>>();

async function shippedRules(
  document: LocatedDocument,
  key: string,
  read: () => Promise<ShippedRules>,
): Promise<ShippedRules> {
  let byKey = SHIPPED_RULES.get(document);
  if (!byKey) {
    byKey = new LRUCache({ max: 8 });
    SHIPPED_RULES.set(document, byKey);
  }
  let kept = byKey.get(key);
  if (!kept) {
    kept = await read();
    byKey.set(key, kept);
  }
  return kept;
}

/**
 * The hooks blocks that run, as Claude Code's managed hook settings say (reference as of v2.1.240):
 * `allowManagedHooksOnly` in managed settings keeps the managed blocks only; `disableAllHooks` turns every hook
 * off when managed settings set it, and every hook but the managed ones when another file does.
 */
function hooksOf(display: readonly ReadSettings[]): HookBlock[] {
  const managed = display.filter(({ location }) => location.source === 'policySettings');
  const managedOnly =
    managed.some(({ content }) => content.allowManagedHooksOnly === true) ||
    display.some(({ content }) => content.disableAllHooks === true);
  if (managed.some(({ content }) => content.disableAllHooks === true)) return [];
  const kept = managedOnly ? managed : display;
  return kept.flatMap(({ content }) => (content.hooks ? [content.hooks] : []));
}

/**
 * The limits on http hooks. Claude Code merges `allowedHttpHookUrls` and `httpHookAllowedEnvVars` across every
 * source (settings reference as of v2.1.240); here, when managed settings set a list, the managed entries alone
 * make it, so that no file the agent can write widens what the administrator allowed.
 */
function httpHooksOf(display: readonly ReadSettings[]): { httpHooks?: HttpHookPolicy } {
  const policy: HttpHookPolicy = {};
  for (const [key, field] of [
    ['allowedHttpHookUrls', 'allowedUrls'],
    ['httpHookAllowedEnvVars', 'allowedEnvVars'],
  ] as const) {
    const setting = display.filter(({ content }) => content[key] !== undefined);
    const managed = setting.filter(({ location }) => location.source === 'policySettings');
    const from = managed.length > 0 ? managed : setting;
    if (from.length > 0) policy[field] = [...new Set(from.flatMap(({ content }) => content[key] ?? []))];
  }
  return Object.keys(policy).length > 0 ? { httpHooks: policy } : {};
}

function sandboxOf(read: readonly ReadSettings[]): { sandbox?: SandboxSettings } {
  const sandbox = mergeSandbox(read.flatMap(({ content }) => (content.sandbox ? [content.sandbox] : [])));
  return sandbox ? { sandbox } : {};
}

/** Schema issues of a settings object; the schema (and zod) load only when the quick check fails. */
async function issuesOf(value: unknown): Promise<SchemaIssue[]> {
  return settingsLookValid(value) ? [] : settingsSchemaIssues(value);
}

async function readLocation(location: SettingsLocation, stamps: FileStamp[]): Promise<ReadOutcome> {
  if (location.inline === undefined) return readDocument(location.path, 'json', stamps);
  const parsed = await parseText(location.inline, 'json');
  return 'error' in parsed ? { status: 'failed', error: parsed.error } : { status: 'ok', document: parsed };
}

/** The parsed document, or undefined after recording why there is none (a missing file is only an error if named). */
function documentOf(
  outcome: ReadOutcome,
  origin: Origin,
  explicit: boolean,
  diagnostics: Diagnostic[],
): LocatedDocument | undefined {
  if (outcome.status === 'ok') return outcome.document;
  const where = { source: origin.source, ...(origin.file === undefined ? {} : { file: origin.file }) };
  if (outcome.status === 'failed') {
    const { code, message, line, column } = outcome.error;
    diagnostics.push({ severity: 'error', code, message, ...where, ...(line ? { line, column } : {}) });
  } else if (explicit) {
    diagnostics.push({ severity: 'error', code: 'read-failed', message: 'file not found', ...where });
  }
  return undefined;
}

/** The `--allow/--ask/--deny` rules, located by behaviour and position. */
export function cliRules(cli: CliRules, cwd: string, diagnostics: Diagnostic[]): Rule[] {
  const rules: Rule[] = [];
  const origin: Origin = { source: 'cliArg', root: cwd };
  for (const behavior of BEHAVIORS) {
    cli[behavior]?.forEach((text, index) => {
      const located = locatedPermissionRule(text, behavior, origin, undefined, [behavior, index]);
      diagnostics.push(...located.diagnostics);
      if (located.rule) rules.push(located.rule);
    });
  }
  return rules;
}
