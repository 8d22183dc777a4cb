#!/usr/bin/env node
// One-shot commands parse a few commands at most: the baseline WebAssembly compiler is enough, and skips the
// optimising compile of the 1.3 MB grammar that would otherwise hold up the exit by some 400 ms. critique parses
// the shipped corpus and its rules' witnesses, and is still faster without the optimising tier at 1,000 rules
// (bench section 'critique start'). node:v8 is read through getBuiltinModule: an ESM import of a built-in
// module costs more than the flag saves for a call that needs no parser.
const SHORT = new Set(['classify', 'explain', 'hook', 'config', 'defaults', 'critique']);
const baselineWasm = () => process.getBuiltinModule('node:v8').setFlagsFromString('--liftoff-only');

// Claude Code starts the hook for every tool call: it runs from its bundle, without the full CLI's parser. The
// bundle hands only help and the version back to the full CLI; it answers a usage error itself (never exit 2).
// A forwarded call never loads the classifier, so the flag is set only when the hook decides in-process.
if (process.argv[2] === 'hook') {
  const { hookMain } = await import('../dist/bundle/hook/hook.js');
  const code = await hookMain(process.argv.slice(3), { beforeDeciding: baselineWasm });
  if (code !== undefined) process.exitCode = code;
} else if (SHORT.has(process.argv[2] ?? '')) baselineWasm();
if (process.exitCode === undefined) {
  const { main } = await import('../dist/cli/main.js');
  process.exitCode = await main(process.argv.slice(2));
}
