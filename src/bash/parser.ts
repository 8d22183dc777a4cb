import { createRequire } from 'node:module';
import type { Node, Parser, Tree } from 'web-tree-sitter';

export type { Node, Tree };

const require = createRequire(import.meta.url);

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
    const language = await Language.load(require.resolve('tree-sitter-bash/tree-sitter-bash.wasm'));
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
