import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { it } from 'vitest';
import { loadSettings, scopeFile } from '../../src/rules/index.js';
import { readSessions } from '../../src/testing/learn-read.js';
import { learnRules } from '../../src/testing/learn.js';
import { readCorpus, SHIPPED_CORPUS, uniqueCalls } from '../../src/testing/corpus.js';
import { readFileSync } from 'node:fs';
it('x', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'learn-'));
  const settings = await loadSettings({ cwd: dir, home: '/nonexistent' } as never);
  const file = scopeFile('local', { cwd: dir, home: '/nonexistent' });
  const corpus = uniqueCalls((await readCorpus(SHIPPED_CORPUS)).entries);
  const d = JSON.parse(readFileSync('defaults/dangerous-commands.json', 'utf8')).dangerous.map((e: {command: string}) => e.command);
  for (const p of ['shop-api','billing-service','infra','ledger-cli','status-page']) {
    const read = await readSessions([`fixtures/learn/projects/-home-dana-code-${p}`]);
    const t = Date.now();
    const r = await learnRules(read.calls, { settings, file, corpus, dangerous: d });
    console.log(p, Date.now() - t, 'ms', JSON.stringify(read.unknown), read.problems.length, JSON.stringify(r.total));
    for (const x of r.rules) console.log('  +', x.rule, x.prompts, x.wider ? `(wider ${x.wider.rule}: ${x.wider.why})` : '', x.admitted);
    for (const x of r.refused) console.log('  -', x.rule, x.why, x.witness ?? '');
    for (const x of r.unlearned) console.log('  ?', x.why, x.calls, x.examples.map(e => e.call).join(' | '));
  }
}, 300000);
