import type { ClassifierSession, Judgement } from './types.js';

/**
 * After 3 model denials in a row or 20 in a session, the model's denials turn into questions: a human looks
 * before the agent keeps bumping into the same wall.
 */
class DenialTracker {
  private consecutive = 0;
  private total = 0;

  record(j: Judgement, cached: boolean): Judgement {
    if (!j.ok) return j;
    if (j.decision === 'allow') {
      this.consecutive = 0;
      return j;
    }
    if (!cached) {
      this.consecutive++;
      this.total++;
    }
    if (this.consecutive > 3 || this.total > 20) {
      return {
        ok: false,
        stage: j.stage,
        kind: 'refusal',
        message: `the model denied ${this.consecutive} calls in a row (${this.total} in this session): asking instead`,
        usage: j.usage,
        latencyMs: j.latencyMs,
      };
    }
    return j;
  }
}

export function createSession(): ClassifierSession {
  return { denials: new DenialTracker() };
}
