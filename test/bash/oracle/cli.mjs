#!/usr/bin/env node
// Prints the lines where the bash analysis disagrees with real bash (see test/bash/oracle.test.ts).
// Usage: node test/bash/oracle/cli.mjs [--no-nl2bash] [--generated N] [--seed S] [--workers N] [--json FILE]
//        [--limit N] [--classes] [--line 'cmd' ...] [--from-json FILE]
// (as root on Linux; loads the TypeScript sources through vite). --classes groups the disagreements by likely
// cause with examples; --from-json re-reads a --json result instead of running bash.
import { readFileSync, writeFileSync } from 'node:fs';
import { sourceServer } from './sources.mjs';

const args = process.argv.slice(2);
const options = { nl2bash: true, generated: 0, extra: [] };
let json;
let fromJson;
let classes = false;
let limit = 200;
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === '--no-nl2bash') options.nl2bash = false;
  else if (a === '--generated') options.generated = Number(args[++i]);
  else if (a === '--seed') options.seed = Number(args[++i]);
  else if (a === '--workers') options.workers = Number(args[++i]);
  else if (a === '--json') json = args[++i];
  else if (a === '--limit') limit = Number(args[++i]);
  else if (a === '--line') options.extra.push(args[++i]);
  else if (a === '--classes') classes = true;
  else if (a === '--from-json') fromJson = args[++i];
  else {
    console.error(`unknown argument ${a}`);
    process.exit(2);
  }
}
if (options.extra.length && !args.includes('--nl2bash')) options.nl2bash = args.includes('--nl2bash');

const server = await sourceServer();
try {
  const oracle = await server.ssrLoadModule('/test/bash/oracle/run.ts');
  let result;
  if (fromJson) result = JSON.parse(readFileSync(fromJson, 'utf8'));
  else {
    const unavailable = (await server.ssrLoadModule('/test/bash/oracle/sandbox.ts')).sandboxUnavailable();
    if (unavailable) {
      console.error(`bash oracle skipped: ${unavailable}`);
      process.exit(3);
    }
    result = await oracle.runOracle(options);
  }
  if (json) writeFileSync(json, `${JSON.stringify(result, null, 1)}\n`);
  if (classes) {
    const { groupByClass } = await server.ssrLoadModule('/test/bash/oracle/classes.ts');
    for (const set of ['nl2bash', 'generated', 'extra']) {
      const reports = result.failures.filter((f) => f.set === set);
      if (reports.length === 0) continue;
      console.log(`\n## ${set}: ${reports.length} lines\n`);
      for (const g of groupByClass(reports)) {
        console.log(`### ${g.name}: ${g.reports.length}\n`);
        const examples = [...g.reports].sort((a, b) => a.line.length - b.line.length).slice(0, 5);
        console.log(`${oracle.formatFailures(examples, 5)}\n`);
      }
    }
  } else console.log(oracle.formatFailures(result.failures, limit));
  const { failures, explained, slowest, ...figures } = result;
  if (slowest?.length) console.log(`slowest lines: ${JSON.stringify(slowest.slice(0, 10))}`);
  const bySet = {};
  for (const f of failures) bySet[f.set] = (bySet[f.set] ?? 0) + 1;
  console.log(
    JSON.stringify({
      ...figures,
      explained: explained.length,
      failures: failures.length,
      failuresBySet: bySet,
    }),
  );
  process.exitCode = failures.length > 0 ? 1 : 0;
} finally {
  await server.close();
}
