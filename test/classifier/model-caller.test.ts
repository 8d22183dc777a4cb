import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createClassifier } from '../../src/classifier/index.js';
import type { ModelCaller } from '../../src/llm/index.js';
import { loadSettings } from '../../src/rules/index.js';

const dir = mkdtempSync(join(tmpdir(), 'automode-caller-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const resolve: ModelCaller['resolve'] = (request) => ({ ...request, model: 'embedder-model' });

/** Model callers an embedder might hand over, each broken in its own way. */
const BROKEN: Record<string, ModelCaller> = {
  'throws when called': {
    call: () => {
      throw new Error('boom');
    },
    resolve,
  },
  rejects: { call: async () => Promise.reject(new Error('network down')), resolve },
  'throws when resolving the model': {
    call: async () => Promise.reject(new Error('unreachable')),
    resolve: () => {
      throw new Error('no model configured');
    },
  },
  'never answers and ignores the deadline and the signal': { call: () => new Promise(() => {}), resolve },
};

describe('a model caller supplied by the embedder', () => {
  for (const [name, model] of Object.entries(BROKEN)) {
    it(`that ${name} makes the call ask, not throw or hang`, async () => {
      const settings = await loadSettings({
        cwd: dir,
        home: dir,
        managedPath: join(dir, 'none.json'),
        env: {},
      });
      const classifier = createClassifier(settings, { model, modelTimeoutMs: 20 });
      const verdict = await classifier.classify({
        tool: 'Bash',
        input: { command: 'npm install left-pad' },
        mode: 'auto',
      });
      expect(verdict.decision).toBe('ask');
      expect(verdict.model?.ok).toBe(false);
      expect(verdict.model?.failure).toBeTruthy();
    });
  }

  it('that never answers is given up when the caller cancels', async () => {
    const settings = await loadSettings({
      cwd: dir,
      home: dir,
      managedPath: join(dir, 'none.json'),
      env: {},
    });
    const model = BROKEN['never answers and ignores the deadline and the signal']!;
    const classifier = createClassifier(settings, { model, modelTimeoutMs: 600_000 });
    const controller = new AbortController();
    const pending = classifier.classify(
      { tool: 'Bash', input: { command: 'npm install left-pad' }, mode: 'auto' },
      { signal: controller.signal },
    );
    setTimeout(() => controller.abort(), 10);
    const verdict = await pending;
    expect(verdict.decision).toBe('ask');
    expect(verdict.model?.ok).toBe(false);
  });
});
