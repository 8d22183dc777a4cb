/** Message Batches for the loopback server: created with their results, ended after a number of polls. */
import type { Reply } from './messages-replies.js';
import { buildMessage, type WireIds } from './messages-wire.js';

export interface BatchItem {
  custom_id: string;
  params: unknown;
}

type BatchResult =
  | { type: 'succeeded'; message: unknown }
  | { type: 'errored'; error: { type: 'error'; error: { type: string; message: string }; request_id: null } }
  | { type: 'canceled' };

interface Batch {
  id: string;
  createdAt: Date;
  polls: number;
  pollsToEnd: number;
  endedAt?: Date;
  cancelAt?: Date;
  results: { custom_id: string; result: BatchResult }[];
}

export class BatchStore {
  readonly #batches = new Map<string, Batch>();
  readonly #ids: WireIds;
  readonly #baseUrl: () => string;

  constructor(ids: WireIds, baseUrl: () => string) {
    this.#ids = ids;
    this.#baseUrl = baseUrl;
  }

  /** Each item's reply is asked for in order, as the batch is created. */
  async create(
    items: BatchItem[],
    replyFor: (item: BatchItem, batchId: string) => Promise<Reply>,
    pollsToEnd: number,
  ): Promise<object> {
    const batch: Batch = {
      id: this.#ids.next('msgbatch'),
      createdAt: new Date(),
      polls: 0,
      pollsToEnd,
      results: [],
    };
    for (const item of items) {
      const reply = await replyFor(item, batch.id);
      batch.results.push({ custom_id: item.custom_id, result: this.#result(reply, item.params) });
    }
    this.#batches.set(batch.id, batch);
    if (pollsToEnd <= 0) batch.endedAt = new Date();
    return this.#wire(batch);
  }

  /** A retrieve counts as a poll: the batch ends on the poll that reaches `pollsToEnd`, or after a cancel. */
  poll(id: string): object | undefined {
    const batch = this.#batches.get(id);
    if (!batch) return undefined;
    batch.polls++;
    if (!batch.endedAt && (batch.polls >= batch.pollsToEnd || batch.cancelAt)) batch.endedAt = new Date();
    return this.#wire(batch);
  }

  cancel(id: string): object | undefined {
    const batch = this.#batches.get(id);
    if (!batch) return undefined;
    if (!batch.endedAt && !batch.cancelAt) {
      batch.cancelAt = new Date();
      batch.results = batch.results.map((r) => ({ custom_id: r.custom_id, result: { type: 'canceled' } }));
    }
    return this.#wire(batch);
  }

  /** JSONL, or undefined while the batch has not ended (or does not exist). */
  results(id: string): string | undefined {
    const batch = this.#batches.get(id);
    if (!batch?.endedAt) return undefined;
    return batch.results.map((r) => `${JSON.stringify(r)}\n`).join('');
  }

  #result(reply: Reply, params: unknown): BatchResult {
    if (reply.type === 'message')
      return { type: 'succeeded', message: buildMessage(reply, params, this.#ids) };
    const [type, message] =
      reply.type === 'error'
        ? [reply.errorType, reply.message]
        : ['api_error', `scripted ${reply.type} reply`];
    return { type: 'errored', error: { type: 'error', error: { type, message }, request_id: null } };
  }

  #wire(batch: Batch): object {
    const ended = batch.endedAt !== undefined;
    const counts = { processing: 0, succeeded: 0, errored: 0, canceled: 0, expired: 0 };
    for (const { result } of batch.results) {
      if (!ended) counts.processing++;
      else counts[result.type]++;
    }
    const expires = new Date(batch.createdAt.getTime() + 24 * 3600_000);
    return {
      id: batch.id,
      type: 'message_batch',
      processing_status: ended ? 'ended' : batch.cancelAt ? 'canceling' : 'in_progress',
      request_counts: counts,
      created_at: batch.createdAt.toISOString(),
      expires_at: expires.toISOString(),
      ended_at: batch.endedAt?.toISOString() ?? null,
      cancel_initiated_at: batch.cancelAt?.toISOString() ?? null,
      archived_at: null,
      results_url: ended ? `${this.#baseUrl()}/v1/messages/batches/${batch.id}/results` : null,
    };
  }
}
