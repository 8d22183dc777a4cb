#!/usr/bin/env node
// How many everyday read-only commands the shipped defaults allow, alone and with the read-services profile, per
// family (fixtures/everyday/read-commands.txt), and that no dangerous command is allowed either way
// (fixtures/everyday/dangerous-reads.txt, the dangerous rows of defaults/dangerous-commands.json and
// defaults/diff-corpus.jsonl). Uses the built dist/ (run `npm run build` first).
// `node bench/everyday-reads.js [--dist DIR] [--list] [--json]`: --dist measures another build (a checkout's dist/).

import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const distAt = args.indexOf('--dist');
const DIST = distAt >= 0 ? resolve(args[distAt + 1]) : join(ROOT, 'dist');
const { createClassifier, loadSettings } = await import(pathToFileURL(join(DIST, 'index.js')).href);

function families() {
  const out = new Map();
  let family = 'other';
  for (const line of readFileSync(join(ROOT, 'fixtures/everyday/read-commands.txt'), 'utf8').split('\n')) {
    if (line.startsWith('## ')) family = line.slice(3).trim();
    else if (line.trim() && !line.startsWith('#')) out.set(family, [...(out.get(family) ?? []), line]);
  }
  return out;
}

function dangerous() {
  const own = readFileSync(join(ROOT, 'fixtures/everyday/dangerous-reads.txt'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() && !line.startsWith('#'));
  const shipped = JSON.parse(
    readFileSync(join(ROOT, 'defaults/dangerous-commands.json'), 'utf8'),
  ).dangerous.map((entry) => entry.command);
  const diff = readFileSync(join(ROOT, 'defaults/diff-corpus.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line))
    .filter((call) => call.id.startsWith('dangerous/') && call.tool === 'Bash')
    .map((call) => call.command);
  return [...new Set([...own, ...shipped, ...diff])];
}

async function classifierFor(profile) {
  const dir = mkdtempSync(join(tmpdir(), 'automode-everyday-'));
  const home = join(dir, 'home');
  const project = join(dir, 'project');
  mkdirSync(home, { recursive: true });
  mkdirSync(join(project, '.claude'), { recursive: true });
  // A repository with a remote on the network, and a chart, as a project has.
  execFileSync('git', ['init', '-q', project]);
  execFileSync('git', ['-C', project, 'remote', 'add', 'origin', 'https://git.example.com/team/app.git']);
  mkdirSync(join(project, 'mychart/templates'), { recursive: true });
  writeFileSync(join(project, 'mychart/Chart.yaml'), 'apiVersion: v2\nname: mychart\nversion: 1.0.0\n');
  // A chart whose values schema loads another document over the network.
  mkdirSync(join(project, 'remote-schema'), { recursive: true });
  writeFileSync(join(project, 'remote-schema/Chart.yaml'), 'apiVersion: v2\nname: remote\nversion: 1.0.0\n');
  writeFileSync(
    join(project, 'remote-schema/values.schema.json'),
    '{"properties": {"image": {"$ref": "https://collector.example/image.json"}}}',
  );
  if (profile) {
    const rules = JSON.parse(readFileSync(join(ROOT, 'defaults/profiles/read-services.json'), 'utf8'));
    writeFileSync(join(project, '.claude/settings.json'), JSON.stringify(rules));
  }
  const settings = await loadSettings({
    cwd: project,
    home,
    managedPath: join(dir, 'managed.json'),
    env: {},
    cli: { allow: [], ask: [], deny: [] },
  });
  const classifier = createClassifier(settings);
  return (command) => classifier.classify({ tool: 'Bash', input: { command }, cwd: project });
}

const plain = await classifierFor(false);
const withProfile = await classifierFor(true);
const rows = [];
let total = 0;
let alone = 0;
let profiled = 0;
const asked = [];
for (const [family, commands] of families()) {
  let a = 0;
  let p = 0;
  for (const command of commands) {
    const d1 = (await plain(command)).decision;
    const d2 = (await withProfile(command)).decision;
    if (d1 === 'allow') a++;
    if (d2 === 'allow') p++;
    if (d2 !== 'allow') asked.push(`${family}\t${command}`);
  }
  rows.push({ family, commands: commands.length, defaults: a, profile: p });
  total += commands.length;
  alone += a;
  profiled += p;
}
const bad = [];
const danger = dangerous();
for (const command of danger) {
  for (const [name, classify] of [
    ['defaults', plain],
    ['profile', withProfile],
  ]) {
    const verdict = await classify(command);
    if (verdict.decision === 'allow') bad.push(`${name}\t${command}\t${verdict.reason}`);
  }
}
const result = {
  dist: DIST,
  families: rows,
  total,
  defaults: alone,
  profile: profiled,
  dangerous: danger.length,
  dangerousAllowed: bad,
};
if (args.includes('--json')) console.log(JSON.stringify(result, null, 1));
else {
  console.log(`family\tcommands\tdefaults\twith read-services`);
  for (const r of rows) console.log(`${r.family}\t${r.commands}\t${r.defaults}\t${r.profile}`);
  const pct = (n) => `${((100 * n) / total).toFixed(0)}%`;
  console.log(`all\t${total}\t${alone} (${pct(alone)})\t${profiled} (${pct(profiled)})`);
  console.log(
    `dangerous commands allowed: ${bad.length} of ${danger.length} (each checked with and without the profile)`,
  );
  for (const line of bad) console.log(`  ${line}`);
  if (args.includes('--list')) for (const line of asked) console.log(`asked\t${line}`);
}
process.exitCode = bad.length > 0 ? 1 : 0;
