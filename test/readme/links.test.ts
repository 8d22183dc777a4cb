import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { DOC_FILES, readDoc } from '../support/docs.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

it('every relative link of the README and docs/ leads to a file of the checkout', () => {
  const broken: string[] = [];
  for (const doc of [...DOC_FILES, 'ARCHITECTURE.md']) {
    for (const m of readDoc(doc).matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1]!;
      if (/^(?:https?:|#|mailto:)/.test(target)) continue;
      if (!existsSync(path.join(ROOT, path.dirname(doc), target.split('#')[0]!)))
        broken.push(`${doc}: ${target}`);
    }
  }
  expect(broken).toEqual([]);
  expect(DOC_FILES.length).toBeGreaterThan(5);
});
