import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Node, Parser, Tree } from 'web-tree-sitter';

export type { Node, Tree };

/**
 * tree-sitter-bash's WebAssembly grammar: the copy the build puts in dist/grammars (the package ships it, not
 * tree-sitter-bash), or, in a checkout run from its sources, the tree-sitter-bash package's own.
 */
function grammarFile(): string {
  const here = fileURLToPath(import.meta.url);
  const dist = here.lastIndexOf(`${path.sep}dist${path.sep}`);
  if (dist >= 0) return path.join(here.slice(0, dist), 'dist', 'grammars', 'tree-sitter-bash.wasm');
  return createRequire(import.meta.url).resolve('tree-sitter-bash/tree-sitter-bash.wasm');
}

let ready: Promise<void> | undefined;
let parser: Parser | undefined;

/**
 * Initialises web-tree-sitter and the bash grammar once per process, on first use. No network is involved.
 * web-tree-sitter itself loads here too: a call that needs no parse (a Read, `git status`) never loads it.
 */
export function loadBash(): Promise<void> {
  ready ??= (async () => {
    const { Language, Parser } = await import('web-tree-sitter');
    await Parser.init();
    const language = await Language.load(grammarFile());
    const p = new Parser();
    p.setLanguage(language);
    parser = p;
  })();
  return ready;
}

export function isBashLoaded(): boolean {
  return parser !== undefined;
}

export class ParserNotLoaded extends Error {
  constructor() {
    super('bash parser not loaded: await loadBash() first');
  }
}

/** Parses with the loaded grammar; loadBash() must have resolved first. */
export function parseBash(source: string): Tree {
  if (!parser) throw new ParserNotLoaded();
  const tree = parser.parse(source);
  if (!tree) throw new Error('tree-sitter returned no tree');
  return tree;
}
