import { existsSync } from 'node:fs';
import { join, sep } from 'node:path';
import type { ProjectPlace } from './place.js';
import { foldersUp, isLink, realTarget } from './read.js';

/**
 * uv reads an environment by running its interpreter, and finds the environment in `.venv` in the working folder
 * or above: a `.venv/bin/python` that is a file of its own (not a link to an interpreter outside that folder)
 * is a program the agent may have written.
 */
export function uvInterpreter({ cwds }: ProjectPlace): string | undefined {
  if (!cwds) return 'uv runs a .venv interpreter in a folder only known at run time to read the environment';
  for (const at of foldersUp(cwds)) {
    const python = join(at, '.venv', 'bin', 'python');
    if (existsSync(python) || isLink(python)) {
      const real = realTarget(python);
      if (!real || !isLink(python) || real === at || real.startsWith(`${at}${sep}`))
        return `uv runs ${python} to read the environment`;
    }
  }
  return undefined;
}
