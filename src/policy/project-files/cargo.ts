import { join } from 'node:path';
import type { ProjectPlace } from './place.js';
import { foldersUp, readBounded } from './read.js';

/** Tables of cargo's configuration that change neither what it runs nor where it connects or reads. */
const CARGO_TABLES = new Set(['alias', 'term', 'cargo-new']);

/**
 * cargo reads `.cargo/config.toml` (and `.cargo/config`) in the working folder and every folder above: there
 * `build.rustc` or `build.rustc-wrapper` names a program that `cargo tree` and `cargo info` run to learn the
 * target, and `source`, `registries` and `credential-provider` send what it fetches and the tokens it holds
 * elsewhere. A read stays read-only only where every such file (CARGO_HOME's, the user's own, aside) sets
 * nothing but aliases and terminal settings. Undefined when none sets more.
 */
export function cargoSettings({ cwds, ctx }: ProjectPlace): string | undefined {
  if (!cwds) return 'a .cargo/config.toml in a folder only known at run time may name a program cargo runs';
  const own = join(ctx.home, '.cargo');
  for (const at of foldersUp(cwds)) {
    const folder = join(at, '.cargo');
    for (const name of folder === own ? [] : ['config.toml', 'config']) {
      const file = join(folder, name);
      const text = readBounded(file);
      if (text instanceof Error) return `${file} cannot be read`;
      const table = text === undefined ? undefined : unsafeTable(text);
      if (table) return `${file} sets ${table}: cargo may run a program or connect where it says`;
    }
  }
  return undefined;
}

/** The first table or top-level key of a TOML file outside CARGO_TABLES; undefined when none is. */
function unsafeTable(text: string): string | undefined {
  let root: string | undefined;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const header = /^\[\[?\s*([A-Za-z0-9_-]+)\s*(?:[.\]])/.exec(line);
    if (line.startsWith('[')) {
      root = header?.[1];
      if (!root || !CARGO_TABLES.has(root)) return line.slice(0, 60);
      continue;
    }
    const key = /^([A-Za-z0-9_-]+)/.exec(line)?.[1];
    if (root === undefined && (!key || !CARGO_TABLES.has(key))) return line.slice(0, 60);
  }
  return undefined;
}
