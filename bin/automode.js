#!/usr/bin/env node
// CommonJS (bin/package.json): a hook call is done before Node's ES module loader would have been ready; the full
// CLI is an ES module, imported when it is needed, from its bundle (scripts/bundle-cli.js): a few files instead of
// the ~420 modules of dist/cli/main.js.
//
// Node (22.1 and later) keeps the compiled code of automode's modules in a per-user cache: a command hook starts
// without compiling them again. The folder is a protected path (policy/paths.ts): the agent never writes it
// without asking.
// Node's own `mkdir -p` never returns below /proc: the folder is made one name at a time first, and without it
// there is no cache.
function compileCacheFolder() {
  const { mkdirSync, statSync } = process.getBuiltinModule('node:fs');
  const dir = `${process.getBuiltinModule('node:os').homedir()}/.cache/automode/compile-cache`;
  let at = '';
  for (const name of dir.split('/').filter(Boolean)) {
    at += `/${name}`;
    try {
      mkdirSync(at);
    } catch {
      if (!statSync(at, { throwIfNoEntry: false })?.isDirectory()) return undefined;
    }
  }
  return dir;
}
const cacheFolder = process.getBuiltinModule('node:module').enableCompileCache && compileCacheFolder();
if (cacheFolder) process.getBuiltinModule('node:module').enableCompileCache(cacheFolder);

// One-shot commands parse a few commands at most: the baseline WebAssembly compiler is enough, and skips the
// optimising compile of the 1.3 MB grammar that would otherwise hold up the exit by some 400 ms. critique parses
// the shipped corpus and its rules' witnesses, and is still faster without the optimising tier at 1,000 rules
// (bench section 'critique start').
const SHORT = new Set(['classify', 'explain', 'hook', 'config', 'defaults', 'critique']);
const baselineWasm = () => process.getBuiltinModule('node:v8').setFlagsFromString('--liftoff-only');

// Claude Code starts the hook for every tool call: it runs from its bundle, without the full CLI's parser. The
// bundle hands only help and the version back to the full CLI; it answers a usage error itself (never exit 2).
// A forwarded call never loads the classifier, so the flag is set only when the hook decides in-process.
async function run() {
  if (process.argv[2] === 'hook') {
    const { hookMain } = require('../dist/bundle/hook/hook.cjs');
    const code = await hookMain(process.argv.slice(3), { beforeDeciding: baselineWasm, bin: __filename });
    if (code !== undefined) process.exitCode = code;
  } else if (SHORT.has(process.argv[2] ?? '')) baselineWasm();
  if (process.exitCode === undefined) {
    const { main } = await import('../dist/bundle/cli/main.js');
    process.exitCode = await main(process.argv.slice(2));
  }
}

run();
