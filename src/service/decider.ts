import { LRUCache } from 'lru-cache';
import { analyzeBash } from '../bash/index.js';
import {
  type ClassifiedVerdict,
  type Classifier,
  type ClassifierSession,
  createClassifier,
  createSession,
  followTranscript,
  type ToolCall,
  type TranscriptFollower,
} from '../classifier/index.js';
import { canonicalJson, type ModelCaller } from '../llm/index.js';
import { type FileStamp, type LoadedSettings, projectFolders, stampHolds } from '../rules/index.js';
import { type AnswerOptions, type HookInput, isUndecided } from './answer.js';

/**
 * Loads the settings of a session's project root (undefined: the service's own folder), as `automode hook` would.
 */
export type LoadSettings = (cwd: string | undefined) => Promise<LoadedSettings>;

export interface DeciderOptions {
  load: LoadSettings;
  model?: ModelCaller;
  answer?: AnswerOptions;
  /** A session unseen for this long is forgotten (default 30 minutes). */
  sessionIdleMs?: number;
  /** Project roots whose settings are kept loaded (default 64). */
  maxFolders?: number;
  /** The project root of a call's folder (default: CLAUDE_PROJECT_DIR, else the repository holding it). */
  projectRoot?: (cwd: string) => string;
  maxSessions?: number;
}

/** One decision, as the service logs it. */
export interface Decision {
  time: string;
  session?: string;
  event: string;
  tool: string;
  /** allow, ask or deny; `none` when the answer leaves the call to Claude Code (nobody decided). */
  decision: 'allow' | 'ask' | 'deny' | 'none';
  rule?: string;
  reused: boolean;
  ms: number;
}

interface Folder {
  settings: LoadedSettings;
  classifier: Classifier;
  /** What the loader read; a loader that says nothing of its reads is called again for every call. */
  stamps: FileStamp[] | undefined;
  generation: number;
}

interface SessionState {
  session: ClassifierSession;
  transcript?: { path: string; follower: TranscriptFollower };
}

/**
 * A classification started by a PreToolUse, kept for the PermissionRequest of the same call: reused only for
 * the same call (tool, input, folder and mode, as canonical JSON) judged with the same settings generation.
 */
interface Started {
  call: string;
  generation: number;
  verdict: Promise<ClassifiedVerdict>;
}

export interface DeciderStatus {
  sessions: number;
  decisions: number;
  byDecision: Record<Decision['decision'], number>;
  reused: number;
  folders: { cwd: string; failed: boolean; reloads: number }[];
}

export interface Decider {
  /** The verdict for one hook input, and whether a started classification was reused. */
  decide(input: HookInput): Promise<{ verdict: ClassifiedVerdict; reused: boolean }>;
  /** What to log of a decided input. */
  describe(input: HookInput, verdict: ClassifiedVerdict, reused: boolean, ms: number): Decision;
  status(): DeciderStatus;
  /** Loads the settings of the service's own folder and parses one command, so the first call is not slow. */
  warm(): Promise<void>;
  close(): void;
}

/**
 * The state of a classifier serving many sessions: settings and classifier per project root, reloaded when a
 * file they came from changes; denial counts and transcript per session; and started classifications.
 */
