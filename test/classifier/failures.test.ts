import { describe, expect, it } from 'vitest';
import { useSandboxClassifier } from './helpers.js';

/** An input object that fails when read, as a broken or hostile caller could hand over. */
function exploding(): Record<string, unknown> {
  return Object.defineProperty({}, 'command', {
    enumerable: true,
    get() {
      throw new Error('boom');
    },
  });
}

describe('a failure inside the checks', () => {
  const sandbox = useSandboxClassifier();

  it('comes back as an ask with the reason, not as a thrown error', async () => {
    const v = await sandbox.classifier.classify({ tool: 'Bash', input: exploding() });
    expect(v.decision).toBe('ask');
    expect(v.by).toBe('opaque');
    expect(v.reason).toMatch(/checks failed.*boom/);
  });

  it('is not allowed even in bypassPermissions mode', async () => {
    const v = await sandbox.classifier.classify({
      tool: 'Bash',
      input: exploding(),
      mode: 'bypassPermissions',
    });
    expect(v.decision).toBe('ask');
  });

  it('is denied in dontAsk mode, like every other ask', async () => {
    const v = await sandbox.classifier.classify({ tool: 'Bash', input: exploding(), mode: 'dontAsk' });
    expect(v.decision).toBe('deny');
  });
});
