#!/usr/bin/env node
// Bundles the CLI (dist/cli/main.js) into dist/bundle/cli/: one file for what every command loads and a chunk per
// command, instead of the ~420 modules a command otherwise resolves, reads and links one by one.
//
// Each module's import.meta.url is rewritten to the URL its own file has in dist/, so that paths it finds beside
// itself (the shipped defaults, the grammar, package.json) are the same as when it runs unbundled. What loads
// lazily through a package name stays out (the Anthropic SDK, zod, web-tree-sitter, the optional peers).

import { rmSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(ROOT, 'dist/bundle/cli');
const DIST = join(ROOT, 'dist');
const EXTERNAL = [
  /^@anthropic-ai\//,
  /^@modelcontextprotocol\//,
  /^zod(\/|$)/,
  /^web-tree-sitter$/,
  /^turndown$/,
  /^vitest(\/|$)/,
];

const ownUrl = {
  name: 'own-import-meta-url',
  transform(code, id) {
    if (!id.startsWith(DIST + sep) || !code.includes('import.meta.url')) return;
    const from = relative(OUT, id).split(sep).join('/');
    return code.replaceAll('import.meta.url', `new URL(${JSON.stringify(from)}, import.meta.url).href`);
  },
};

rmSync(OUT, { recursive: true, force: true });
await build({
  input: { main: join(ROOT, 'dist/cli/main.js') },
  platform: 'node',
  external: EXTERNAL,
  logLevel: 'warn',
  plugins: [ownUrl],
  // jsonc-parser's main build is UMD, whose require of its own parts a bundler cannot follow: its ES build.
  resolve: { mainFields: ['module', 'main'] },
  output: {
    dir: OUT,
    format: 'esm',
    minify: true,
    // Non-ASCII text makes V8 hold the whole source as two-byte characters: slower to read, hash and scan.
    charset: 'ascii',
    entryFileNames: '[name].js',
    chunkFileNames: '[name]-[hash].js',
  },
});
