#!/usr/bin/env node
// `npm run build`: compiles src/ to dist/ (tsc), copies the bash grammar (copy-grammar.js), bundles the hook
// (bundle-hook.js) and the CLI (bundle-cli.js), then stamps dist/ with a hash of everything the build reads. A build
// whose inputs hash to the stamp is skipped: `npm ci` builds (the prepare script) and `npm test` (which builds
// first, for a checkout edited since) then finds dist/ current instead of building it a second time. `--force`
// builds regardless.

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const STAMP = join(ROOT, 'dist/.build-stamp');
const INPUTS = [
  'src',
  'tsconfig.json',
  'package.json',
  'package-lock.json',
  'scripts/build.js',
  'scripts/copy-grammar.js',
  'scripts/bundle-hook.js',
  'scripts/bundle-cli.js',
];
/** Outputs whose absence means dist/ is not a whole build, whatever the stamp says. */
const OUTPUTS = [
  'dist/index.js',
  'dist/cli/main.js',
  'dist/bundle/cli/main.js',
  'dist/bundle/hook/hook.cjs',
  'dist/grammars/tree-sitter-bash.wasm',
];

function files(path) {
  const full = join(ROOT, path);
  if (!existsSync(full)) return [];
  try {
    return readdirSync(full, { withFileTypes: true })
      .sort((a, b) => (a.name < b.name ? -1 : 1))
      .flatMap((e) => files(join(path, e.name)));
  } catch {
    return [path];
  }
}

function inputsHash() {
  const hash = createHash('sha256');
  const require = createRequire(import.meta.url);
  for (const name of ['typescript', 'rolldown', 'tree-sitter-bash']) {
    try {
      hash.update(`${name}@${require(`${name}/package.json`).version}\0`);
    } catch {
      hash.update(`${name}@?\0`);
    }
  }
  for (const input of INPUTS)
    for (const file of files(input)) hash.update(`${relative(ROOT, join(ROOT, file))}\0`).update(readFileSync(join(ROOT, file)));
  return hash.digest('hex');
}

function step(args) {
  const r = spawnSync(process.execPath, args, { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const wanted = inputsHash();
const current = existsSync(STAMP) ? readFileSync(STAMP, 'utf8').trim() : '';
if (!process.argv.includes('--force') && current === wanted && OUTPUTS.every((o) => existsSync(join(ROOT, o)))) {
  console.error('build: dist/ is up to date with src/ (npm run build -- --force rebuilds)');
  process.exit(0);
}
rmSync(STAMP, { force: true });
const require = createRequire(import.meta.url);
step([require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.json']);
step(['scripts/copy-grammar.js']);
step(['scripts/bundle-hook.js']);
step(['scripts/bundle-cli.js']);
writeFileSync(STAMP, `${wanted}\n`);
