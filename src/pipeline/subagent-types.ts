/** What the Agent tool asks for: a sub-agent of a type, with its own prompt. */
export interface SubagentRequest {
  /** A few words for listings. */
  description: string;
  /** The sub-agent's task: its first user message. */
  prompt: string;
  agentType: string;
}

/** How a sub-agent's run ended. */
export interface SubagentOutcome {
  agentId: string;
  agentType: string;
  /** The text of its last message: what the parent gets. */
  text: string;
  /** As the agent loop says: `end_turn`, `max-turns`, `hook-stop`, `error`… */
  stopReason: string;
  error?: string;
  turns: number;
  /** SubagentStart and SubagentStop hooks that failed or printed something unusable. */
  hookErrors: string[];
}

/** The one sub-agent type: every tool of the parent but Agent, with the parent's permissions. */
export const GENERAL_PURPOSE_AGENT = 'general-purpose';

export const SUBAGENT_TYPES: readonly string[] = [GENERAL_PURPOSE_AGENT];
