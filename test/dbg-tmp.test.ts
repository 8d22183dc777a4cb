import { readFileSync } from 'node:fs';
import { test } from 'vitest';
import { analyzeBash } from '../src/bash/analyze.js';
test('corpus', async () => {
  const lines = readFileSync(new URL('../fixtures/nl2bash/commands.txt', import.meta.url), 'utf8').split('\n').filter(Boolean);
  const thrown: string[] = [];
  const reasons = new Map<string, string[]>();
  let opaque = 0;
  for (const src of lines) {
    try {
      const a = await analyzeBash(src);
      if (a.opaque) opaque++;
      for (const p of a.problems) {
        if (p.code !== 'unsupported' && p.code !== 'dynamic-shell-string') continue;
        const key = p.code + ' ' + p.message.replace(/[`'"$].*$/, '').slice(0, 50);
        const list = reasons.get(key) ?? [];
        list.push(src);
        reasons.set(key, list);
      }
    } catch (e) { thrown.push(src + ' :: ' + String(e) + (e as Error).stack?.split('\n').slice(1,4).join(' ')); }
  }
  console.log('thrown', thrown.length, thrown.slice(0, 10));
  console.log('opaque', opaque, lines.length);
  for (const [k, v] of [...reasons].sort((a, b) => b[1].length - a[1].length).slice(0, 60)) console.log(v.length, k, '||', v.slice(0, 3).join(' ### '));
}, 120000);
