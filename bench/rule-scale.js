// Bash rules at scale: 100, 10,000 and 100,000 allow/ask/deny rules over the 20 commonest programs of the corpus,
// classifying corpus commands of those programs: what a call costs as the rule set grows.

import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { summarize } from './stats.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SIZES = [100, 10_000, 100_000];

const round = (n) => Math.round(n * 10) / 10;

/** Corpus lines by their first word, and the 20 commonest first words. */
export function corpusPrograms() {
  const lines = readFileSync(join(ROOT, 'fixtures/nl2bash/commands.txt'), 'utf8').split('\n').filter(Boolean);
  const byProgram = new Map();
  for (const line of lines) {
    const program = line.split(/\s+/)[0];
    if (!/^[a-z][a-z0-9._-]*$/.test(program)) continue;
    if (!byProgram.has(program)) byProgram.set(program, []);
    byProgram.get(program).push(line);
  }
  const programs = [...byProgram.keys()].sort((a, b) => byProgram.get(b).length - byProgram.get(a).length);
  return { programs: programs.slice(0, 20), byProgram };
}

/** `n` rules as people write them, with subcommand and argument words partly from the corpus, partly made up. */
export function scaleRules(n, programs, byProgram) {
  const words = new Map(
    programs.map((p) => [
      p,
      [
        ...new Set(
          byProgram
            .get(p)
            .map((l) => l.split(/\s+/)[1])
            .filter((w) => w && /^[a-z][\w.-]*$/.test(w)),
        ),
      ],
    ]),
  );
  const rules = { allow: [], ask: [], deny: [] };
  const behaviors = ['allow', 'allow', 'ask', 'deny'];
  for (let i = 0; i < n; i++) {
    const program = programs[i % programs.length];
    const real = words.get(program);
    const word = i % 10 === 0 && real.length > 0 ? real[((i / 10) % real.length) | 0] : `sub${i}`;
    const shapes = [
      () => `Bash(${program} ${word} *)`,
      () => `Bash(${program} ${word}:*)`,
      () => `Bash(${program} ${word} arg${i % 97} *)`,
      () => `Bash(${program} ${word} --flag${i % 13})`,
      () => `Bash(${program} ${word} build:*)`,
    ];
    const round = Math.floor(i / programs.length);
    rules[behaviors[round % behaviors.length]].push(shapes[round % shapes.length]());
  }
  return rules;
}

export const ruleScaleSection = {
  name: 'rule-scale',
  targets: [
    { key: 'ruleScaleMedianRatio', label: 'classify with 100k / 100 Bash rules (median)', max: 1.5 },
    { key: 'ruleScaleP99Ratio', label: 'classify with 100k / 100 Bash rules (p99)', max: 1.5 },
  ],
  async run(opts) {
    const { createClassifier, loadSettings } = await import(pathToFileURL(join(ROOT, 'dist/index.js')).href);
    const { programs, byProgram } = corpusPrograms();
    const commands = programs.flatMap((p) => byProgram.get(p).slice(0, 40));
    const base = mkdtempSync(join(tmpdir(), 'automode-bench-rules-'));
    const project = join(base, 'project');
    const home = join(base, 'home');
    mkdirSync(project);
    mkdirSync(home);
    const result = { ruleScaleCommands: commands.length };
    try {
      for (const n of SIZES) {
        const settings = await loadSettings({
          cwd: project,
          home,
          managedPath: join(base, 'managed.json'),
          env: {},
          cli: scaleRules(n, programs, byProgram),
        });
        const classifier = createClassifier(settings);
        for (const command of commands) await classifier.classify({ tool: 'Bash', input: { command } });
        const times = [];
        for (let r = 0; r < Math.max(1, opts.runs); r++) {
          for (const command of commands) {
            const t = process.hrtime.bigint();
            await classifier.classify({ tool: 'Bash', input: { command } });
            times.push(Number(process.hrtime.bigint() - t) / 1e3);
          }
        }
        const s = summarize(times);
        result[`ruleScale${n}MedianUs`] = round(s.median);
        result[`ruleScale${n}P99Us`] = round(s.p99);
        result[`ruleScale${n}MeanUs`] = round(s.mean);
        process.stderr.write(
          `rule-scale: ${n} rules: median ${result[`ruleScale${n}MedianUs`]} µs, p99 ${result[`ruleScale${n}P99Us`]} µs, mean ${result[`ruleScale${n}MeanUs`]} µs\n`,
        );
      }
      result.ruleScaleMedianRatio =
        round((result.ruleScale100000MedianUs / result.ruleScale100MedianUs) * 100) / 100;
      result.ruleScaleP99Ratio = round((result.ruleScale100000P99Us / result.ruleScale100P99Us) * 100) / 100;
      return result;
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  },
};
