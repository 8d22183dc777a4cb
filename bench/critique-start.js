// `automode critique --no-llm` as a user runs it: a new process through bin/automode.js (with the V8 flags it
// sets), on generated settings files of 10 and 1,000 rules. Each size runs `--cold` times (default 5).

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { summarize } from './stats.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const PROGRAMS = ['git', 'npm', 'docker', 'kubectl', 'terraform', 'aws', 'gcloud', 'cargo', 'go', 'make'];
PROGRAMS.push('yarn', 'pnpm', 'helm', 'gh', 'ls', 'cat', 'grep', 'find', 'sed', 'curl', 'ssh', 'rsync');
PROGRAMS.push('python', 'node', 'pip', 'java', 'mvn', 'gradle', 'rustc', 'deno');
const VERBS = ['status', 'build', 'test', 'run', 'push', 'pull', 'deploy', 'delete', 'apply', 'get'];
VERBS.push('list', 'logs', 'exec', 'install', 'init', 'plan', 'show', 'diff', 'clean', 'describe');

/** `size` rules: nine in ten Bash rules of six shapes, the rest path and domain rules. */
function permissions(size) {
  const lists = { allow: [], ask: [], deny: [] };
  const order = [lists.allow, lists.ask, lists.deny];
  const bash = Math.round(size * 0.9);
  let n = 0;
  for (const program of PROGRAMS) {
    for (const verb of VERBS) {
      if (n >= bash) break;
      const shapes = [
        `Bash(${program} ${verb} *)`,
        `Bash(${program} ${verb})`,
        `Bash(${program} ${verb} --force *)`,
        `Bash(${program} ${verb}:*)`,
        `Bash(${program} * ${verb})`,
        `Bash(${program} ${verb} --dry-run)`,
      ];
      order[n % 3].push(shapes[n % 6]);
      n++;
    }
  }
  for (let i = 0; n < size; i++, n++) {
    const rule = [
      `Read(src/module${i}/**)`,
      `Edit(build/out${i}/**)`,
      `WebFetch(domain:api${i}.example.com)`,
    ];
    order[i % 2 === 0 ? 0 : 2].push(rule[i % 3]);
  }
  return lists;
}

function critiqueMs(dir) {
  const start = process.hrtime.bigint();
  const r = spawnSync(
    process.execPath,
    [join(ROOT, 'bin/automode.js'), 'critique', '--no-llm', 'settings.json'],
    {
      cwd: dir,
      encoding: 'utf8',
      env: {
        PATH: process.env.PATH ?? '',
        HOME: dir,
        AUTOMODE_MANAGED_SETTINGS: join(dir, 'none.json'),
        CI: '1',
      },
    },
  );
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  // Exit 1 reports findings; anything else is a failure.
  if (r.status !== 0 && r.status !== 1)
    throw new Error(`automode critique failed (${r.status}): ${r.stderr}`);
  return ms;
}

export const critiqueStartSection = {
  name: 'critique start',
  targets: [
    { key: 'critiqueStart10MedianMs', label: 'critique of 10 rules, new process, median (ms)', max: 1500 },
  ],
  async run(opts) {
    const result = {};
    for (const size of [10, 1000]) {
      const dir = mkdtempSync(join(tmpdir(), `automode-bench-critique-${size}-`));
      try {
        writeFileSync(
          join(dir, 'settings.json'),
          `${JSON.stringify({ permissions: permissions(size) }, null, 2)}\n`,
        );
        const times = [];
        for (let i = 0; i < opts.cold; i++) times.push(critiqueMs(dir));
        const { median, p99, mean } = summarize(times);
        Object.assign(result, {
          [`critiqueStart${size}MedianMs`]: Math.round(median),
          [`critiqueStart${size}P99Ms`]: Math.round(p99),
          [`critiqueStart${size}MeanMs`]: Math.round(mean),
        });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
    return result;
  },
};
