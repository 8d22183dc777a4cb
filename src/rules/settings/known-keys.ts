/**
 * Keys Claude Code reads from a settings file (code.claude.com/docs/en/settings), with automode's own. The list
 * only names keys a mistyped key may be compared with: a key missing from it is never reported as unknown
 * unless it is close to one listed here, so a key Claude Code adds later passes untouched.
 */
export const SETTINGS_KEYS: readonly string[] = [
  '$schema',
  'apiKeyHelper',
  'attribution',
  'autoMode',
  'automode',
  'autoMemoryEnabled',
  'autoUpdates',
  'autoUpdatesChannel',
  'availableModels',
  'awsAuthRefresh',
  'awsCredentialExport',
  'allowedHttpHookUrls',
  'allowedMcpServers',
  'allowManagedHooksOnly',
  'allowManagedMcpServersOnly',
  'allowManagedPermissionRulesOnly',
  'alwaysThinkingEnabled',
  'blockedMarketplaces',
  'cleanupPeriodDays',
  'companyAnnouncements',
  'deniedMcpServers',
  'disableAllHooks',
  'disabledMcpjsonServers',
  'effortLevel',
  'enableAllProjectMcpServers',
  'enabledMcpjsonServers',
  'enabledPlugins',
  'env',
  'extraKnownMarketplaces',
  'fileSuggestion',
  'forceLoginMethod',
  'forceLoginOrgUUID',
  'hooks',
  'httpHookAllowedEnvVars',
  'includeCoAuthoredBy',
  'includeGitInstructions',
  'language',
  'model',
  'otelHeadersHelper',
  'outputStyle',
  'permissions',
  'plansDirectory',
  'prefersReducedMotion',
  'respectGitignore',
  'sandbox',
  'showTurnDuration',
  'skipWebFetchPreflight',
  'spinnerTipsEnabled',
  'spinnerTipsOverride',
  'spinnerVerbs',
  'statusLine',
  'strictKnownMarketplaces',
  'subagentStatusLine',
  'teammateMode',
  'useAutoModeDuringPlan',
  'terminalProgressBarEnabled',
  'theme',
  'verbose',
];

export const PERMISSIONS_KEYS: readonly string[] = [
  'allow',
  'ask',
  'deny',
  'defaultMode',
  'additionalDirectories',
  'disableBypassPermissionsMode',
  'disableAutoMode',
];

export const AUTO_MODE_KEYS: readonly string[] = [
  'environment',
  'allow',
  'soft_deny',
  'hard_deny',
  'classifyAllShell',
];

/**
 * The `sandbox` block's keys (code.claude.com/docs/en/settings, "Sandbox settings"; settings reference as of
 * v2.1.240, with `network.allowMachLookup`, `network.tlsTerminate`, `network.strictAllowlist` and
 * `filesystem.disabled` of the later dated changes).
 */
export const SANDBOX_KEYS: readonly string[] = [
  'enabled',
  'autoAllowBashIfSandboxed',
  'excludedCommands',
  'allowUnsandboxedCommands',
  'failIfUnavailable',
  'enableWeakerNestedSandbox',
  'enableWeakerNetworkIsolation',
  'enabledPlatforms',
  'ignoreViolations',
  'network',
  'filesystem',
  'credentials',
  'ripgrep',
  'bwrapPath',
  'socatPath',
  'allowAppleEvents',
  'allowNestedUserNamespaces',
];

export const SANDBOX_FILESYSTEM_KEYS: readonly string[] = [
  'allowWrite',
  'denyWrite',
  'denyRead',
  'allowRead',
  'allowManagedReadPathsOnly',
  'disabled',
];

export const SANDBOX_NETWORK_KEYS: readonly string[] = [
  'allowedDomains',
  'deniedDomains',
  'allowManagedDomainsOnly',
  'allowUnixSockets',
  'allowAllUnixSockets',
  'allowLocalBinding',
  'httpProxyPort',
  'socksProxyPort',
  'allowMachLookup',
  'tlsTerminate',
  'strictAllowlist',
];

export const AUTOMODE_KEYS: readonly string[] = ['disableShippedRules', 'readServices'];

/**
 * Claude Code's hook events as of 2.1.317 (code.claude.com/docs/en/hooks): names are case-sensitive.
 */
export const HOOK_EVENT_KEYS: readonly string[] = [
  'SessionStart',
  'SessionEnd',
  'Setup',
  'InstructionsLoaded',
  'UserPromptSubmit',
  'UserPromptExpansion',
  'PreToolUse',
  'PermissionRequest',
  'PermissionDenied',
  'PostToolUse',
  'PostToolUseFailure',
  'PostToolBatch',
  'Notification',
  'SubagentStart',
  'SubagentStop',
  'TaskCreated',
  'TaskCompleted',
  'TeammateIdle',
  'Stop',
  'StopFailure',
  'PreCompact',
  'PostCompact',
  'ConfigChange',
  'CwdChanged',
  'FileChanged',
  'WorktreeCreate',
  'WorktreeRemove',
  'Elicitation',
  'ElicitationResult',
  'PreModelSwitch',
  'PostModelSwitch',
  'MessageDisplay',
  'DirectoryAdded',
];

/** The `type` of a hook entry Claude Code runs. */
export const HOOK_TYPES: readonly string[] = ['command', 'http', 'prompt', 'agent', 'mcp_tool'];

/** The fields of a hook entry, by its `type`. */
export const HOOK_HANDLER_KEYS: Readonly<Record<string, readonly string[]>> = {
  command: ['command', 'args', 'shell', 'async', 'asyncRewake', 'onFailure'],
  http: ['url', 'headers', 'allowedEnvVars', 'onFailure'],
  mcp_tool: ['server', 'tool', 'input'],
  prompt: ['prompt', 'model'],
  agent: ['prompt', 'model'],
};

/** The fields every hook entry may have. */
export const HOOK_COMMON_KEYS: readonly string[] = ['type', 'if', 'timeout', 'statusMessage', 'once'];

/** The values of a hook's `onFailure`: `continue` (the default) lets the action through when the hook fails. */
export const HOOK_ON_FAILURE: readonly string[] = ['block', 'continue'];
