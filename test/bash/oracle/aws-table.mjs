#!/usr/bin/env node
// Checks the aws module's committed operation table against the installed aws-cli: its command tables, through
// scripts/aws-commands.py, must give the committed version, global options and table. Exit 0 when they match,
// 1 when they differ; where aws-cli is not installed it says so and exits 0 (the suite checks the
// version line's form). Usage: node test/bash/oracle/aws-table.mjs
import { spawnSync } from 'node:child_process';
import { inflateSync } from 'node:zlib';
import { sourceServer } from './sources.mjs';

if (spawnSync('python3', ['-c', 'import awscli']).status !== 0) {
  console.error('aws table check skipped: aws-cli is not installed');
  process.exit(0);
}
const run = spawnSync('python3', ['scripts/aws-commands.py', '--text'], {
  encoding: 'utf8',
  maxBuffer: 64 * 1024 * 1024,
});
if (run.status !== 0) {
  console.error(run.stderr);
  process.exit(1);
}
const server = await sourceServer();
try {
  const module = await server.ssrLoadModule('/src/bash/programs/aws/operations.ts');
  const table = inflateSync(Buffer.from(module.AWS_READ_OPERATIONS, 'base64')).toString('utf8');
  const [version, globals, ...rest] = run.stdout.replace(/\n$/, '').split('\n');
  const differences = [
    version !== module.AWS_CLI_VERSION &&
      `version: installed ${version}, committed ${module.AWS_CLI_VERSION}`,
    globals !== module.AWS_GLOBAL_OPTIONS && 'global options differ',
    rest.join('\n') !== table && 'the operation table differs (regenerate: python3 scripts/aws-commands.py)',
  ].filter(Boolean);
  for (const line of differences) console.log(`aws table: ${line}`);
  if (differences.length === 0) console.log(`aws table: matches ${version}`);
  process.exitCode = differences.length ? 1 : 0;
} finally {
  await server.close();
}
