import path from 'node:path';
import type {
  Diagnostic,
  DirectoryEntry,
  DisabledRule,
  DisableEntry,
  LoadedSettings,
  Origin,
  ProseDefaults,
  RawProse,
  ReadServiceEntry,
  Rule,
  SettingsFileInfo,
  SourceName,
} from '../rules/index.js';
import {
  BUILTIN_FILES,
  builtinProse,
  bySource,
  type CliRules,
  cliRules,
  DEFAULT_MANAGED_PATH,
  disableShipped,
  formatOf,
  isError,
  type LocatedDocument,
  locateSettings,
  mergeProse,
  parseText,
  patternChecks,
  readDocument,
  readPatternRules,
  readSettingsContent,
  type SchemaIssue,
  settingsLookValid,
  settingsSchemaIssues,
  TRUSTED_CHECKS,
} from '../rules/index.js';
import { isObject } from '../shared/index.js';
import type { CritiqueFile } from './types.js';

export interface CritiqueInputOptions {
  cwd: string;
  home: string;
  /** Settings and rule files to critique; without any, the effective configuration of `cwd` and `home`. */
  files?: string[];
  /** `--settings` files (or inline JSON). */
  settingsFiles?: string[];
  /** `--rules` files. */
  ruleFiles?: string[];
  cli?: CliRules;
  /** Compare against automode's shipped rules (default true). */
  defaults?: boolean;
  managedPath?: string;
  env?: NodeJS.ProcessEnv;
}

/** What the critique looks at: the rules under review, the shipped rules they meet, and the raw prose. */
export interface CritiqueInputs {
  cwd: string;
  home: string;
  files: CritiqueFile[];
  /** The rules under review, in display order. */
  subjects: Rule[];
  /** automode's shipped rules, less those turned off: compared against, never reported on. */
  context: Rule[];
  /** Shipped rules turned off by `automode.disableShippedRules` in the files under review. */
  disabled: DisabledRule[];
  /** Loader diagnostics about the files under review. */
  diagnostics: Diagnostic[];
  /** Each source's `autoMode` sections as written, in display order. */
  prose: { source: SourceName; file?: string; raw: RawProse }[];
  defaults: ProseDefaults;
  /** Settings as the classifier needs them: the rules under review plus the shipped ones. */
  settings: LoadedSettings;
  /** The parsed files, to locate any path inside them. */
  documents: Map<string, LocatedDocument>;
}

interface Target {
  file: string;
  kind: 'settings' | 'rules';
  source: SourceName;
  root: string;
  /** Named by the user: a missing file is an error. */
  explicit: boolean;
  inline?: string;
}

