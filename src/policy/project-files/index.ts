import { cargoSettings } from './cargo.js';
import { npmSettings } from './npm.js';
import { packerPlugins } from './packer.js';
import type { ProjectPlace } from './place.js';
import { rustToolchain, TOOLCHAIN_PROXIES } from './rust.js';
import { uvInterpreter } from './uv.js';

export type { ProjectPlace } from './place.js';

/** A check of the files a program reads where it runs: why its read is not read-only there, or undefined. */
type ProjectCheck = (place: ProjectPlace) => string | undefined;

/**
 * The files of the project (or a folder above it) that a program reads before it does its job and that change
 * what it runs, where it connects or what it writes: each program's checks, read at decision time, so that a
 * file the agent wrote is seen by the next decision.
 */
const CHECKS: Readonly<Record<string, readonly ProjectCheck[]>> = {
  ...Object.fromEntries(TOOLCHAIN_PROXIES.map((name) => [name, [rustToolchain]])),
  cargo: [rustToolchain, cargoSettings],
  npm: [npmSettings],
  pnpm: [npmSettings],
  uv: [uvInterpreter],
  packer: [packerPlugins],
};

/** Why the project's files make this read-only command of the program's not read-only; undefined when none do. */
export function projectFilesProblem(place: ProjectPlace): string | undefined {
  for (const check of CHECKS[place.program] ?? []) {
    const problem = check(place);
    if (problem) return problem;
  }
  return undefined;
}
