#!/usr/bin/env node
// Copies the bash grammar automode parses with (tree-sitter-bash's WebAssembly build, with its licence) into
// dist/grammars/, after tsc has built dist/. The package ships this 1.3 MB file rather than depend on
// tree-sitter-bash, whose 20 MB are mostly native sources and prebuilt binaries automode never loads.

import { copyFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(ROOT, 'dist/grammars');
const require = createRequire(import.meta.url);
const from = dirname(require.resolve('tree-sitter-bash/package.json'));

mkdirSync(OUT, { recursive: true });
copyFileSync(join(from, 'tree-sitter-bash.wasm'), join(OUT, 'tree-sitter-bash.wasm'));
copyFileSync(join(from, 'LICENSE'), join(OUT, 'tree-sitter-bash.LICENSE'));
