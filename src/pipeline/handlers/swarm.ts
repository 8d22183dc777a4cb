import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { PermissionHandler } from '../permission/types.js';
import { deny } from './answers.js';
import type { FileMailbox, MailboxMessage } from './mailbox.js';

export type PermissionRequestMessage = {
  type: 'permission_request';
  id: string;
  from: string;
  toolUseId: string;
  tool: string;
  input: Record<string, unknown>;
  reason: string;
  suggestions: string[];
  noSuggestions?: string;
  warning?: string;
};

export type PermissionResponseMessage = {
  type: 'permission_response';
  id: string;
  behavior: 'allow' | 'deny';
  reason?: string;
};

export interface SwarmWorkerOptions {
  mailbox: FileMailbox;
  /** This worker's mailbox name, where answers arrive. */
  worker: string;
  leader: string;
  /** Without an answer by then, the call is denied (default 60 s). */
  timeoutMs?: number;
  /** How often the worker looks for the answer (default 500 ms). */
  pollMs?: number;
}

/** A swarm worker asks its leader through the mailbox and waits; no answer in time, an abort or garbage is no. */
export function swarmWorkerHandler(options: SwarmWorkerOptions): PermissionHandler {
  const { mailbox, worker, leader, timeoutMs = 60_000, pollMs = 500 } = options;
  return async (request) => {
    const id = randomUUID();
    const message: PermissionRequestMessage = {
      type: 'permission_request',
      id,
      from: worker,
      toolUseId: request.toolUseId,
      tool: request.toolName,
      input: request.input,
      reason: request.reason,
      suggestions: request.suggestions,
    };
    if (request.noSuggestions !== undefined) message.noSuggestions = request.noSuggestions;
    if (request.warning) message.warning = request.warning;
    try {
      await mailbox.send(leader, message);
    } catch (e) {
      return deny('leader', `could not reach the leader: ${(e as Error).message}`);
    }
    const deadline = Date.now() + timeoutMs;
    const isAnswer = (m: MailboxMessage) => m.type === 'permission_response' && m.id === id;
    while (!request.signal.aborted) {
      const [answer] = await mailbox.take(worker, isAnswer).catch(() => []);
      if (answer) {
        const { behavior, reason } = answer as unknown as PermissionResponseMessage;
        const why = typeof reason === 'string' && reason ? reason : `the leader said ${String(behavior)}`;
        if (behavior === 'allow') return { behavior: 'allow', by: 'leader', reason: why };
        return deny('leader', behavior === 'deny' ? why : 'the leader sent an unreadable answer');
      }
      const left = deadline - Date.now();
      if (left <= 0)
        return deny('leader', `no answer from ${leader} within ${Math.round(timeoutMs / 1000)} s`);
      await sleep(Math.min(pollMs, left), undefined, { signal: request.signal }).catch(() => undefined);
    }
    return deny('leader', 'cancelled while waiting for the leader');
  };
}

export type LeaderDecision = (
  request: PermissionRequestMessage,
) => Promise<Omit<PermissionResponseMessage, 'type' | 'id'>>;

/** The leader's side, one pass: answers every permission request waiting in its mailbox. Returns how many. */
export async function answerPermissionRequests(
  mailbox: FileMailbox,
  leader: string,
  decide: LeaderDecision,
): Promise<number> {
  const requests = await mailbox.take(leader, (m) => m.type === 'permission_request');
  for (const m of requests) {
    const request = m as unknown as PermissionRequestMessage;
    const answer = await decide(request).catch((e: Error) => ({
      behavior: 'deny' as const,
      reason: e.message,
    }));
    const response: PermissionResponseMessage = { type: 'permission_response', id: request.id, ...answer };
    await mailbox.send(request.from, response);
  }
  return requests.length;
}

/** Answers permission requests until the signal fires. */
export async function servePermissionRequests(
  mailbox: FileMailbox,
  leader: string,
  decide: LeaderDecision,
  options: { signal: AbortSignal; pollMs?: number },
): Promise<void> {
  while (!options.signal.aborted) {
    await answerPermissionRequests(mailbox, leader, decide);
    await sleep(options.pollMs ?? 500, undefined, { signal: options.signal }).catch(() => undefined);
  }
}
