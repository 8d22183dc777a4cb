#!/usr/bin/env node
// Benchmark of the built analyzer (dist/), run as `npm run bench` or `npm run -s bench -- --json`.
//
// Each section measures something and returns an object of figures; all figures are merged into one JSON object
// (`--json` prints only that object on stdout; progress and build output go to stderr). Each section also lists
// its targets, shown as PASS/MISS in the human table. To add a measurement, append a section to SECTIONS.
//
// Options: --json, --runs N (measured passes over the corpus, default 3), --cold N (cold-start processes, default 5),
// --build (rebuild dist/ first even when it looks current), --strict (exit 1 when a target is missed).
// dist/ is built with `npm run build` when it is missing or older than src/. With npm, use `npm run -s bench --
// --json` (or `node bench/run.js --json`): without -s npm itself prints a banner on stdout.

import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { critiqueStartSection } from './critique-start.js';
import { hookSection } from './hook.js';
import { pathsSection } from './paths.js';
import { ruleEditSection } from './rule-edit.js';
import { ruleScaleSection } from './rule-scale.js';
import { sandboxSection } from './sandbox.js';
import { serveSection } from './serve.js';
import { serveFaultsSection } from './serve-faults.js';
import { median, quantile } from './stats.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(ROOT, 'package.json'));
const CORPUS = join(ROOT, 'fixtures/nl2bash/commands.txt');
const DIST_ANALYZE = join(ROOT, 'dist/bash/analyze.js');

// ---------------------------------------------------------------------------------------------------------------
// Options and output

function parseArgs(argv) {
  const opts = { json: false, runs: 3, cold: 5, build: false, strict: false, only: undefined };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--json') opts.json = true;
    else if (a === '--build') opts.build = true;
    else if (a === '--strict') opts.strict = true;
    else if (a === '--runs') opts.runs = positive(argv[++i], a);
    else if (a === '--cold') opts.cold = positive(argv[++i], a);
    else if (a === '--only') opts.only = (argv[++i] ?? '').split(',');
    else throw new Error(`unknown option ${a}`);
  }
  return opts;
}

