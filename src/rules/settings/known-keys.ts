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

/** The `sandbox` block's keys (code.claude.com/docs/en/settings, "Sandbox settings"). */
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
];

export const SANDBOX_NETWORK_KEYS: readonly string[] = [
  'allowedDomains',
  'allowManagedDomainsOnly',
  'allowUnixSockets',
  'allowAllUnixSockets',
  'allowLocalBinding',
  'httpProxyPort',
  'socksProxyPort',
];

export const AUTOMODE_KEYS: readonly string[] = ['disableShippedRules'];

/** The known key `key` is probably a misspelling of: equal ignoring case, or at most two edits away. */
export function misspeltKey(key: string, known: readonly string[]): string | undefined {
  if (known.includes(key)) return undefined;
  const lower = key.toLowerCase();
  let best: { key: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = candidate.toLowerCase() === lower ? 0 : editDistance(key, candidate);
    // Two edits turn most three-letter words into each other: a short key must be nearer.
    const limit = Math.min(2, Math.floor(Math.min(key.length, candidate.length) / 3));
    if (distance <= limit && (!best || distance < best.distance)) best = { key: candidate, distance };
  }
  return best?.key;
}

/** Levenshtein distance with adjacent transpositions (optimal string alignment). */
function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3;
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    rows.push([i]);
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        rows[0]!.push(j);
        continue;
      }
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]!.push(d);
    }
  }
  return rows[a.length]![b.length]!;
}

/** Claude Code's hook events (code.claude.com/docs/en/hooks): names are case-sensitive. */
export const HOOK_EVENT_KEYS: readonly string[] = [
  'SessionStart',
  'SessionEnd',
  'Setup',
  'InstructionsLoaded',
  'UserPromptSubmit',
  'PreToolUse',
  'PermissionRequest',
  'PermissionDenied',
  'PostToolUse',
  'PostToolUseFailure',
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
];

/** The `type` of a hook entry Claude Code runs. */
export const HOOK_TYPES: readonly string[] = ['command', 'http', 'prompt', 'agent', 'mcp_tool'];
