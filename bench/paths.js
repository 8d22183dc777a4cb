// Reading a whole folder (the Grep tool, `grep -rn`, `rg`) in a project with a node_modules tree, under 0 to 1,000
// Read deny rules: what the folder walk costs as the tree and the rule set grow.

import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { summarize } from './stats.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

const round = (n) => Math.round(n * 100) / 100;

/** A project that no rule's file is in (so each call walks it all): src/, and node_modules with packages nested as npm leaves them. */
export function makeProject(dir, packages = 510) {
  let entries = 0;
  const file = (path) => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, 'module.exports = 1;\n');
  };
  for (let i = 0; i < 60; i++) file(join(dir, 'src', `mod${i % 6}`, `file${i}.ts`));
  writeFileSync(join(dir, '.gitignore'), 'node_modules\n');
  for (let p = 0; p < packages; p++) {
    const pkg = join(dir, 'node_modules', p % 5 === 0 ? `@scope${p % 7}` : '', `pkg${p}`);
    file(join(pkg, 'package.json'));
    file(join(pkg, 'README.md'));
    for (let f = 0; f < 8; f++) file(join(pkg, 'lib', f % 2 ? 'internal' : '', `part${f}.js`));
    for (let f = 0; f < 6; f++) file(join(pkg, 'dist', `bundle${f}.js`));
    if (p % 10 === 0) for (let f = 0; f < 6; f++) file(join(pkg, 'node_modules', `dep${p}`, `index${f}.js`));
  }
  spawnSync('git', ['init', '-q', dir]);
  const count = spawnSync('find', [
    dir,
    '-mindepth',
    '1',
    '-not',
    '-path',
    '*/.git/*',
    '-not',
    '-name',
    '.git',
  ]);
  entries = count.stdout.toString().split('\n').filter(Boolean).length;
  return entries;
}

/** Read deny rules as people write them: literal files, folders, names at any depth, home paths. */
export function denyRules(n) {
  const shapes = [
    (i) => `Read(./secrets${i}/**)`,
    (i) => `Read(**/.env.${i})`,
    (i) => `Read(~/.ssh/key${i})`,
    (i) => `Read(./config/credentials-${i}.json)`,
    (i) => `Read(**/*.pem${i})`,
    (i) => `Read(//etc/secret${i}/**)`,
    (i) => `Read(./deploy/env${i}/*.yaml)`,
    (i) => `Read(id_rsa${i})`,
  ];
  const rules = ['Read(./secrets/**)', 'Read(**/.env*)', 'Read(~/.ssh/**)'].slice(0, n);
  for (let i = rules.length; i < n; i++) rules.push(shapes[i % shapes.length](i));
  return rules;
}

export const pathsSection = {
  name: 'paths',
  targets: [
    {
      key: 'paths1000RulesMedianMs',
      label: 'whole-folder read, 1,000 Read rules, slowest call median (ms)',
      max: 50,
    },
  ],
  async run(opts) {
    const { createClassifier, loadSettings } = await import(pathToFileURL(join(ROOT, 'dist/index.js')).href);
    const base = mkdtempSync(join(tmpdir(), 'automode-bench-paths-'));
    const project = join(base, 'project');
    const home = join(base, 'home');
    mkdirSync(home);
    try {
      const entries = makeProject(project);
      const calls = {
        grepTool: { tool: 'Grep', input: { pattern: 'foo', path: project } },
        grepR: { tool: 'Bash', input: { command: 'grep -rn foo .' } },
        rg: { tool: 'Bash', input: { command: 'rg foo' } },
      };
      const result = { pathsEntries: entries };
      const runs = Math.max(5, opts.runs * 3);
      for (const n of [0, 10, 100, 1000]) {
        const settings = await loadSettings({
          cwd: project,
          home,
          managedPath: join(base, 'managed.json'),
          env: {},
          cli: { allow: [], ask: [], deny: denyRules(n) },
        });
        const classifier = createClassifier(settings);
        let worst = 0;
        for (const [name, call] of Object.entries(calls)) {
          await classifier.classify(call);
          const times = [];
          for (let r = 0; r < runs; r++) {
            const t = process.hrtime.bigint();
            await classifier.classify(call);
            times.push(Number(process.hrtime.bigint() - t) / 1e6);
          }
          const s = summarize(times);
          worst = Math.max(worst, s.median);
          result[`paths${n}Rules_${name}_medianMs`] = round(s.median);
          result[`paths${n}Rules_${name}_p99Ms`] = round(s.p99);
          result[`paths${n}Rules_${name}_meanMs`] = round(s.mean);
          process.stderr.write(
            `paths: ${n} rules, ${name}: median ${result[`paths${n}Rules_${name}_medianMs`]} ms\n`,
          );
        }
        result[`paths${n}RulesMedianMs`] = round(worst);
      }
      return result;
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  },
};
