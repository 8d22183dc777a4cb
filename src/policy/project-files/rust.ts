import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ProjectPlace } from './place.js';
import { foldersUp } from './read.js';

/**
 * rustup's proxies (`cargo`, `rustc`) run the toolchain a `rust-toolchain.toml` in the working folder or above
 * names, which may be any folder (`path = …`): a file the agent can write picks the program that runs.
 */
export const TOOLCHAIN_PROXIES = [
  'cargo',
  'rustc',
  'rustup',
  'rustfmt',
  'cargo-clippy',
  'clippy-driver',
  'rustdoc',
];

export function rustToolchain({ program, cwds }: ProjectPlace): string | undefined {
  if (!cwds)
    return `a rust-toolchain file in a folder only known at run time may name another ${program} to run`;
  for (const at of foldersUp(cwds)) {
    for (const name of ['rust-toolchain', 'rust-toolchain.toml']) {
      const file = join(at, name);
      if (existsSync(file)) return `${file} may name another ${program} to run`;
    }
  }
  return undefined;
}
