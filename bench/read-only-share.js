#!/usr/bin/env node
// Share of NL2Bash commands allowed as read-only under the shipped defaults, with no rule of the user's:
// `node bench/read-only-share.js [--by-program] [--list]`. Uses the built dist/ (run `npm run build` first).

import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const { createClassifier, loadSettings } = await import(pathToFileURL(join(ROOT, 'dist/index.js')).href);

const dir = mkdtempSync(join(tmpdir(), 'automode-share-'));
const settings = await loadSettings({
  cwd: dir,
  home: dir,
  managedPath: join(dir, 'managed.json'),
  env: {},
  cli: { allow: [], ask: [], deny: [] },
});
const classifier = createClassifier(settings);
const lines = readFileSync(join(ROOT, 'fixtures/nl2bash/commands.txt'), 'utf8').split('\n').filter(Boolean);
let allowed = 0;
const byProgram = new Map();
const list = [];
for (const command of lines) {
  const verdict = await classifier.classify({ tool: 'Bash', input: { command } });
  if (verdict.decision !== 'allow') continue;
  allowed++;
  list.push(command);
  const program = command.trim().split(/\s+/)[0];
  byProgram.set(program, (byProgram.get(program) ?? 0) + 1);
}
const share = ((100 * allowed) / lines.length).toFixed(2);
console.log(`${allowed} of ${lines.length} NL2Bash commands allowed (${share}%)`);
if (process.argv.includes('--by-program')) {
  for (const [program, count] of [...byProgram].sort((a, b) => b[1] - a[1]))
    console.log(`${count}\t${program}`);
}
if (process.argv.includes('--list')) for (const command of list) console.log(command);
