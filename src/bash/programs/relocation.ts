/**
 * How one code runner's command line makes it take its code, configuration or shell from another place than
 * where it runs: that code is not the project's code a rule's words show (`policy/broad.ts` reads it).
 */
export interface Relocation {
  /** Options whose value names that place (another makefile, folder, manifest, project, shell, config). */
  values: readonly string[];
  /** Options and words that do so by themselves (`pnpm -r`, `yarn workspace`, `just -g`). */
  flags?: readonly string[];
  /** Flag letters a short option may follow in one group (`make -kf other.mk`). */
  group?: string;
  /** Words that start like a short option with a glued value but are options of their own (`mvn -fae`). */
  not?: readonly string[];
  /** Long options are written with one dash (`go -modfile`); two are accepted too. */
  singleDash?: boolean;
  /** Its options come before the first operand; the words after belong to the program it runs (`npx jest -w 2`). */
  optionsFirst?: boolean;
}

/** npx, pnpx and bunx: where the package comes from. */
export const PACKAGE_RUNNER_RELOCATION: Relocation = {
  values: ['--prefix', '-p', '--package', '-w', '--workspace'],
  flags: ['--workspaces', '--ws'],
  optionsFirst: true,
};
