import { ANSIBLE_PROGRAMS } from '../../bash/index.js';
import { ansibleProject } from './ansible.js';
import { brewUpdatesFirst } from './brew.js';
import { cargoSettings } from './cargo.js';
import { clientStartupProblem } from './client-startup.js';
import { remoteReadProblem } from './git-remotes.js';
import { helmSchemaProblem } from './helm-schemas.js';
import { npmSettings } from './npm.js';
import { packerPlugins } from './packer.js';
import type { ProjectPlace } from './place.js';
import { ruffSettings } from './ruff.js';
import { rustToolchain, TOOLCHAIN_PROXIES } from './rust.js';
import { uvInterpreter } from './uv.js';
import { yarnSettings } from './yarn.js';

export type { ProjectPlace } from './place.js';

/** A check of the files a program reads where it runs: why its read is not read-only there, or undefined. */
type ProjectCheck = (place: ProjectPlace) => string | undefined;

const ansible: ProjectCheck = (p) =>
  ansibleProject(p.program, p.cmd.argv, p.cwds, p.ctx.home, p.changedBefore());
const startup: ProjectCheck = (p) => clientStartupProblem(p.program, p.words, p.ctx.home);

/**
 * The files of the project (or of a folder above it, or the user's start-up files) that a program reads before
 * it does its job and that change what it runs, where it connects or what it writes, and what it does first
 * (brew updates itself): each program's checks, read at decision time, so that a file the agent wrote is seen by
 * the next decision.
 */
const CHECKS: Readonly<Record<string, readonly ProjectCheck[]>> = {
  ...Object.fromEntries(TOOLCHAIN_PROXIES.map((name) => [name, [rustToolchain]])),
  cargo: [rustToolchain, cargoSettings],
  npm: [npmSettings],
  pnpm: [npmSettings],
  uv: [uvInterpreter],
  packer: [packerPlugins],
  yarn: [yarnSettings],
  ruff: [ruffSettings],
  brew: [brewUpdatesFirst],
  git: [(p) => remoteReadProblem(p.cmd, p.cwds, p.ctx)],
  helm: [(p) => helmSchemaProblem(p.cmd, p.cwds, p.ctx, p.changedBefore)],
  sqlite3: [startup],
  duckdb: [startup],
  psql: [startup],
  mysql: [startup],
  ...Object.fromEntries(ANSIBLE_PROGRAMS.map((name) => [name, [ansible]])),
};

/** Why the files a read-only command of the program reads where it runs make it not read-only; undefined if none. */
export function projectFilesProblem(place: ProjectPlace): string | undefined {
  for (const check of CHECKS[place.program] ?? []) {
    const problem = check(place);
    if (problem) return problem;
  }
  return undefined;
}