export function createDecider(options: DeciderOptions): Decider {
  const folders = new Map<string, Promise<Folder>>();
  const reloads = new Map<string, number>();
  const loaded = new Map<string, LoadedSettings>();
  const maxFolders = options.maxFolders ?? 64;
  let generation = 0;
  const sessions = new LRUCache<string, SessionState>({
    max: options.maxSessions ?? 10_000,
    ttl: options.sessionIdleMs ?? 30 * 60_000,
    updateAgeOnGet: true,
  });
  const started = new LRUCache<string, Started>({ max: 1_000, ttl: 5 * 60_000 });
  const purge = setInterval(() => sessions.purgeStale(), 60_000);
  purge.unref();
  const counts: DeciderStatus['byDecision'] = { allow: 0, ask: 0, deny: 0, none: 0 };
  let reusedCount = 0;

  const load = async (cwd: string | undefined): Promise<Folder> => {
    const settings = await options.load(cwd);
    const classifier = createClassifier(
      settings,
      options.model ? { model: options.model, projectEnvironment: true } : {},
    );
    return { settings, classifier, stamps: settings.stamps, generation: ++generation };
  };

  const rootOf =
    options.projectRoot ?? ((cwd: string) => projectFolders(cwd, process.env.CLAUDE_PROJECT_DIR).projectRoot);

  /** The settings and classifier of the project a call's folder belongs to: one per project root. */
  const folderFor = async (callCwd: string | undefined): Promise<Folder> => {
    const cwd = callCwd === undefined ? undefined : rootOf(callCwd);
    const key = cwd ?? '';
    const cached = folders.get(key);
    if (cached) {
      const folder = await cached.catch(() => undefined);
      const now = Date.now();
      if (folder?.stamps?.every((stamp) => stampHolds(stamp, now))) {
        folders.delete(key);
        folders.set(key, cached);
        return folder;
      }
      if (folders.get(key) === cached) {
        folders.delete(key);
        reloads.set(key, (reloads.get(key) ?? 0) + 1);
      }
    }
    const current = folders.get(key);
    if (current) return current;
    const loading = load(cwd);
    folders.set(key, loading);
    loading.then((f) => loaded.set(key, f.settings)).catch(() => undefined);
    loading.catch(() => {
      if (folders.get(key) === loading) folders.delete(key);
    });
    while (folders.size > maxFolders) {
      const oldest = folders.keys().next().value as string;
      folders.delete(oldest);
      reloads.delete(oldest);
      loaded.delete(oldest);
    }
    return loading;
  };

  const sessionFor = (input: HookInput): SessionState => {
    if (!input.sessionId) return { session: createSession() };
    let state = sessions.get(input.sessionId);
    if (!state) {
      state = { session: createSession() };
      sessions.set(input.sessionId, state);
    }
    if (input.transcriptPath && state.transcript?.path !== input.transcriptPath)
      state.transcript = { path: input.transcriptPath, follower: followTranscript(input.transcriptPath) };
    return state;
  };

  const keysOf = (input: HookInput, call: string): string[] => {
    if (!input.sessionId) return [];
    const byContent = `${input.sessionId}\0${call}`;
    return input.toolUseId ? [`${input.sessionId}\0#${input.toolUseId}`, byContent] : [byContent];
  };

  return {
    async decide(input) {
      const folder = await folderFor(input.call.cwd);
      const call = canonicalCall(input.call);
      const keys = keysOf(input, call);
      if (input.event === 'PermissionRequest') {
        for (const key of keys) {
          const earlier = started.get(key);
          if (earlier && earlier.call === call && earlier.generation === folder.generation) {
            for (const k of keys) started.delete(k);
            reusedCount++;
            return { verdict: await earlier.verdict, reused: true };
          }
        }
      }
      const state = sessionFor(input);
      const transcript = state.transcript?.follower;
      const verdict = folder.classifier.classify(input.call, {
        session: state.session,
        ...(transcript ? { context: () => transcript.read() } : {}),
      });
      if (input.event === 'PreToolUse') {
        verdict.catch(() => undefined);
        for (const key of keys) started.set(key, { call, generation: folder.generation, verdict });
      }
      return { verdict: await verdict, reused: false };
    },
    describe(input, verdict, reused, ms) {
      const answered = !options.answer?.askWhenUndecided && isUndecided(verdict) ? 'none' : verdict.decision;
      counts[answered]++;
      const decision: Decision = {
        time: new Date().toISOString(),
        event: input.event,
        tool: input.call.tool,
        decision: answered,
        reused,
        ms: Math.round(ms * 10) / 10,
      };
      if (input.sessionId) decision.session = input.sessionId;
      if (verdict.rule) decision.rule = verdict.rule.text;
      return decision;
    },
    status() {
      const listed: DeciderStatus['folders'] = [];
      for (const [key, settings] of loaded)
        listed.push({
          cwd: settings.cwd,
          failed: settings.failed.length > 0,
          reloads: reloads.get(key) ?? 0,
        });
      return {
        sessions: sessions.size,
        decisions: counts.allow + counts.ask + counts.deny + counts.none,
        byDecision: { ...counts },
        reused: reusedCount,
        folders: listed,
      };
    },
    async warm() {
      await Promise.all([folderFor(undefined), analyzeBash('echo $(ls) && rm -rf build')]);
    },
    close() {
      clearInterval(purge);
      sessions.clear();
      started.clear();
    },
  };
}

/** Everything of a call a verdict depends on, as one string: equal strings are the same call. */
function canonicalCall(call: ToolCall): string {
  return canonicalJson({
    tool: call.tool,
    input: call.input,
    cwd: call.cwd ?? null,
    mode: call.mode ?? null,
  });
}
