#!/usr/bin/env node
// Runs the effect oracle (see test/bash/effects-oracle.test.ts) outside vitest: every sample, every NL2Bash line
// and 50,000 lines generated from the program specs, each allowed one run with real programs in the canary world.
// Usage: node test/bash/effects-oracle/cli.mjs [--generated N] [--no-nl2bash] [--nl2bash N] [--seed S]
//        [--workers N] [--run-limit N] [--line 'cmd' ...] [--json FILE|-] [--report FILE] [--limit N]
// (as root on Linux; loads the TypeScript sources through vite, as test/bash/oracle/cli.mjs does).
import { writeFileSync } from 'node:fs';
import { sourceServer } from '../oracle/sources.mjs';

const args = process.argv.slice(2);
const options = { extra: [] };
let json;
let reportFile;
let limit = 100;
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === '--generated') options.generated = Number(args[++i]);
  else if (a === '--no-nl2bash') options.nl2bash = false;
  else if (a === '--nl2bash') options.nl2bash = Number(args[++i]);
  else if (a === '--no-samples') options.samples = false;
  else if (a === '--seed') options.seed = Number(args[++i]);
  else if (a === '--workers') options.workers = Number(args[++i]);
  else if (a === '--run-limit') options.runLimit = Number(args[++i]);
  else if (a === '--line') options.extra.push(args[++i]);
  else if (a === '--json') json = args[++i];
  else if (a === '--report') reportFile = args[++i];
  else if (a === '--limit') limit = Number(args[++i]);
  else {
    console.error(`unknown argument ${a}`);
    process.exit(2);
  }
}

const server = await sourceServer();
try {
  const oracle = await server.ssrLoadModule('/test/bash/effects-oracle/run.ts');
  if (options.generated === undefined) options.generated = options.extra.length ? 0 : oracle.FULL_GENERATED;
  if (options.extra.length) {
    options.nl2bash ??= false;
    options.samples ??= false;
  }
  const unavailable = (await server.ssrLoadModule('/test/bash/oracle/sandbox.ts')).sandboxUnavailable();
  if (unavailable) {
    console.error(`effect oracle skipped: ${unavailable}`);
    process.exit(3);
  }
  const result = await oracle.runEffectOracle(options);
  if (json === '-') {
    console.log(JSON.stringify(result, null, 1));
    process.exitCode = result.failures.length > 0 ? 1 : 0;
    process.exit();
  }
  if (json) writeFileSync(json, `${JSON.stringify(result, null, 1)}\n`);
  if (reportFile) {
    writeFileSync(
      reportFile,
      [
        `Effect oracle, seed ${result.seed}: ${result.run} commands run, ${result.failures.length} disagreeing`,
        `## By program: lines, share allowed, run, disagreeing\n${oracle.formatPrograms(result)}`,
        `## By program and class\n${oracle.formatClasses(result.failures)}`,
        `## Every disagreement\n${oracle.formatFailures(result.failures, Number.POSITIVE_INFINITY)}\n`,
      ].join('\n\n'),
    );
  }
  console.log(oracle.formatFailures(result.failures, limit));
  console.log(`\n${oracle.formatClasses(result.failures)}`);
  console.log(`\n${oracle.formatPrograms(result)}`);
  const { failures, programs, ...figures } = result;
  console.log(JSON.stringify({ ...figures, failures: failures.length }));
  process.exitCode = failures.length > 0 ? 1 : 0;
} finally {
  await server.close();
}
