import { openRegularFile } from './transcript-file.js';

/** What the session shows the classifier: the user's words and the agent's earlier calls, never tool results. */
export interface TranscriptContext {
  userMessages?: readonly string[];
  toolCalls?: readonly { tool: string; input: unknown }[];
  /**
   * Notes PostToolUse hooks attached to earlier calls' results (`classifierContext`). Nothing checks what they
   * say: the model reads them as unverified, and they reach it only for what the rules leave to it.
   */
  classifierContext?: readonly ClassifierNote[];
  /**
   * The project's CLAUDE.md, as Claude Code's classifier reads it (reference as of v2.1.240): bounded, and shown
   * to the model as untrusted data, since anything that can write the repository can write it.
   */
  projectInstructions?: string;
}

/** One call's `classifierContext`: the notes of all its hooks together. */
export interface ClassifierNote {
  tool: string;
  text: string;
}

interface Block {
  type?: string;
  text?: string;
  name?: string;
  input?: unknown;
}

/** How much of the session the classifier sees: the last user messages and the last tool calls. */
export const TRANSCRIPT_LIMITS = { messages: 20, calls: 30 };

/** What one line of a transcript adds: the user's messages and the agent's tool calls, in order. */
export interface LineContext {
  userMessages: string[];
  toolCalls: { tool: string; input: unknown }[];
}

/** One JSONL line's share of the context; undefined for a blank or unreadable line. */
export function contextOfLine(line: string): LineContext | undefined {
  if (!line.trim()) return undefined;
  let entry: { type?: string; message?: { role?: string; content?: unknown } };
  try {
    entry = JSON.parse(line);
  } catch {
    return undefined;
  }
  const userMessages: string[] = [];
  const toolCalls: { tool: string; input: unknown }[] = [];
  const role = entry?.message?.role ?? entry?.type;
  const content = entry?.message?.content;
  if (role === 'user') {
    if (typeof content === 'string') userMessages.push(content);
    else if (Array.isArray(content)) {
      for (const b of content as Block[])
        if (b?.type === 'text' && typeof b.text === 'string') userMessages.push(b.text);
    }
  } else if (role === 'assistant' && Array.isArray(content)) {
    for (const b of content as Block[]) {
      if (b?.type === 'tool_use' && typeof b.name === 'string')
        toolCalls.push({ tool: b.name, input: b.input });
    }
  }
  return { userMessages, toolCalls };
}

/**
 * The classifier's view of a Claude Code transcript (JSONL): the user's own messages and the agent's tool calls.
 * Tool results, the agent's prose and anything unreadable are left out: text the agent read cannot talk to it.
 */
export function contextFromTranscript(text: string, limits = TRANSCRIPT_LIMITS): TranscriptContext {
  const userMessages: string[] = [];
  const toolCalls: { tool: string; input: unknown }[] = [];
  for (const line of text.split('\n')) {
    const c = contextOfLine(line);
    if (!c) continue;
    userMessages.push(...c.userMessages);
    toolCalls.push(...c.toolCalls);
  }
  return { userMessages: userMessages.slice(-limits.messages), toolCalls: toolCalls.slice(-limits.calls) };
}

/** Reads a transcript file; an unreadable one, or one that is no regular file, gives no context (the classifier then judges the action alone). */
export async function readTranscript(path: string): Promise<TranscriptContext | undefined> {
  const opened = await openRegularFile(path);
  if (!opened) return undefined;
  try {
    return contextFromTranscript(await opened.file.readFile('utf8'));
  } catch {
    return undefined;
  } finally {
    await opened.file.close();
  }
}