export async function loadInputs(options: CritiqueInputOptions): Promise<CritiqueInputs> {
  const cwd = path.resolve(options.cwd);
  const home = path.resolve(options.home);
  const env = options.env ?? process.env;
  const targets = options.files?.length
    ? await explicitTargets(options, cwd, home, env)
    : await effectiveTargets(options, cwd, home, env);

  const diagnostics: Diagnostic[] = [];
  const files: CritiqueFile[] = [];
  const subjects: Rule[] = [];
  const services: ReadServiceEntry[] = [];
  const prose: CritiqueInputs['prose'] = [];
  const documents = new Map<string, LocatedDocument>();
  const directories: DirectoryEntry[] = [];
  const fileInfos: SettingsFileInfo[] = [];
  const disables: DisableEntry[] = [];
  const checks = await patternChecks();

  for (const target of targets) {
    const origin: Origin = {
      source: target.source,
      ...(target.inline === undefined ? { file: target.file } : {}),
      root: target.root,
    };
    const doc = await readTarget(target, diagnostics);
    files.push({ path: target.file, kind: target.kind, source: target.source, exists: doc !== 'missing' });
    fileInfos.push({ source: target.source, path: target.file, exists: doc !== 'missing' });
    if (doc === 'missing' || doc === undefined) continue;
    if (target.inline === undefined) documents.set(target.file, doc);
    if (target.kind === 'rules') {
      const read = readPatternRules(doc, origin, checks);
      diagnostics.push(...read.diagnostics);
      subjects.push(...read.rules);
      continue;
    }
    const content = readSettingsContent(doc, origin, { cwd, home }, await issuesOf(doc.value));
    diagnostics.push(...content.diagnostics);
    subjects.push(...content.rules);
    directories.push(...content.additionalDirectories);
    disables.push(...(content.disableShipped ?? []));
    services.push(...(content.readServices ?? []));
    if (content.prose) {
      prose.push({
        source: target.source,
        ...(origin.file ? { file: origin.file } : {}),
        raw: content.prose,
      });
    }
  }
  subjects.push(...cliRules(options.cli ?? {}, cwd, diagnostics));

  const shipped = options.defaults === false ? [] : await shippedRules(cwd, home, documents);
  const kept = disableShipped(shipped, shipped.length === 0 ? [] : disables);
  diagnostics.push(...kept.diagnostics);
  const context = kept.rules;
  const defaults = builtinProse();
  const ordered = bySource(prose, (p) => p.source);
  const merged = mergeProse(
    ordered.map((p) => p.raw),
    defaults,
  );
  const settings: LoadedSettings = {
    cwd,
    home,
    rules: bySource([...subjects, ...context], (rule) => rule.provenance.source),
    prose: merged.prose,
    scalars: {},
    additionalDirectories: directories,
    ...(services.length > 0 ? { readServices: bySource(services, (entry) => entry.provenance.source) } : {}),
    env: {},
    hooks: [],
    diagnostics: [],
    failed: [],
    files: fileInfos,
  };
  return {
    cwd,
    home,
    files,
    subjects: bySource(subjects, (rule) => rule.provenance.source),
    context,
    disabled: kept.disabled,
    diagnostics,
    prose: ordered,
    defaults,
    settings,
    documents,
  };
}

async function readTarget(
  target: Target,
  diagnostics: Diagnostic[],
): Promise<LocatedDocument | 'missing' | undefined> {
  const where = { source: target.source, file: target.file };
  let outcome: Awaited<ReturnType<typeof readDocument>>;
  if (target.inline !== undefined) {
    const parsed = await parseText(target.inline, 'json');
    outcome =
      'error' in parsed ? { status: 'failed', error: parsed.error } : { status: 'ok', document: parsed };
  } else {
    outcome = await readDocument(target.file, target.kind === 'rules' ? formatOf(target.file) : 'json');
  }
  if (outcome.status === 'ok') return outcome.document;
  if (outcome.status === 'missing') {
    if (target.explicit) {
      diagnostics.push({ severity: 'error', code: 'read-failed', message: 'file not found', ...where });
    }
    return 'missing';
  }
  const { code, message, line, column } = outcome.error;
  diagnostics.push({ severity: 'error', code, message, ...where, ...(line ? { line, column } : {}) });
  return undefined;
}

/** The loader's codes that mean a file could not be read at all. */
export const CONFIG_ERROR_CODES: ReadonlySet<Diagnostic['code']> = new Set([
  'read-failed',
  'invalid-json',
  'invalid-yaml',
]);

export function isConfigError(d: Diagnostic): boolean {
  return isError(d) && CONFIG_ERROR_CODES.has(d.code);
}

async function issuesOf(value: unknown): Promise<SchemaIssue[]> {
  return settingsLookValid(value) ? [] : settingsSchemaIssues(value);
}

function managedPathOf(options: CritiqueInputOptions, cwd: string, env: NodeJS.ProcessEnv): string {
  return path.resolve(cwd, options.managedPath ?? env.AUTOMODE_MANAGED_SETTINGS ?? DEFAULT_MANAGED_PATH);
}

async function effectiveTargets(
  options: CritiqueInputOptions,
  cwd: string,
  home: string,
  env: NodeJS.ProcessEnv,
): Promise<Target[]> {
  const located = await locateSettings({
    cwd,
    home,
    ...(options.settingsFiles ? { settingsFiles: options.settingsFiles } : {}),
    managedPath: managedPathOf(options, cwd, env),
    env,
  });
  const targets: Target[] = located.locations.map((l) => ({
    file: l.path,
    kind: 'settings',
    source: l.source,
    root: l.root,
    explicit: l.source === 'flagSettings',
    ...(l.inline === undefined ? {} : { inline: l.inline }),
  }));
  for (const file of options.ruleFiles ?? []) {
    const absolute = path.resolve(cwd, file);
    targets.push({
      file: absolute,
      kind: 'rules',
      source: 'ruleFile',
      root: path.dirname(absolute),
      explicit: true,
    });
  }
  return targets;
}

