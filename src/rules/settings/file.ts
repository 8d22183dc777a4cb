import path from 'node:path';
import { isObject, isStringRecord, isStrings, toMode } from '../../shared/index.js';
import { closestName, didYouMean } from '../closest-name.js';
import { locatedPermissionRule } from '../permission/located.js';
import { PROSE_SECTIONS, type RawProse, type RawSection } from '../prose/types.js';
import type { Behavior, Diagnostic, PermissionRule, SourceName } from '../types.js';
import { BEHAVIORS } from '../types.js';
import { isHooks, type SchemaIssue } from './check.js';
import type { LocatedDocument } from './document.js';
import { checkHookKeys } from './hook-keys.js';
import {
  AUTO_MODE_KEYS,
  AUTOMODE_KEYS,
  PERMISSIONS_KEYS,
  SANDBOX_FILESYSTEM_KEYS,
  SANDBOX_KEYS,
  SANDBOX_NETWORK_KEYS,
  SETTINGS_KEYS,
} from './known-keys.js';
import { diagnosticAt, type Origin, provenanceAt } from './origin.js';
import { readSandboxBlock } from './sandbox.js';
import type { DisableEntry } from './shipped.js';
import type {
  DirectoryEntry,
  HookBlock,
  ReadServiceEntry,
  SandboxSettings,
  Scalars,
  Segment,
} from './types.js';

export interface SettingsContent {
  rules: PermissionRule[];
  diagnostics: Diagnostic[];
  scalars: Scalars;
  additionalDirectories: DirectoryEntry[];
  env?: Record<string, string>;
  prose?: RawProse;
  hooks?: HookBlock;
  /** `automode.disableShippedRules`: shipped rules this file turns off. */
  disableShipped?: DisableEntry[];
  /** `automode.readServices`: the programs whose service reads this file turns on. */
  readServices?: ReadServiceEntry[];
  sandbox?: SandboxSettings;
  /** `disableAllHooks`: no hooks run (set outside managed settings, managed hooks still run). */
  disableAllHooks?: boolean;
  /** `allowManagedHooksOnly`, honoured in managed settings only: only managed hooks run. */
  allowManagedHooksOnly?: boolean;
  /** `allowedHttpHookUrls`: an ill-typed value is an empty list (no http hook runs). */
  allowedHttpHookUrls?: string[];
  /** `httpHookAllowedEnvVars`: an ill-typed value is an empty list (no header reads a variable). */
  httpHookAllowedEnvVars?: string[];
}

/**
 * Claude Code reads `autoMode` from user settings, managed settings and `--settings` only: never from the shared
 * project file, and no longer from `.claude/settings.local.json` since 2.1.207 (reference as of v2.1.240).
 */
const AUTO_MODE_SOURCES: ReadonlySet<SourceName> = new Set([
  'userSettings',
  'policySettings',
  'flagSettings',
]);

