import { beforeAll, describe, expect, test } from 'vitest';
import { loadBash } from '../../../src/bash/analyze.js';
import { shown } from './support.js';

beforeAll(loadBash);

describe('helm', () => {
  test.each([
    ['helm install x ./chart --kubeconfig ./k.yaml', ['environment --kubeconfig']],
    ['helm --kubeconfig=k.yaml list', ['environment --kubeconfig']],
    ['helm template x ./chart --post-renderer ./render.sh', ['program-option --post-renderer']],
    ['helm upgrade x ./chart --post-renderer=./render.sh', ['program-option --post-renderer']],
    ['helm plugin install ./plugin', ['program-option helm plugin']],
    ['helm diff upgrade x ./chart', ['program-option helm-diff']],
    ['helm list', []],
  ])('%s', (line, code) => {
    expect(shown(line).code).toEqual(code);
  });

  test.each(['helm template x ./chart --output-dir .git/hooks', 'helm list', 'helm package ./chart -d out'])(
    '%s: files not listed',
    (line) => {
      expect(shown(line).known).toBe(false);
    },
  );
});
