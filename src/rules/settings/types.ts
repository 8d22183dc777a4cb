import type { Mode } from '../../shared/index.js';
import type { ProseRules } from '../prose/types.js';
import type { Diagnostic, Provenance, Rule, SourceName } from '../types.js';
import type { DisabledRule } from './shipped.js';
import type { FileStamp } from './stamp.js';

export type Segment = string | number;

/** Reports a problem at a JSON path of the document being read. */
export type Report = (
  path: Segment[],
  severity: Diagnostic['severity'],
  code: Diagnostic['code'],
  message: string,
) => void;

export interface Position {
  line: number;
  column: number;
}

export interface Setting<T> {
  value: T;
  provenance: Provenance;
}

/** Single-valued settings; the one kept comes from the highest-precedence source. */
export interface Scalars {
  defaultMode?: Setting<Mode>;
  disableBypassPermissionsMode?: Setting<'disable'>;
  allowManagedPermissionRulesOnly?: Setting<boolean>;
  classifyAllShell?: Setting<boolean>;
  /** Plan mode judges calls as auto mode does when a model is configured (Claude Code's `useAutoModeDuringPlan`). */
  useAutoModeDuringPlan?: Setting<boolean>;
}

export interface DirectoryEntry {
  /** Absolute path (`~` expanded, relative paths resolved against the working folder). */
  path: string;
  text: string;
  provenance: Provenance;
}

/**
 * One entry of `automode.readServices`: a program (`kubectl`) whose reads of the user's own services (its
 * spec's `serviceRead` allow-lists) are allowed, with the place it was written.
 */
export interface ReadServiceEntry {
  program: string;
  provenance: Provenance;
}

/** A `hooks` block kept as written, checked only loosely. */
export interface HookBlock {
  source: SourceName;
  file?: string;
  pointer: '/hooks';
  hooks: Record<string, unknown[]>;
}

/**
 * Where http hooks may send and what they may read (Claude Code's `allowedHttpHookUrls` and
 * `httpHookAllowedEnvVars`, settings reference as of v2.1.240). Absent: no limit.
 */
export interface HttpHookPolicy {
  /** URL patterns (`*` stands for any characters); a hook whose URL matches none does not run. */
  allowedUrls?: string[];
  /** The variables any http hook may put in its headers: each hook's `allowedEnvVars` is cut down to these. */
  allowedEnvVars?: string[];
}

/** A list entry of the `sandbox` block, paths already absolute, with the source that wrote it. */
export interface SandboxEntry {
  value: string;
  source: SourceName;
}

/**
 * The merged `sandbox` blocks: a single value from the highest-precedence source that sets it, lists from every
 * source. Paths are absolute (`~/` is the home folder; a relative path is relative to the settings file's root).
 */
export interface SandboxSettings {
  enabled?: boolean;
  autoAllowBashIfSandboxed?: boolean;
  allowUnsandboxedCommands?: boolean;
  failIfUnavailable?: boolean;
  enableWeakerNestedSandbox?: boolean;
  /**
   * `enabledPlatforms`: the sandbox is on only on these platforms (`macos`, `linux`, `wsl`, `windows`); the
   * highest-precedence source that sets the list wins.
   */
  enabledPlatforms?: string[];
  excludedCommands: SandboxEntry[];
  filesystem: {
    allowWrite: SandboxEntry[];
    denyWrite: SandboxEntry[];
    denyRead: SandboxEntry[];
    allowRead: SandboxEntry[];
  };
  network: {
    allowedDomains: SandboxEntry[];
    /** Domains no sandboxed command reaches, from every source (Claude Code's `deniedDomains`, as of v2.1.240). */
    deniedDomains: SandboxEntry[];
    allowUnixSockets: SandboxEntry[];
    allowAllUnixSockets?: boolean;
    allowLocalBinding?: boolean;
    httpProxyPort?: number;
    socksProxyPort?: number;
    /** Set in managed settings: only managed `allowedDomains` and WebFetch allow rules open the network. */
    allowManagedDomainsOnly?: boolean;
  };
}

export interface SettingsFileInfo {
  source: SourceName;
  path: string;
  exists: boolean;
}

export interface LoadedSettings {
  cwd: string;
  /**
   * The session's project root (CLAUDE_PROJECT_DIR, else the repository holding `cwd`), through its links: the
   * folder the project settings came from and the working folder of path decisions. Absent: `cwd`.
   */
  projectRoot?: string;
  home: string;
  /** Permission and pattern rules in display order: policy, flag, cli, local, project, user, session, command, rule files. */
  rules: Rule[];
  prose: ProseRules;
  defaultMode?: Mode;
  scalars: Scalars;
  additionalDirectories: DirectoryEntry[];
  /** Merged `env`: a key from a higher-precedence source wins. */
  env: Record<string, string>;
  hooks: HookBlock[];
  /** Limits on http hooks; absent when no source sets any. */
  httpHooks?: HttpHookPolicy;
  /** The merged `sandbox` blocks; absent when no source has one. */
  sandbox?: SandboxSettings;
  /** Every warning and error, located. */
  diagnostics: Diagnostic[];
  /** The errors: the settings could not be read in full, so no decision should be automatic. */
  failed: Diagnostic[];
  files: SettingsFileInfo[];
  /** What each file and folder read was, taken before its read: the settings are current while all hold. */
  stamps?: FileStamp[];
  /** Shipped rules turned off by `automode.disableShippedRules`, each with the entry that did it. */
  disabledShipped?: DisabledRule[];
  /**
   * `automode.readServices` entries of every source, in display order (the highest-precedence first); only the
   * managed ones when managed settings allow managed permission rules only.
   */
  readServices?: ReadServiceEntry[];
}
