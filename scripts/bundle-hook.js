#!/usr/bin/env node
// Bundles `automode hook` into one file, dist/bundle/hook/hook.js, after tsc has built dist/. Claude Code starts
// the hook once per tool call, so loading one file instead of ~120 modules is most of its start-up.
//
// The bundle sits three folders deep, as dist/rules/settings/builtin.js does, so that its
// new URL('../../../defaults/', import.meta.url) still finds the shipped rules. What loads lazily stays out: the
// Anthropic SDK and zod (only when the model judges) and web-tree-sitter, which finds its .wasm beside itself.
// automode's own lazy modules (the judge, the model client) become chunks beside the bundle.

import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(ROOT, 'dist/bundle/hook');
const EXTERNAL = [/^@anthropic-ai\/sdk(\/|$)/, /^zod(\/|$)/, /^web-tree-sitter$/, /^node:/];

rmSync(OUT, { recursive: true, force: true });
await build({
  input: { hook: join(ROOT, 'dist/cli/hook-main.js') },
  platform: 'node',
  external: EXTERNAL,
  logLevel: 'warn',
  // automode's modules do their work when called, not when loaded: a module only the in-process decision uses
  // then stays in its lazy chunk instead of loading with every forwarded call.
  treeshake: { moduleSideEffects: false },
  output: {
    dir: OUT,
    format: 'esm',
    minify: true,
    entryFileNames: '[name].js',
    chunkFileNames: '[name]-[hash].js',
  },
});
