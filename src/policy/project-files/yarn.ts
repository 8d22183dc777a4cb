import { join } from 'node:path';
import { YARN_SCRIPT_NAMES, yarnCommand } from '../../bash/index.js';
import { unsafeKey } from './npm.js';
import type { ProjectPlace } from './place.js';
import { foldersUp, readBounded, readManifest } from './read.js';

/** `.yarnrc.yml` settings that shape output, the lock file or what an install would do, and nothing else. */
const YARNRC_YML_KEYS = new Set([
  'checksumBehavior',
  'compressionLevel',
  'defaultSemverRangePrefix',
  'enableColors',
  'enableGlobalCache',
  'enableHyperlinks',
  'enableImmutableCache',
  'enableImmutableInstalls',
  'enableInlineBuilds',
  'enableMessageNames',
  'enableProgressBars',
  'enableScripts',
  'enableTelemetry',
  'enableTimers',
  'nmHoistingLimits',
  'nmMode',
  'nodeLinker',
  'pnpMode',
  'preferInteractive',
  'preferReuse',
  'progressBarStyle',
  'tsEnableAutoTypes',
]);

/** Classic `.yarnrc` settings of the same kind. */
const YARNRC_KEYS = new Set([
  'disable-self-update-check',
  'save-prefix',
  'save-exact',
  '--install.frozen-lockfile',
  '--install.pure-lockfile',
  '--install.ignore-engines',
  '--add.exact',
  'ignore-engines',
  'lastUpdateCheck',
]);

/** A yarn release from the registry, as `packageManager` names one. */
const YARN_RELEASE = /^yarn@\d+\.\d+\.\d+(?:-[\w.]+)?(?:\+[\w.-]+)?$/;

/**
 * yarn runs and sends what the project's configuration says: berry loads `.yarnrc.yml`'s `yarnPath` (a yarn of
 * the project's) and `plugins` for every command, classic `.yarnrc`'s `yarn-path`; both send the registry's
 * credentials to the registry `.yarnrc.yml`, `.yarnrc` or `.npmrc` names, and corepack fetches the release
 * package.json's `packageManager` names. Berry runs the project's script named like a classic read command
 * (`yarn list`). A read stays read-only only where every such file in the working folder or above (the user's
 * own in the home folder aside) sets nothing but harmless keys, and no package.json there has a script of the
 * command's name. Undefined when none does.
 */
export function yarnSettings({ cmd, cwds, ctx }: ProjectPlace): string | undefined {
  const command = yarnCommand(cmd.argv);
  if (command === undefined) return undefined;
  if (!cwds) return 'a .yarnrc.yml in a folder only known at run time may name code yarn runs';
  const first = command.split(' ')[0]!;
  for (const at of foldersUp(cwds)) {
    if (at === ctx.home) continue;
    const problem = yarnFolderProblem(at, YARN_SCRIPT_NAMES.has(first) ? first : undefined);
    if (problem) return problem;
  }
  return undefined;
}

function yarnFolderProblem(folder: string, script: string | undefined): string | undefined {
  const yml = join(folder, '.yarnrc.yml');
  const text = readBounded(yml);
  if (text instanceof Error) return `${yml} cannot be read`;
  for (const line of text?.split(/\r?\n/) ?? []) {
    if (line.trim() === '' || line.trimStart().startsWith('#') || line === '---' || /^\s/.test(line))
      continue;
    const key = /^["']?([A-Za-z][\w-]*)["']?\s*:/.exec(line)?.[1];
    if (!key || !YARNRC_YML_KEYS.has(key))
      return `${yml} sets ${key ?? line.slice(0, 60)}: yarn may run or send what it says`;
  }
  const rc = join(folder, '.yarnrc');
  const classic = readBounded(rc);
  if (classic instanceof Error) return `${rc} cannot be read`;
  for (const raw of classic?.split(/\r?\n/) ?? []) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const key = /^"?([^\s"]+)"?/.exec(line)?.[1];
    if (!key || !YARNRC_KEYS.has(key))
      return `${rc} sets ${key ?? line.slice(0, 60)}: yarn may run or send what it says`;
  }
  const npmrc = join(folder, '.npmrc');
  const key = unsafeKey(npmrc);
  if (key) return `${npmrc} sets ${key}: yarn may send the registry's credentials elsewhere`;
  const manifest = join(folder, 'package.json');
  const fields = readManifest(manifest);
  if (typeof fields !== 'object') return fields;
  const manager = fields.packageManager;
  if (manager !== undefined && !(typeof manager === 'string' && YARN_RELEASE.test(manager)))
    return `${manifest} names the package manager ${String(manager).slice(0, 60)}: yarn may fetch and run it`;
  const scripts = fields.scripts;
  if (script && typeof scripts === 'object' && scripts !== null && Object.hasOwn(scripts, script))
    return `${manifest} has a script ${script}, which yarn 2 and later run for yarn ${script}`;
  return undefined;
}
