import type { Diagnostic, ReadServiceEntry } from '../rules/index.js';
import type { Mode } from '../shared/index.js';
import type { RuleIndex } from './rule-index.js';

/** Everything a deterministic decision depends on besides the call itself. */
export interface DecisionContext {
  cwd: string;
  /**
   * The project's root, when known. A working folder inside it as named that a link leads out of (a link to `~`)
   * is not a permitted folder: the root is, where its own links lead.
   */
  root?: string;
  home: string;
  mode: Mode;
  index: RuleIndex;
  /** Folders besides cwd where reads (and, with acceptEdits, writes) need no rule. */
  additionalDirectories: readonly string[];
  /** Settings that failed to load: nothing may be allowed automatically. */
  failed: readonly Diagnostic[];
  /**
   * The programs whose reads of the user's own services the settings turn on (`automode.readServices`), each
   * with the entry of the highest-precedence source that names it.
   */
  readServices?: ReadonlyMap<string, ReadServiceEntry>;
  /** Whether a model is configured to judge what rules leave open (auto mode). */
  hasModel: boolean;
  /** Symlink targets looked up during this one decision (the file system is read once per path). */
  realPaths?: Map<string, string>;
  /** Whether each path looked up during this decision is a folder, as the symlink lookup found it. */
  folders?: Map<string, boolean>;
}
