#!/usr/bin/env node
// `npm run pack [-- DEST]`: builds, then writes automode-VERSION.tgz (into DEST, default the checkout) from a staged
// copy of the files `npm pack` would ship, whose package.json has no scripts: the checkout's `prepare` (the
// build, which a git install needs) would otherwise travel in the tarball as an install script, which npm
// asks every installer to allow. Prints npm pack's JSON report on stdout.

import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const dest = resolve(process.argv[2] ?? ROOT);

function run(command, args, cwd) {
  const r = spawnSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (r.status !== 0) {
    process.stderr.write(r.stdout ?? '');
    process.exit(r.status ?? 1);
  }
  return r.stdout;
}

run(process.execPath, ['scripts/build.js'], ROOT);
const listed = JSON.parse(run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], ROOT))[0];
const stage = mkdtempSync(join(tmpdir(), 'automode-pack-'));
try {
  for (const { path } of listed.files) {
    if (path === 'package.json') continue;
    mkdirSync(dirname(join(stage, path)), { recursive: true });
    cpSync(join(ROOT, path), join(stage, path));
  }
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  delete pkg.scripts;
  delete pkg.devDependencies;
  writeFileSync(join(stage, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  mkdirSync(dest, { recursive: true });
  process.stdout.write(run('npm', ['pack', stage, '--json', '--ignore-scripts', '--pack-destination', dest], ROOT));
} finally {
  rmSync(stage, { recursive: true, force: true });
}
