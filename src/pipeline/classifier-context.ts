import type { ClassifierNote, TranscriptContext } from '../classifier/index.js';

/**
 * Claude Code's limit for the `classifierContext` of one call: 2,000 UTF-16 code units, shared by all the
 * PostToolUse hooks that give one.
 */
export const MAX_CLASSIFIER_CONTEXT_CHARS = 2000;

/** How many calls' notes the classifier sees (as many as earlier tool calls). */
const MAX_NOTES = 30;

/** At most `limit` UTF-16 code units, without splitting a surrogate pair. */
function cap(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const end = /[\uD800-\uDBFF]/.test(text[limit - 1] ?? '') ? limit - 1 : limit;
  return text.slice(0, end);
}

/** The session's `classifierContext` notes, one per call that had any, for the classifier's later judgements. */
export class ClassifierContextLog {
  private readonly notes: (ClassifierNote & { toolUseId: string })[] = [];

  /** The notes of one call's hooks, in settings order: joined, then cut to Claude Code's limit. */
  add(tool: string, toolUseId: string, texts: readonly string[]): void {
    const text = cap(texts.filter((t) => t.trim()).join('\n'), MAX_CLASSIFIER_CONTEXT_CHARS);
    if (!text) return;
    this.notes.push({ tool, toolUseId, text });
    if (this.notes.length > MAX_NOTES) this.notes.shift();
  }

  /** The session context as the embedder gives it, with the notes added. */
  withNotes(context: TranscriptContext | undefined): TranscriptContext | undefined {
    if (this.notes.length === 0) return context;
    return { ...context, classifierContext: this.notes.map(({ tool, text }) => ({ tool, text })) };
  }
}
