export type Behavior = 'allow' | 'ask' | 'deny';

export const BEHAVIORS: readonly Behavior[] = ['allow', 'ask', 'deny'];

/** Where settings come from, in display order (highest precedence first for scalars). */
export type SourceName =
  | 'policySettings'
  | 'flagSettings'
  | 'cliArg'
  | 'localSettings'
  | 'projectSettings'
  | 'userSettings'
  | 'session'
  | 'command'
  | 'ruleFile'
  | 'defaults';

export const SOURCE_ORDER: readonly SourceName[] = [
  'policySettings',
  'flagSettings',
  'cliArg',
  'localSettings',
  'projectSettings',
  'userSettings',
  'session',
  'command',
  'ruleFile',
  'defaults',
];

export interface Provenance {
  source: SourceName;
  /** Absolute path of the file the rule was read from; absent for CLI and API rules. */
  file?: string;
  /** JSON pointer to the rule inside its file, e.g. `/permissions/allow/3`. */
  pointer: string;
  /** Index of the entry in its list. */
  index: number;
  /** 1-based position of the entry's literal in the file text. */
  line?: number;
  column?: number;
}

export type Severity = 'error' | 'warning';

export interface Diagnostic {
  severity: Severity;
  code: DiagnosticCode;
  message: string;
  file?: string;
  line?: number;
  column?: number;
  pointer?: string;
  source?: SourceName;
  /** The rule text the diagnostic is about. */
  rule?: string;
}

export type DiagnosticCode =
  | 'read-failed'
  | 'invalid-json'
  | 'invalid-yaml'
  | 'schema'
  | 'rule-empty'
  | 'rule-syntax'
  | 'unknown-tool'
  | 'legacy-colon-star'
  | 'shell-operator'
  | 'glued-option-star'
  | 'path-rule-ignored'
  | 'param-main-field'
  | 'param-allow-ignored'
  | 'allow-tool-wildcard'
  | 'webfetch-specifier'
  | 'invalid-regex'
  | 'redos'
  | 'example-mismatch'
  | 'pattern-field'
  | 'automode-ignored'
  | 'defaults-replaced'
  | 'managed-only'
  | 'shipped-rule-unknown'
  | 'shipped-deny-kept'
  | 'unknown-setting'
  | 'unknown-hook-event'
  | 'unknown-hook-type'
  | 'unknown-hook-field'
  | 'invalid-on-failure'
  | 'invalid-hook-if'
  | 'powershell-command';

/** A Bash specifier compiled once. `regex` is the source of an anchored RegExp over a command line. */
export interface BashPattern {
  /** The specifier as written, e.g. `npm run test:*`. */
  source: string;
  /** No wildcard: the command line must equal `source`. */
  exact: boolean;
  /** Ends with ` *` or legacy `:*`: the last literal word must be followed by a space or the end. */
  wordBoundary: boolean;
  legacyColonStar: boolean;
  /** Complete literal words before the first wildcard, e.g. ['git', 'commit'] for `git commit *`. */
  prefixWords: string[];
  regex: string;
}

/** What a path pattern is relative to. */
export type PathAnchor = 'absolute' | 'home' | 'root' | 'cwd';

export interface PathPattern {
  source: string;
  anchor: PathAnchor;
  /** The gitignore-style glob relative to the anchor, without a leading slash. */
  glob: string;
  /** A single name without a slash: matches at any depth below the anchor. */
  anyDepth: boolean;
  /** Trailing slash: only matches inside a directory of that name. */
  directoryOnly: boolean;
  /** For anchor `root`: the settings file's root folder, resolved at load time. */
  root?: string;
}

export interface DomainPattern {
  source: string;
  /** Lower-case host without the `*.` prefix. */
  domain: string;
  /** `*.example.com`: any subdomain, not the apex. */
  subdomains: boolean;
}

export const PATH_TOOLS = ['Read', 'Edit', 'Write', 'MultiEdit', 'NotebookEdit', 'Glob', 'Grep'] as const;
export type PathTool = (typeof PATH_TOOLS)[number];

export type ParsedPermission =
  /** A bare tool name, or `Tool(*)`: every use of the tool. */
  | { kind: 'tool'; tool: string }
  | { kind: 'bash'; tool: 'Bash'; pattern: BashPattern }
  | { kind: 'path'; tool: PathTool; pattern: PathPattern }
  | { kind: 'domain'; tool: 'WebFetch'; pattern: DomainPattern }
  /** `mcp__server` (toolPattern absent), `mcp__server__*`, `mcp__server__tool`, `mcp__server__get_*`. */
  | { kind: 'mcp'; tool: string; server: string; toolPattern?: string }
  /** `Tool(param:value)`: a top-level scalar input field; `*` in value is a wildcard. */
  | { kind: 'param'; tool: string; param: string; value: string }
  /** Any other specifier (`Agent(Explore)`, `Skill(name)`), kept verbatim. */
  | { kind: 'specifier'; tool: string; specifier: string };

export interface PermissionRule {
  type: 'permission';
  behavior: Behavior;
  text: string;
  parsed: ParsedPermission;
  provenance: Provenance;
}

export type PatternField = 'command' | 'path' | 'input';

/**
 * A rule from an automode rule file. The regex (no flags, unanchored unless written so) is tested against:
 * `command`: each simple command's argv joined by single spaces; `path`: the absolute path;
 * `input`: JSON.stringify(tool input).
 */
export interface PatternRule {
  type: 'pattern';
  behavior: Behavior;
  /** The regex source as written. */
  text: string;
  tool: string;
  field: PatternField;
  label: string;
  description?: string;
  provenance: Provenance;
}

export type Rule = PermissionRule | PatternRule;
