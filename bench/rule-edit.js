// What `automode rules add`, `remove` and `suggest` cost: the diff of the shipped corpus under the settings before
// and after one rule, in process (the share of calls the rule can reach, and the whole corpus for comparison), and
// `automode rules add --dry-run` as a user runs it: a new process through bin/automode.js, `--cold` times.

import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { median } from './stats.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const RULES = [
  'Bash(git push *)',
  'Bash(npm run build)',
  'Bash(docker compose up *)',
  'Bash(terraform plan)',
];

function rulesAddMs(root, rule) {
  const start = process.hrtime.bigint();
  const r = spawnSync(
    process.execPath,
    [
      join(ROOT, 'bin/automode.js'),
      'rules',
      'add',
      rule,
      '--allow',
      '--dry-run',
      '--cwd',
      join(root, 'project'),
    ],
    {
      encoding: 'utf8',
      env: {
        PATH: process.env.PATH ?? '',
        HOME: join(root, 'home'),
        AUTOMODE_MANAGED_SETTINGS: join(root, 'none.json'),
      },
    },
  );
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error(`automode rules add failed (${r.status}): ${r.stderr}`);
  return ms;
}

export const ruleEditSection = {
  name: 'rule edit',
  targets: [
    {
      key: 'ruleEditDiffMs',
      label: 'diff of one rule edit on the shipped corpus, warm, median (ms)',
      max: 250,
    },
    { key: 'rulesAddColdMedianMs', label: 'rules add --dry-run, new process, median (ms)', max: 2500 },
  ],
  async run(opts) {
    const dist = (p) => import(pathToFileURL(join(ROOT, 'dist', p)).href);
    const { diffDecisions, readCorpus, SHIPPED_CORPUS } = await dist('testing/index.js');
    const { reachedCalls } = await dist('testing/diff.js');
    const { loadSettings, withRuleEdit } = await dist('rules/index.js');
    const root = mkdtempSync(join(tmpdir(), 'automode-bench-rule-edit-'));
    try {
      const project = join(root, 'project');
      const home = join(root, 'home');
      mkdirSync(project);
      mkdirSync(home);
      const settings = await loadSettings({
        cwd: project,
        home,
        managedPath: join(root, 'none.json'),
        env: {},
      });
      const { entries } = await readCorpus(SHIPPED_CORPUS);
      const file = {
        scope: 'local',
        source: 'localSettings',
        path: join(project, '.claude/settings.local.json'),
        root: project,
      };
      const base = { settings, project };
      const share = [];
      const whole = [];
      let reached = 0;
      // The first pass warms the caches (the corpus's analyses, the compiled code); the figures are the later ones.
      for (let pass = 0; pass < 1 + opts.runs; pass++) {
        for (const rule of RULES) {
          const head = {
            settings: withRuleEdit(settings, { op: 'add', behavior: 'allow', rule }, file),
            project,
          };
          // A copy of an object besides the rules: the sides no longer differ in rules only, so every call is decided.
          const all = { settings: { ...head.settings, env: { ...head.settings.env } }, project };
          let t = process.hrtime.bigint();
          await diffDecisions(entries, base, head);
          if (pass > 0) share.push(Number(process.hrtime.bigint() - t) / 1e6);
          t = process.hrtime.bigint();
          await diffDecisions(entries, base, all);
          if (pass > 0) whole.push(Number(process.hrtime.bigint() - t) / 1e6);
          if (pass === 0) reached += (await reachedCalls(entries, base, head)).length;
        }
      }
      const cold = [];
      for (let i = 0; i < opts.cold; i++) cold.push(rulesAddMs(root, RULES[i % RULES.length]));
      return {
        ruleEditDiffMs: Math.round(median(share)),
        ruleEditWholeCorpusDiffMs: Math.round(median(whole)),
        ruleEditReachedCalls: Math.round(reached / RULES.length),
        ruleEditCorpusCalls: entries.length,
        rulesAddColdMedianMs: Math.round(median(cold)),
      };
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  },
};
