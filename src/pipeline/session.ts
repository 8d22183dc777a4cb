import type { HookRun } from '../hooks/index.js';
import { ClassifierContextLog } from './classifier-context.js';
import { DenialTracking } from './permission/denials.js';
import { BackgroundTasks } from './tools/background.js';

/** What Read recorded about a file: Write and Edit refuse files not read, or changed since. */
export interface FileRecord {
  content: string;
  mtimeMs: number;
}

export interface Todo {
  content: string;
  status: 'pending' | 'in_progress' | 'completed';
  activeForm?: string;
}

/** State that lives as long as the agent session. */
export class SessionState {
  readonly readFiles = new Map<string, FileRecord>();
  todos: Todo[] = [];
  readonly tasks = new BackgroundTasks();
  readonly denials = new DenialTracking();
  /** What PostToolUse hooks told the classifier about the session's results. */
  readonly classifierContext = new ClassifierContextLog();
  /** `async` hooks still running, each ended by its timeout at the latest. */
  readonly backgroundHooks = new Set<Promise<HookRun>>();

  /** Keeps a background hook's run in `backgroundHooks` until it ends. */
  trackBackgroundHook(run: Promise<HookRun>): void {
    this.backgroundHooks.add(run);
    void run.finally(() => this.backgroundHooks.delete(run));
  }
}
