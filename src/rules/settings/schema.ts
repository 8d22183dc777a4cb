import { z } from 'zod';
import { MODE_SPELLINGS } from '../../shared/index.js';

/** Only the keys automode reads are checked; Claude Code settings have many more, which pass untouched. */
export const ModeSchema = z.enum(MODE_SPELLINGS);

const Strings = z.array(z.string());

export const PermissionsSchema = z.looseObject({
  allow: Strings.optional(),
  ask: Strings.optional(),
  deny: Strings.optional(),
  defaultMode: ModeSchema.optional(),
  additionalDirectories: Strings.optional(),
  disableBypassPermissionsMode: z.literal('disable').optional(),
});

export const AutoModeSchema = z.looseObject({
  environment: Strings.optional(),
  allow: Strings.optional(),
  soft_deny: Strings.optional(),
  hard_deny: Strings.optional(),
  classifyAllShell: z.boolean().optional(),
});

/**
 * automode's own settings block: `automode.disableShippedRules` turns shipped rules off by text or label;
 * `automode.readServices` names the programs whose reads of the user's own services are allowed.
 */
export const AutomodeSchema = z.looseObject({
  disableShippedRules: Strings.optional(),
  readServices: Strings.optional(),
});

const Port = z.number().int().min(1).max(65535);

/** Claude Code's `sandbox` block (code.claude.com/docs/en/settings, "Sandbox settings"): the keys automode reads. */
export const SandboxSchema = z.looseObject({
  enabled: z.boolean().optional(),
  autoAllowBashIfSandboxed: z.boolean().optional(),
  allowUnsandboxedCommands: z.boolean().optional(),
  failIfUnavailable: z.boolean().optional(),
  enableWeakerNestedSandbox: z.boolean().optional(),
  enabledPlatforms: Strings.optional(),
  excludedCommands: Strings.optional(),
  filesystem: z
    .looseObject({
      allowWrite: Strings.optional(),
      denyWrite: Strings.optional(),
      denyRead: Strings.optional(),
      allowRead: Strings.optional(),
    })
    .optional(),
  network: z
    .looseObject({
      allowedDomains: Strings.optional(),
      deniedDomains: Strings.optional(),
      allowUnixSockets: Strings.optional(),
      allowAllUnixSockets: z.boolean().optional(),
      allowLocalBinding: z.boolean().optional(),
      allowManagedDomainsOnly: z.boolean().optional(),
      httpProxyPort: Port.optional(),
      socksProxyPort: Port.optional(),
    })
    .optional(),
});

export const HooksSchema = z.record(
  z.string(),
  z.array(
    z.looseObject({ matcher: z.string().optional(), hooks: z.array(z.looseObject({ type: z.string() })) }),
  ),
);

export const EnvSchema = z.record(z.string(), z.string());

export const SettingsSchema = z.looseObject({
  permissions: PermissionsSchema.optional(),
  autoMode: AutoModeSchema.optional(),
  automode: AutomodeSchema.optional(),
  allowManagedPermissionRulesOnly: z.boolean().optional(),
  hooks: HooksSchema.optional(),
  allowedHttpHookUrls: Strings.optional(),
  httpHookAllowedEnvVars: Strings.optional(),
  env: EnvSchema.optional(),
  sandbox: SandboxSchema.optional(),
});
