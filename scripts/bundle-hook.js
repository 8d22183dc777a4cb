#!/usr/bin/env node
// Bundles `automode hook` into one file, dist/bundle/hook/hook.cjs, after tsc has built dist/. Claude Code starts
// the hook once per tool call, so loading one file instead of ~120 modules is most of its start-up. The bundle is
// CommonJS, as bin/automode.js is: Node starts its ES module loader only for the calls that need it (the
// full CLI, the parser), and a forwarded call is done before it would have been ready.
//
// The bundle sits three folders deep, as dist/rules/settings/builtin.js does, so that its
// new URL('../../../defaults/', import.meta.url) still finds the shipped rules. What loads lazily stays out: the
// Anthropic SDK and zod (only when the model judges) and web-tree-sitter, which finds its .wasm beside itself.
// automode's own lazy modules (the judge, the model client) become chunks beside the bundle.

import { rmSync } from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(ROOT, 'dist/bundle/hook');
const EXTERNAL = [/^@anthropic-ai\/sdk(\/|$)/, /^zod(\/|$)/, /^web-tree-sitter$/];

/**
 * Built-in modules Node does not load at start-up, and that cost a hook call the milliseconds it has: each is
 * loaded at the first call of one of its functions, not when the chunk that names it loads.
 */
const ON_FIRST_CALL = new Set([
  'node:child_process',
  'node:crypto',
  'node:fs/promises',
  'node:http',
  'node:https',
  'node:net',
  'node:readline',
  'node:v8',
  'node:worker_threads',
  'node:zlib',
]);

/**
 * Node's built-in modules through `process.getBuiltinModule` instead of `import`: an ES module's import of a
 * built-in builds a facade that reads every export, lazy ones included (`node:http` loads undici for its
 * `fetch`-era getters, `node:fs` its promises API and readline), and a require loads the module with the chunk.
 * Each import becomes a property read that the tree-shaker drops when unused; in the modules ON_FIRST_CALL names,
 * a function (lower-case name: not a class) becomes one that loads the module when called.
 */
const builtins = {
  name: 'builtins-without-facade',
  resolveId(id) {
    // Bare names too: the CommonJS packages inside (fill-range) require('util').
    if (id.startsWith('node:') || (isBuiltin(id) && !id.includes(':')))
      return { id: `\0builtin:${id.startsWith('node:') ? id : `node:${id}`}`, moduleSideEffects: false };
  },
  load(id) {
    if (!id.startsWith('\0builtin:')) return;
    const name = id.slice('\0builtin:'.length);
    const module = createRequire(import.meta.url)(name);
    const named = Object.keys(module).filter((k) => k !== 'default' && /^[A-Za-z_$][\w$]*$/.test(k));
    const lazy = ON_FIRST_CALL.has(name);
    const onCall = (k) => lazy && /^[a-z]/.test(k) && typeof module[k] === 'function';
    return [
      lazy
        ? `let loaded; const builtin = () => (loaded ??= process.getBuiltinModule(${JSON.stringify(name)}));`
        : `const loaded = process.getBuiltinModule(${JSON.stringify(name)}); const builtin = () => loaded;`,
      'const property = (key) => builtin()[key];',
      'const call = (key) => (...args) => builtin()[key](...args);',
      lazy
        ? 'export default /* @__PURE__ */ new Proxy({}, { get: (_, key) => builtin()[key] });'
        : 'export default loaded;',
      ...named.map(
        (k, i) => `const p${i} = /* @__PURE__ */ ${onCall(k) ? 'call' : 'property'}(${JSON.stringify(k)});`,
      ),
      `export { ${named.map((k, i) => `p${i} as ${k}`).join(', ')} };`,
    ].join('\n');
  },
};

rmSync(OUT, { recursive: true, force: true });
await build({
  input: { hook: join(ROOT, 'dist/cli/hook-main.js') },
  platform: 'node',
  external: EXTERNAL,
  logLevel: 'warn',
  plugins: [builtins],
  // automode's modules do their work when called, not when loaded: a module only the in-process decision uses
  // then stays in its lazy chunk instead of loading with every forwarded call.
  treeshake: { moduleSideEffects: false },
  output: {
    dir: OUT,
    format: 'cjs',
    minify: true,
    // Non-ASCII text makes V8 hold the whole source as two-byte characters: slower to read, hash and scan.
    charset: 'ascii',
    entryFileNames: '[name].cjs',
    chunkFileNames: '[name]-[hash].cjs',
  },
});
