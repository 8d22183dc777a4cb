import { GIT_SPEC } from './git/spec.js';
import type { ProgramSpec } from './program.js';

/**
 * Every program automode has a spec for. A program not listed here is unknown: it is never read-only and deny
 * rules match it by its words alone.
 */
const SPECS: readonly ProgramSpec[] = [GIT_SPEC];

const BY_NAME = new Map<string, ProgramSpec>();
for (const spec of SPECS) {
  for (const name of [spec.name, ...(spec.aliases ?? [])]) {
    if (BY_NAME.has(name)) throw new Error(`two program specs are named ${name}`);
    BY_NAME.set(name, spec);
  }
}

/** The spec of the program a command names (its basename), or undefined when automode has none. */
export function programSpec(program: string): ProgramSpec | undefined {
  return BY_NAME.get(program);
}

/**
 * The spec a deny or ask rule reads the program by: also `mkfs.ext4` for `mkfs`, when the spec says its
 * family ships dotted variants. Never used to allow: `cat.sh` is not `cat`.
 */
export function familySpec(program: string): ProgramSpec | undefined {
  const exact = BY_NAME.get(program);
  if (exact) return exact;
  const dot = program.indexOf('.');
  const family = dot > 0 ? BY_NAME.get(program.slice(0, dot)) : undefined;
  return family?.dottedVariants ? family : undefined;
}

export function allProgramSpecs(): readonly ProgramSpec[] {
  return SPECS;
}
