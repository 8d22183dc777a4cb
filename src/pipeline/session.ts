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
}