async function explicitTargets(
  options: CritiqueInputOptions,
  cwd: string,
  home: string,
  env: NodeJS.ProcessEnv,
): Promise<Target[]> {
  const userFolder = env.CLAUDE_CONFIG_DIR ?? path.join(home, '.claude');
  const managed = managedPathOf(options, cwd, env);
  const targets: Target[] = [];
  for (const given of options.files ?? []) {
    const file = path.resolve(cwd, given);
    const kind = await kindOf(file);
    if (kind === 'rules') {
      targets.push({ file, kind, source: 'ruleFile', root: path.dirname(file), explicit: true });
      continue;
    }
    const { source, root } = settingsSourceOf(file, { userFolder, managed, cwd });
    targets.push({ file, kind, source, root, explicit: true });
  }
  for (const flag of options.settingsFiles ?? []) {
    if (flag.trim().startsWith('{')) {
      targets.push({
        file: '--settings',
        kind: 'settings',
        source: 'flagSettings',
        root: cwd,
        explicit: true,
        inline: flag,
      });
    } else {
      const file = path.resolve(cwd, flag);
      targets.push({
        file,
        kind: 'settings',
        source: 'flagSettings',
        root: path.dirname(file),
        explicit: true,
      });
    }
  }
  for (const given of options.ruleFiles ?? []) {
    const file = path.resolve(cwd, given);
    targets.push({ file, kind: 'rules', source: 'ruleFile', root: path.dirname(file), explicit: true });
  }
  return targets;
}

/**
 * Which source Claude Code would read a settings file as, from where it lies: that decides, for example,
 * whether its `autoMode` is read at all.
 */
export function settingsSourceOf(
  file: string,
  places: { userFolder: string; managed: string; cwd: string },
): { source: SourceName; root: string } {
  const name = path.basename(file);
  const folder = path.dirname(file);
  if (file === path.join(places.userFolder, 'settings.json')) {
    return { source: 'userSettings', root: places.userFolder };
  }
  const dropIns = `${places.managed.replace(/\.json$/i, '')}.d`;
  if (file === places.managed || folder === dropIns || name === 'managed-settings.json') {
    return { source: 'policySettings', root: places.cwd };
  }
  if (path.basename(folder) === '.claude') {
    if (name === 'settings.local.json') return { source: 'localSettings', root: path.dirname(folder) };
    if (name === 'settings.json') return { source: 'projectSettings', root: path.dirname(folder) };
  }
  return { source: 'flagSettings', root: folder };
}

/** YAML files and JSON objects with a `rules` list (and no `permissions` or `autoMode`) are rule files. */
async function kindOf(file: string): Promise<'settings' | 'rules'> {
  if (formatOf(file) === 'yaml') return 'rules';
  const outcome = await readDocument(file, 'json');
  if (outcome.status !== 'ok') return 'settings';
  const value = outcome.document.value;
  if (!isObject(value)) return 'settings';
  const keys = Object.keys(value);
  return keys.includes('rules') && !keys.includes('permissions') && !keys.includes('autoMode')
    ? 'rules'
    : 'settings';
}

async function shippedRules(
  cwd: string,
  home: string,
  documents: Map<string, LocatedDocument>,
): Promise<Rule[]> {
  const rules: Rule[] = [];
  const settings = await readDocument(BUILTIN_FILES.settings, 'json');
  if (settings.status === 'ok') {
    documents.set(BUILTIN_FILES.settings, settings.document);
    const origin: Origin = { source: 'defaults', file: BUILTIN_FILES.settings, root: cwd };
    rules.push(...readSettingsContent(settings.document, origin, { cwd, home }).rules);
  }
  const patterns = await readDocument(BUILTIN_FILES.rules, 'json');
  if (patterns.status === 'ok') {
    documents.set(BUILTIN_FILES.rules, patterns.document);
    const origin: Origin = { source: 'defaults', file: BUILTIN_FILES.rules, root: cwd };
    rules.push(...readPatternRules(patterns.document, origin, TRUSTED_CHECKS).rules);
  }
  return rules;
}