export function readSettingsContent(
  doc: LocatedDocument,
  origin: Origin,
  ctx: { cwd: string; home: string },
  issues: readonly SchemaIssue[] = [],
): SettingsContent {
  const content: SettingsContent = { rules: [], diagnostics: [], scalars: {}, additionalDirectories: [] };
  const at = (p: Segment[]) => provenanceAt(origin, doc, p);
  const report = (
    p: Segment[],
    severity: Diagnostic['severity'],
    code: Diagnostic['code'],
    message: string,
  ) => content.diagnostics.push(diagnosticAt(origin, doc, p, severity, code, message));

  for (const issue of issues) {
    const where = issue.path.length ? issue.path.join('.') : 'settings';
    report(issue.path, 'error', 'schema', `${where}: ${issue.message}`);
  }
  if (!isObject(doc.value)) return content;
  const settings = doc.value;
  const permissions = isObject(settings.permissions) ? settings.permissions : {};
  const sandbox = isObject(settings.sandbox) ? settings.sandbox : {};
  for (const [where, object, known] of [
    [[], settings, SETTINGS_KEYS],
    [['permissions'], permissions, PERMISSIONS_KEYS],
    [['autoMode'], settings.autoMode, AUTO_MODE_KEYS],
    [['automode'], settings.automode, AUTOMODE_KEYS],
    [['sandbox'], settings.sandbox, SANDBOX_KEYS],
    [['sandbox', 'filesystem'], sandbox.filesystem, SANDBOX_FILESYSTEM_KEYS],
    [['sandbox', 'network'], sandbox.network, SANDBOX_NETWORK_KEYS],
  ] as const) {
    if (!isObject(object)) continue;
    for (const key of Object.keys(object)) {
      const meant = closestName(key, known);
      if (meant === undefined) continue;
      const name = [...where, key].join('.');
      report(
        [...where, key],
        'warning',
        'unknown-setting',
        `"${name}" is not a Claude Code setting${didYouMean([...where, meant].join('.'))} ` +
          `Claude Code ignores it and everything under it`,
      );
    }
  }

  for (const behavior of BEHAVIORS) {
    forEachString(permissions[behavior], (text, index) => {
      const located = locatedPermissionRule(text, behavior as Behavior, origin, doc, [
        'permissions',
        behavior,
        index,
      ]);
      content.diagnostics.push(...located.diagnostics);
      if (located.rule) content.rules.push(located.rule);
    });
  }

  const mode = toMode(permissions.defaultMode);
  if (mode) content.scalars.defaultMode = { value: mode, provenance: at(['permissions', 'defaultMode']) };
  if (permissions.disableBypassPermissionsMode === 'disable') {
    content.scalars.disableBypassPermissionsMode = {
      value: 'disable',
      provenance: at(['permissions', 'disableBypassPermissionsMode']),
    };
  }
  forEachString(permissions.additionalDirectories, (text, index) => {
    content.additionalDirectories.push({
      path: path.resolve(ctx.cwd, text.replace(/^~(?=$|\/)/, ctx.home)),
      text,
      provenance: at(['permissions', 'additionalDirectories', index]),
    });
  });

  if (typeof settings.allowManagedPermissionRulesOnly === 'boolean') {
    if (origin.source === 'policySettings') {
      content.scalars.allowManagedPermissionRulesOnly = {
        value: settings.allowManagedPermissionRulesOnly,
        provenance: at(['allowManagedPermissionRulesOnly']),
      };
    } else {
      report(
        ['allowManagedPermissionRulesOnly'],
        'warning',
        'managed-only',
        'allowManagedPermissionRulesOnly is only honoured in managed settings',
      );
    }
  }

  if (typeof settings.disableAllHooks === 'boolean') content.disableAllHooks = settings.disableAllHooks;
  if (typeof settings.allowManagedHooksOnly === 'boolean') {
    if (origin.source === 'policySettings') content.allowManagedHooksOnly = settings.allowManagedHooksOnly;
    else
      report(
        ['allowManagedHooksOnly'],
        'warning',
        'managed-only',
        'allowManagedHooksOnly is only honoured in managed settings',
      );
  }

  for (const key of ['allowedHttpHookUrls', 'httpHookAllowedEnvVars'] as const) {
    const list = settings[key];
    if (list !== undefined) content[key] = isStrings(list) ? list : [];
  }

  if (typeof settings.useAutoModeDuringPlan === 'boolean') {
    content.scalars.useAutoModeDuringPlan = {
      value: settings.useAutoModeDuringPlan,
      provenance: at(['useAutoModeDuringPlan']),
    };
  }

  if (settings.autoMode !== undefined) readAutoMode(settings.autoMode, content, origin, doc);

  if (isObject(settings.automode)) {
    const entries: DisableEntry[] = [];
    forEachString(settings.automode.disableShippedRules, (text, index) => {
      entries.push({ text, provenance: at(['automode', 'disableShippedRules', index]) });
    });
    if (entries.length > 0) content.disableShipped = entries;
    const services: ReadServiceEntry[] = [];
    forEachString(settings.automode.readServices, (text, index) => {
      services.push({ program: text, provenance: at(['automode', 'readServices', index]) });
    });
    if (services.length > 0) content.readServices = services;
  }

  const block = readSandboxBlock(settings.sandbox, origin.source, { root: origin.root, home: ctx.home });
  if (block) content.sandbox = block;
  if (isStringRecord(settings.env)) content.env = settings.env;
  checkHookKeys(settings.hooks, report);
  if (isHooks(settings.hooks)) {
    content.hooks = {
      source: origin.source,
      ...(origin.file === undefined ? {} : { file: origin.file }),
      pointer: '/hooks',
      hooks: settings.hooks as Record<string, unknown[]>,
    };
  }
  return content;
}

function readAutoMode(value: unknown, content: SettingsContent, origin: Origin, doc: LocatedDocument): void {
  if (!AUTO_MODE_SOURCES.has(origin.source)) {
    content.diagnostics.push(
      diagnosticAt(
        origin,
        doc,
        ['autoMode'],
        'warning',
        'automode-ignored',
        `autoMode is not read from the project's settings (${origin.source}): a file in the repository cannot set the classifier's prose rules, or anything that can write there could loosen them (Claude Code 2.1.207 and later); put it in user, managed or --settings files: ignored`,
      ),
    );
    return;
  }
  if (!isObject(value)) return;
  const prose: RawProse = {};
  for (const section of PROSE_SECTIONS) {
    if (!Array.isArray(value[section])) continue;
    const entries: RawSection['entries'] = [];
    forEachString(value[section], (text, index) => {
      entries.push({ text, provenance: provenanceAt(origin, doc, ['autoMode', section, index]) });
    });
    prose[section] = { provenance: provenanceAt(origin, doc, ['autoMode', section]), entries };
  }
  content.prose = prose;
  if (typeof value.classifyAllShell === 'boolean') {
    content.scalars.classifyAllShell = {
      value: value.classifyAllShell,
      provenance: provenanceAt(origin, doc, ['autoMode', 'classifyAllShell']),
    };
  }
}

function forEachString(list: unknown, visit: (text: string, index: number) => void): void {
  if (!Array.isArray(list)) return;
  list.forEach((item, index) => {
    if (typeof item === 'string') visit(item, index);
  });
}
