import { isObject, isStringRecord, isStrings, toMode } from '../../shared/index.js';
import type { Segment } from './types.js';

function optional(x: unknown, check: (v: unknown) => boolean): boolean {
  return x === undefined || check(x);
}

export function isHooks(x: unknown): boolean {
  return (
    isObject(x) &&
    Object.values(x).every(
      (list) =>
        Array.isArray(list) &&
        list.every(
          (m) =>
            isObject(m) &&
            optional(m.matcher, (v) => typeof v === 'string') &&
            Array.isArray(m.hooks) &&
            m.hooks.every((h) => isObject(h) && typeof h.type === 'string'),
        ),
    )
  );
}

const isBoolean = (b: unknown) => typeof b === 'boolean';
const isPort = (n: unknown) => typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= 65535;

export function isSandbox(x: unknown): boolean {
  if (!isObject(x)) return false;
  const fs = x.filesystem;
  const net = x.network;
  return (
    [
      'enabled',
      'autoAllowBashIfSandboxed',
      'allowUnsandboxedCommands',
      'failIfUnavailable',
      'enableWeakerNestedSandbox',
    ].every((k) => optional(x[k], isBoolean)) &&
    optional(x.excludedCommands, isStrings) &&
    optional(x.enabledPlatforms, isStrings) &&
    optional(
      fs,
      (v) =>
        isObject(v) &&
        ['allowWrite', 'denyWrite', 'denyRead', 'allowRead'].every((k) => optional(v[k], isStrings)),
    ) &&
    optional(
      net,
      (v) =>
        isObject(v) &&
        optional(v.allowedDomains, isStrings) &&
        optional(v.deniedDomains, isStrings) &&
        optional(v.allowUnixSockets, isStrings) &&
        ['allowAllUnixSockets', 'allowLocalBinding', 'allowManagedDomainsOnly'].every((k) =>
          optional(v[k], isBoolean),
        ) &&
        optional(v.httpProxyPort, isPort) &&
        optional(v.socksProxyPort, isPort),
    )
  );
}

/**
 * A quick check that a settings object satisfies SettingsSchema, without loading zod (which costs tens of
 * milliseconds at start-up, paid by every hook call). It never accepts what the schema rejects (a property
 * test holds them together); when it says no, the schema is loaded to say exactly what is wrong.
 */
export function settingsLookValid(x: unknown): boolean {
  if (!isObject(x)) return false;
  const p = x.permissions;
  const permissionsOk = optional(
    p,
    (v) =>
      isObject(v) &&
      optional(v.allow, isStrings) &&
      optional(v.ask, isStrings) &&
      optional(v.deny, isStrings) &&
      optional(v.defaultMode, (m) => toMode(m) !== undefined) &&
      optional(v.additionalDirectories, isStrings) &&
      optional(v.disableBypassPermissionsMode, (d) => d === 'disable'),
  );
  const autoModeOk = optional(
    x.autoMode,
    (v) =>
      isObject(v) &&
      optional(v.environment, isStrings) &&
      optional(v.allow, isStrings) &&
      optional(v.soft_deny, isStrings) &&
      optional(v.hard_deny, isStrings) &&
      optional(v.classifyAllShell, (b) => typeof b === 'boolean'),
  );
  const automodeOk = optional(
    x.automode,
    (v) => isObject(v) && optional(v.disableShippedRules, isStrings) && optional(v.readServices, isStrings),
  );
  return (
    permissionsOk &&
    autoModeOk &&
    automodeOk &&
    optional(x.allowManagedPermissionRulesOnly, (b) => typeof b === 'boolean') &&
    optional(x.hooks, isHooks) &&
    optional(x.allowedHttpHookUrls, isStrings) &&
    optional(x.httpHookAllowedEnvVars, isStrings) &&
    optional(x.env, isStringRecord) &&
    optional(x.sandbox, isSandbox)
  );
}

export interface SchemaIssue {
  path: Segment[];
  message: string;
}

/** The schema's own account of what is wrong; loads zod on first use. */
export async function settingsSchemaIssues(x: unknown): Promise<SchemaIssue[]> {
  const { SettingsSchema } = await import('./schema.js');
  const checked = SettingsSchema.safeParse(x);
  if (checked.success) return [];
  return checked.error.issues.map((issue) => ({ path: issue.path as Segment[], message: issue.message }));
}