function positive(v, name) {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} needs a positive integer`);
  return n;
}

/** Progress goes to stderr so that stdout holds only the result. */
function log(msg) {
  process.stderr.write(`${msg}\n`);
}

// ---------------------------------------------------------------------------------------------------------------
// Statistics

function round(n, digits = 1) {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

const nowNs = () => process.hrtime.bigint();
const usSince = (start) => Number(process.hrtime.bigint() - start) / 1000;

// ---------------------------------------------------------------------------------------------------------------
// Build

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(p));
    else newest = Math.max(newest, statSync(p).mtimeMs);
  }
  return newest;
}

/** Builds dist/ when it is missing or older than src/ (or when asked), with the build's output on stderr. */
function ensureBuilt(force) {
  const stale = !existsSync(DIST_ANALYZE) || statSync(DIST_ANALYZE).mtimeMs < newestMtime(join(ROOT, 'src'));
  if (!force && !stale) return;
  log('building dist/ (npm run build)...');
  const r = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: ['ignore', 2, 2] });
  if (r.status !== 0) throw new Error('npm run build failed');
}

// ---------------------------------------------------------------------------------------------------------------
// Sections

/** A bare tree-sitter parser, the baseline every ratio is measured against. */
async function rawParser() {
  const { Parser, Language } = await import('web-tree-sitter');
  await Parser.init();
  const language = await Language.load(require.resolve('tree-sitter-bash/tree-sitter-bash.wasm'));
  const parser = new Parser();
  parser.setLanguage(language);
  return parser;
}

function corpus() {
  return readFileSync(CORPUS, 'utf8')
    .split('\n')
    .filter((l) => l.length > 0);
}

/** analyze() against a raw tree-sitter parse of the same commands, interleaved per command. */
const analyzeSection = {
  name: 'analyze',
  targets: [
    { key: 'ratio', label: 'analyze / raw parse (median)', max: 2.5 },
    { key: 'analyzeP99Us', label: 'analyze p99 (µs)', max: 1000, exclusive: true },
  ],
  async run(opts) {
    // Internal: the synchronous analyze() against a raw parse (the public analyzeBash() is its async wrapper).
    const { analyze, loadBash } = await import(pathToFileURL(DIST_ANALYZE).href);
    await loadBash();
    const parser = await rawParser();
    const commands = corpus();

    const measure = (i, record) => {
      const src = commands[i];
      // Alternate which goes first so that cache effects and noise fall on both equally.
      const order = i % 2 === 0 ? ['raw', 'analyze'] : ['analyze', 'raw'];
      for (const which of order) {
        const t = nowNs();
        if (which === 'raw') {
          const tree = parser.parse(src);
          tree.delete();
          const us = usSince(t);
          if (record) record.raw.push(us);
        } else {
          analyze(src);
          const us = usSince(t);
          if (record) record.analyze.push(us);
        }
      }
    };

    log(`warm-up pass over ${commands.length} commands...`);
    for (let i = 0; i < commands.length; i++) measure(i, null);

    const record = { raw: [], analyze: [] };
    for (let run = 0; run < opts.runs; run++) {
      log(`measured pass ${run + 1}/${opts.runs}...`);
      for (let i = 0; i < commands.length; i++) measure(i, record);
    }
    parser.delete();

    const analyzeSorted = [...record.analyze].sort((a, b) => a - b);
    const rawSorted = [...record.raw].sort((a, b) => a - b);
    const analyzeMedianUs = quantile(analyzeSorted, 0.5);
    const rawParseMedianUs = quantile(rawSorted, 0.5);
    return {
      commands: commands.length,
      runs: opts.runs,
      analyzeMedianUs: round(analyzeMedianUs),
      analyzeP99Us: round(quantile(analyzeSorted, 0.99)),
      analyzeMaxUs: round(analyzeSorted[analyzeSorted.length - 1]),
      rawParseMedianUs: round(rawParseMedianUs),
      rawParseP99Us: round(quantile(rawSorted, 0.99)),
      ratio: round(analyzeMedianUs / rawParseMedianUs, 2),
    };
  },
};

/**
 * Whole-process start-up: `node bin/automode.js explain ls`, wall time; and `explain 'echo $(ls)'`, which also
 * loads and runs the tree-sitter parser (`ls` alone takes the plain path).
 */
const coldStartSection = {
  name: 'cold start',
  targets: [{ key: 'coldStartMs', label: 'cold start, median (ms)', max: 250, exclusive: true }],
  async run(opts) {
    const times = [];
    for (let i = 0; i < opts.cold; i++) {
      const t = nowNs();
      const r = spawnSync(process.execPath, [join(ROOT, 'bin/automode.js'), 'explain', 'ls'], {
        cwd: ROOT,
        encoding: 'utf8',
      });
      const ms = usSince(t) / 1000;
      if (r.status !== 0) throw new Error(`automode explain ls failed (${r.status}): ${r.stderr}`);
      times.push(ms);
    }
    const parsed = [];
    for (let i = 0; i < opts.cold; i++) {
      const t = nowNs();
      const r = spawnSync(process.execPath, [join(ROOT, 'bin/automode.js'), 'explain', 'echo $(ls)'], {
        cwd: ROOT,
        encoding: 'utf8',
      });
      if (r.status !== 0) throw new Error(`automode explain failed (${r.status}): ${r.stderr}`);
      parsed.push(usSince(t) / 1000);
    }
    return {
      coldStartMs: round(median(times)),
      coldStartParsedMs: round(median(parsed)),
      coldStartMinMs: round(Math.min(...times)),
      coldStartMaxMs: round(Math.max(...times)),
      coldStartRuns: times.length,
    };
  },
};

/** Settings with the shipped rules and `extra` generated rules, in temp folders (no user or managed files). */
async function classifierWith(extra) {
  const { mkdtempSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { createClassifier, loadSettings } = await import(pathToFileURL(join(ROOT, 'dist/index.js')).href);
  const dir = mkdtempSync(join(tmpdir(), 'automode-bench-'));
  const rules = { allow: [], ask: [], deny: [] };
  for (let i = 0; i < extra; i++) {
    const behavior = ['allow', 'ask', 'deny'][i % 3];
    const shape = i % 4;
    if (shape === 0) rules[behavior].push(`Bash(tool${i} sub${i % 7} *)`);
    else if (shape === 1) rules[behavior].push(`Bash(prog${i}:*)`);
    else if (shape === 2) rules[behavior].push(`Read(./generated/dir${i}/**)`);
    else rules[behavior].push(`Bash(run${i} --flag=${i})`);
  }
  const settings = await loadSettings({
    cwd: dir,
    home: dir,
    managedPath: join(dir, 'managed.json'),
    env: {},
    cli: rules,
  });
  if (settings.failed.length > 0) throw new Error(`bench settings failed: ${settings.failed[0].message}`);
  return createClassifier(settings);
}

/** classify() (shipped rules) against a raw parse, interleaved; then the cost of 10 vs 10,000 rules. */
const classifySection = {
  name: 'classify',
  targets: [
    { key: 'classifyRatio', label: 'classify / raw parse (median)', max: 3 },
    { key: 'rulesRatio', label: 'classify with 10k / 10 rules (median)', max: 1.5 },
  ],
  async run(opts) {
    const parser = await rawParser();
    const commands = corpus();
    const classifier = await classifierWith(0);
    // Internal: how many write sets (archives, patches, revisions, copies) were read at decision time.
    const { writeSetStats } = await import(pathToFileURL(join(ROOT, 'dist/policy/write-names.js')).href);
    const withWriteSet = new Set();
    const raw = [];
    const classified = [];
    const pass = async (record) => {
      for (let i = 0; i < commands.length; i++) {
        const src = commands[i];
        const order = i % 2 === 0 ? ['raw', 'classify'] : ['classify', 'raw'];
        for (const which of order) {
          const t = nowNs();
          if (which === 'raw') {
            parser.parse(src).delete();
            if (record) raw.push(usSince(t));
          } else {
            const before = writeSetStats.computed + writeSetStats.unknown;
            await classifier.classify({ tool: 'Bash', input: { command: src } });
            if (record) classified.push(usSince(t));
            if (writeSetStats.computed + writeSetStats.unknown > before) withWriteSet.add(i);
          }
        }
      }
    };
    log(`classify: warm-up over ${commands.length} commands...`);
    await pass(false);
    for (let run = 0; run < opts.runs; run++) {
      log(`classify: measured pass ${run + 1}/${opts.runs}...`);
      await pass(true);
    }
    parser.delete();
    const classifySorted = [...classified].sort((a, b) => a - b);
    const rawMedian = median(raw);
    const classifyMedianUs = quantile(classifySorted, 0.5);

    const subset = commands.filter((_, i) => i % 6 === 0);
    const timed = async (c) => {
      for (const src of subset) await c.classify({ tool: 'Bash', input: { command: src } });
      const times = [];
      for (let run = 0; run < opts.runs; run++) {
        for (const src of subset) {
          const t = nowNs();
          await c.classify({ tool: 'Bash', input: { command: src } });
          times.push(usSince(t));
        }
      }
      return median(times);
    };
    log('classify: 10 and 10,000 generated rules...');
    const few = await classifierWith(10);
    const many = await classifierWith(10_000);
    const rules10Us = await timed(few);
    const rules10kUs = await timed(many);
    return {
      classifyMedianUs: round(classifyMedianUs),
      classifyP99Us: round(quantile(classifySorted, 0.99)),
      classifyRawParseMedianUs: round(rawMedian),
      classifyRatio: round(classifyMedianUs / rawMedian, 2),
      rules10Us: round(rules10Us),
      rules10kUs: round(rules10kUs),
      rulesRatio: round(rules10kUs / rules10Us, 2),
      writeSetCommands: withWriteSet.size,
      writeSetShare: round(withWriteSet.size / commands.length, 4),
    };
  },
};

/**
 * A loopback Messages API answering every request after `delayMs` with a stage-1 "flag nothing" tool call
 * and fixed usage numbers (cache reads after the first call), enough for the SDK to parse.
 */
async function startLoopback(delayMs) {
  const http = await import('node:http');
  let calls = 0;
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => {
      body += d;
    });
    req.on('end', () => {
      calls++;
      const first = calls === 1;
      const message = {
        id: `msg_${calls}`,
        type: 'message',
        role: 'assistant',
        model: JSON.parse(body || '{}').model ?? 'claude-test',
        content: [
          { type: 'tool_use', id: `toolu_${calls}`, name: 'flag_action', input: { flag: false, rule: '' } },
        ],
        stop_reason: 'tool_use',
        stop_sequence: null,
        usage: {
          input_tokens: 180,
          output_tokens: 12,
          cache_creation_input_tokens: first ? 1400 : 0,
          cache_read_input_tokens: first ? 0 : 1400,
        },
      };
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json', 'request-id': `req_${calls}` });
        res.end(JSON.stringify(message));
      }, delayMs);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${server.address().port}`;
  return { url, close: () => new Promise((resolve) => server.close(resolve)), calls: () => calls };
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The model path: speculation beside a 200 ms pre-tool step vs one after the other; cache hits; prompt size. */
const speculationSection = {
  name: 'speculation',
  targets: [
    { key: 'speculativeRatio', label: 'speculative / serial latency', max: 0.75 },
    { key: 'cacheHitUs', label: 'cached model verdict (µs)', max: 10, exclusive: true },
  ],
  async run() {
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const dist = (p) => import(pathToFileURL(join(ROOT, 'dist', p)).href);
    const { createClassifier, createModelClient, loadSettings } = await dist('index.js');
    // Internals: the cached judge and its prompt are no public names.
    const { CachedJudge } = await dist('classifier/cached-judge.js');
    const { systemPrompt } = await dist('classifier/prompt.js');
    const loopback = await startLoopback(300);
    try {
      const dir = mkdtempSync(join(tmpdir(), 'automode-bench-model-'));
      const settings = await loadSettings({
        cwd: dir,
        home: dir,
        managedPath: join(dir, 'none.json'),
        env: {},
      });
      const model = createModelClient({ apiKey: 'bench', baseURL: loopback.url, env: {} });
      const classifier = createClassifier(settings, { model, cacheTtlMs: 60_000 });
      const call = (i) => ({ tool: 'Bash', input: { command: `npm install package-${i}` }, mode: 'auto' });
      const preToolStep = () => sleep(200);
      const speculative = [];
      const serial = [];
      const verdicts = [];
      for (let i = 0; i < 6; i++) {
        let t = nowNs();
        const s = classifier.speculate(call(`s${i}`));
        const [, verdict] = await Promise.all([preToolStep(), s.promise]);
        verdicts.push(verdict);
        speculative.push(usSince(t) / 1000);
        t = nowNs();
        await preToolStep();
        await classifier.classify(call(`q${i}`));
        serial.push(usSince(t) / 1000);
      }
      const withCache = await classifier.classify(call('s0'));

      const stage = new CachedJudge({ caller: model });
      const request = {
        prose: settings.prose,
        tool: 'Bash',
        input: call('k').input,
        context: undefined,
        mode: 'auto',
        cwd: dir,
      };
      const key = stage.key(request);
      await stage.judge(key, request);
      const hits = [];
      for (let i = 0; i < 20_000; i++) {
        const t = nowNs();
        await stage.judge(stage.key(request), request);
        hits.push(usSince(t));
      }
      const speculativeLatencyMs = median(speculative);
      const serialLatencyMs = median(serial);
      return {
        modelDelayMs: 300,
        preToolStepMs: 200,
        speculativeLatencyMs: round(speculativeLatencyMs),
        serialLatencyMs: round(serialLatencyMs),
        speculativeRatio: round(speculativeLatencyMs / serialLatencyMs, 2),
        idealRatio: round(300 / 500, 2),
        cacheHitUs: round(median(hits), 2),
        cachedClassifyModel: withCache.model?.cached === true,
        stablePrefixBytes: Buffer.byteLength(systemPrompt(settings.prose)),
        promptTokensPerCall: verdicts[1]?.model?.tokens.input ?? null,
        cacheWriteTokensFirstCall: verdicts[0]?.model?.tokens.cacheWrite ?? null,
        cacheReadTokensPerLaterCall: verdicts[1]?.model?.tokens.cacheRead ?? null,
        cachedVerdictTokens: withCache.model?.tokens.input ?? null,
      };
    } finally {
      await loopback.close();
    }
  },
};

/** `automode critique` on a generated settings file of 500 rules, static analysis only (no model). */
const critiqueSection = {
  name: 'critique',
  targets: [{ key: 'critique500RulesMs', label: 'critique of 500 rules (ms)', max: 5000, exclusive: true }],
  async run() {
    const { mkdtempSync, rmSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    // The entry automode/critique.
    const { critique } = await import(pathToFileURL(join(ROOT, 'dist/critique/index.js')).href);
    const programs = ['git', 'npm', 'docker', 'kubectl', 'terraform', 'aws', 'gcloud', 'cargo', 'go', 'make'];
    const more = ['yarn', 'pnpm', 'helm', 'gh', 'ls', 'cat', 'grep', 'find', 'sed', 'curl', 'ssh', 'rsync'];
    const verbs = ['status', 'build', 'test', 'run', 'push', 'pull', 'deploy', 'delete', 'apply', 'get'];
    verbs.push('list', 'logs', 'exec', 'install', 'init', 'plan', 'show', 'diff', 'clean', 'describe');
    const permissions = { allow: [], ask: [], deny: [] };
    const lists = [permissions.allow, permissions.ask, permissions.deny];
    let n = 0;
    for (const program of [...programs, ...more]) {
      for (const verb of verbs) {
        if (n >= 440) break;
        const shape = n % 6;
        const rule =
          shape === 0
            ? `Bash(${program} ${verb} *)`
            : shape === 1
              ? `Bash(${program} ${verb})`
              : shape === 2
                ? `Bash(${program} ${verb} --force *)`
                : shape === 3
                  ? `Bash(${program} ${verb}:*)`
                  : shape === 4
                    ? `Bash(${program} * ${verb})`
                    : `Bash(${program} ${verb} --dry-run)`;
        lists[n % 3].push(rule);
        n++;
      }
    }
    for (let i = 0; n < 500; i++, n++) {
      const rule = [
        `Read(src/module${i}/**)`,
        `Edit(build/out${i}/**)`,
        `WebFetch(domain:api${i}.example.com)`,
      ][i % 3];
      lists[i % 2 === 0 ? 0 : 2].push(rule);
    }
    const dir = mkdtempSync(join(tmpdir(), 'automode-bench-critique-'));
    try {
      const file = join(dir, 'settings.json');
      writeFileSync(file, `${JSON.stringify({ permissions }, null, 2)}\n`);
      const options = { cwd: dir, home: dir, env: {}, managedPath: join(dir, 'none.json'), files: [file] };
      const runs = [];
      let report;
      for (let i = 0; i < 3; i++) {
        const t = nowNs();
        report = await critique(options);
        runs.push(usSince(t) / 1000);
      }
      return {
        critique500RulesMs: round(runs[0]),
        critique500RulesWarmMs: round(median(runs.slice(1))),
        critiqueRules: report.summary.rules,
        critiqueFindings: report.findings.length,
      };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

const SECTIONS = [
  analyzeSection,
  coldStartSection,
  classifySection,
  speculationSection,
  critiqueSection,
  serveSection,
  serveFaultsSection,
  hookSection,
  critiqueStartSection,
  pathsSection,
  ruleScaleSection,
  ruleEditSection,
  sandboxSection,
];

// ---------------------------------------------------------------------------------------------------------------
// Main

function verdict(target, value) {
  if (typeof value !== 'number' || Number.isNaN(value)) return 'MISS';
  return (target.exclusive ? value < target.max : value <= target.max) ? 'PASS' : 'MISS';
}

function table(result) {
  const rows = [['measure', 'value', 'target', '']];
  for (const section of SECTIONS) {
    for (const t of section.targets) {
      const v = result[t.key];
      if (v === undefined) continue;
      rows.push([t.label, String(v), `${t.exclusive ? '<' : '<='} ${t.max}`, verdict(t, v)]);
    }
  }
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  const line = (r) => r.map((cell, c) => cell.padEnd(widths[c])).join('  ');
  const out = [line(rows[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)];
  out.push('');
  out.push(
    `analyze median ${result.analyzeMedianUs} µs, raw parse median ${result.rawParseMedianUs} µs; ` +
      `${result.commands} commands x ${result.runs} runs; cold start min ${result.coldStartMinMs} ms, ` +
      `max ${result.coldStartMaxMs} ms over ${result.coldStartRuns}; node ${result.node}`,
  );
  return out.join('\n');
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  ensureBuilt(opts.build);
  const result = { node: process.version };
  const sections = SECTIONS.filter((section) => !opts.only || opts.only.includes(section.name));
  if (sections.length === 0)
    throw new Error(`--only names no section (${SECTIONS.map((s) => s.name).join(', ')})`);
  for (const section of sections) {
    log(`section: ${section.name}`);
    Object.assign(result, await section.run(opts));
  }
  const pass = {};
  for (const section of sections)
    for (const t of section.targets) pass[t.key] = verdict(t, result[t.key]) === 'PASS';
  result.pass = pass;
  if (opts.json) process.stdout.write(`${JSON.stringify(result)}\n`);
  else process.stdout.write(`${table(result)}\n`);
  if (opts.strict && Object.values(pass).includes(false)) process.exitCode = 1;
}

main().catch((e) => {
  process.stderr.write(`bench: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 1;
});
