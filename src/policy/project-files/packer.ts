import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ProjectPlace } from './place.js';

/**
 * Packer before 1.11 starts every `packer-plugin-*` program in its working folder before any command, `--version`
 * included (seen in the canary world): such an entry is a program the agent may have written.
 */
export function packerPlugins({ cwds }: ProjectPlace): string | undefined {
  if (!cwds) return 'packer starts the packer-plugin-* programs of a folder only known at run time';
  for (const cwd of cwds) {
    let names: string[];
    try {
      names = readdirSync(cwd);
    } catch {
      return `packer starts the packer-plugin-* programs of ${cwd}, which cannot be listed`;
    }
    const found = names.find((name) => name.startsWith('packer-plugin-'));
    if (found) return `packer starts ${join(cwd, found)} before any command`;
  }
  return undefined;
}
