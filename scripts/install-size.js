#!/usr/bin/env node
// What each dependency of an installed automode weighs. Given the folder automode was installed into (by
// scripts/install-size.sh), prints the size of node_modules, then for each direct dependency its exclusive cost
// (the packages only it brings, the bytes they take on disk) and its cost with the packages it shares with others.

import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const folder = process.argv[2];
if (!folder) {
  console.error('usage: node scripts/install-size.js <folder with node_modules/automode>');
  process.exit(2);
}
const lock = JSON.parse(readFileSync(join(folder, 'node_modules/.package-lock.json'), 'utf8')).packages;

/** Bytes on disk of a package's folder, without its own node_modules (a nested package counts on its own). */
function du(path) {
  const st = lstatSync(path);
  if (st.isSymbolicLink()) return 0;
  if (!st.isDirectory()) return st.blocks * 512;
  let bytes = st.blocks * 512;
  for (const entry of readdirSync(path)) if (entry !== 'node_modules') bytes += du(join(path, entry));
  return bytes;
}

/** The lock key of the package `name` as Node resolves it from the package at `from`. */
function resolve(from, name) {
  let dir = from;
  for (;;) {
    const key = `${dir ? `${dir}/` : ''}node_modules/${name}`;
    if (lock[key]) return key;
    if (!dir) return undefined;
    const i = dir.lastIndexOf('/node_modules/');
    dir = i < 0 ? '' : dir.slice(0, i);
  }
}

const size = {};
for (const key of Object.keys(lock)) size[key] = existsSync(join(folder, key)) ? du(join(folder, key)) : 0;

/** Every installed package reachable from these. */
function reach(starts) {
  const seen = new Set();
  const stack = [...starts];
  while (stack.length > 0) {
    const key = stack.pop();
    if (seen.has(key)) continue;
    seen.add(key);
    const entry = lock[key];
    const names = { ...entry.dependencies, ...entry.optionalDependencies, ...entry.peerDependencies };
    for (const name of Object.keys(names)) {
      const dep = resolve(key, name);
      if (dep) stack.push(dep);
    }
  }
  return seen;
}

const sum = (keys) => [...keys].reduce((bytes, key) => bytes + size[key], 0);
const mb = (bytes) => `${(bytes / 1048576).toFixed(1)} MB`;
const self = 'node_modules/automode';
const meta = lock[self];
const direct = Object.keys({ ...meta.dependencies, ...meta.optionalDependencies })
  .map((name) => [name, resolve(self, name)])
  .filter(([, key]) => key);
const all = reach([self]);
console.log(`node_modules: ${mb(sum(Object.keys(size)))} in ${Object.keys(lock).length - 1} packages`);
console.log(`automode itself: ${mb(size[self])}`);
const rows = direct.map(([name, key]) => {
  const others = reach(direct.filter(([, k]) => k !== key).map(([, k]) => k));
  const mine = reach([key]);
  const only = [...mine].filter((k) => !others.has(k));
  return { name, only: sum(only), packages: only.length, shared: sum(mine) };
});
rows.sort((a, b) => b.only - a.only || b.shared - a.shared);
console.log(
  `${'dependency'.padEnd(32)} ${'exclusive'.padStart(10)}  packages  ${'with shared'.padStart(11)}`,
);
for (const r of rows)
  console.log(
    `${r.name.padEnd(32)} ${mb(r.only).padStart(10)}  ${String(r.packages).padStart(8)}  ${mb(r.shared).padStart(11)}`,
  );
const unreached = Object.keys(lock).filter((k) => k && !all.has(k));
if (unreached.length > 0) console.log(`not reached from automode: ${unreached.join(', ')}`);
