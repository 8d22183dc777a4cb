import { closeSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { ansibleInventories, type Word } from '../../bash/index.js';

/** The most of an inventory file read; a longer one is not looked through. */
const MAX_BYTES = 1024 * 1024;
/** The most entries looked at below an inventory folder, and how deep. */
const MAX_ENTRIES = 2000;
const MAX_DEPTH = 8;
/** What ansible's walk of an inventory folder never parses as a source (IGNORED_ALWAYS in inventory/manager.py). */
const SKIPPED = /^(?:\.|host_vars$|group_vars$|vars_plugins$)/;

/**
 * ansible's reads (src/bash/programs/ansible.ts) load only the user's own plugins and settings unless the
 * project says otherwise, in the ways ansible-core finds it:
 * - an `ansible.cfg` in the working folder (read by every program, before the user's `~/.ansible.cfg`) names
 *   plugin, module and inventory folders, the inventory plugins enabled and a vault password script;
 * - an `ANSIBLE_*` variable (ANSIBLE_CONFIG, ANSIBLE_LIBRARY, ANSIBLE_INVENTORY, ...) does the same;
 * - an inventory source that is executable, or starts with `#!`, is a script the `script` plugin runs;
 * - a YAML inventory with a `plugin` key is a plugin configuration the `auto` plugin loads, and a plugin such as
 *   `generator` templates what it says (a `lookup('pipe', ...)` runs). YAML may spell the key with escapes
 *   (`"\x70lugin"`) or in UTF-16, so a `.yml`/`.yaml` file with the word, a backslash or a NUL byte asks.
 * Another command of the line that writes may put any of these in place before it runs. Undefined when none of
 * these applies; otherwise why the command asks.
 */
export function ansibleProject(
  program: string,
  argv: readonly Word[],
  cwds: readonly string[] | undefined,
  home: string,
  changed: boolean,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  const inventories = ansibleInventories(program, argv);
  if (!inventories) return undefined;
  const variable = Object.keys(env).find((name) => name.startsWith('ANSIBLE_'));
  if (variable) return `${variable} is set: ${program} may load plugins or settings it names`;
  if (!cwds) return `an ansible.cfg in a folder only known at run time may name plugins ${program} loads`;
  if (changed) return `another command of the line may write the ansible.cfg or inventory ${program} reads`;
  for (const cwd of cwds) {
    const config = join(cwd, 'ansible.cfg');
    if (exists(config)) return `${config} may name plugins and settings ${program} loads`;
    for (const word of inventories) {
      if (!word.static) return `the inventory ${word.text} is only known at run time`;
      const path = resolveIn(word.value, cwd, home);
      const problem = inventoryProblem(path, word.value.includes(','), 0, { left: MAX_ENTRIES });
      if (problem) return `${problem}: ${program} would run or load it`;
    }
  }
  return undefined;
}

function resolveIn(value: string, cwd: string, home: string): string {
  if (value === '~' || value.startsWith('~/')) return join(home, value.slice(1));
  return isAbsolute(value) ? value : join(cwd, value);
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ENOENT';
  }
}

function inventoryProblem(
  path: string,
  mayBeHostList: boolean,
  depth: number,
  budget: { left: number },
): string | undefined {
  let stat: ReturnType<typeof statSync>;
  try {
    stat = statSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && mayBeHostList) return undefined;
    return `the inventory ${path} cannot be read (what is there when ansible runs is not known)`;
  }
  budget.left -= 1;
  if (budget.left < 0 || depth > MAX_DEPTH) return `the inventory folder ${path} holds too much to check`;
  if (stat.isDirectory()) {
    let names: string[];
    try {
      names = readdirSync(path);
    } catch {
      return `the inventory folder ${path} cannot be read`;
    }
    for (const name of names.sort()) {
      if (SKIPPED.test(name)) continue;
      const problem = inventoryProblem(join(path, name), false, depth + 1, budget);
      if (problem) return problem;
    }
    return undefined;
  }
  if (!stat.isFile()) return `the inventory ${path} is not a file`;
  if ((Number(stat.mode) & 0o111) !== 0) return `the inventory ${path} is executable`;
  const text = readStart(path);
  if (text === undefined) return `the inventory ${path} cannot be read`;
  if (text.startsWith('#!')) return `the inventory ${path} is a script`;
  if (/\.ya?ml$/i.test(path) && (/plugin|\\|\0/i.test(text) || text.length > MAX_BYTES))
    return `the inventory ${path} may be a plugin configuration`;
  return undefined;
}

function readStart(file: string): string | undefined {
  try {
    const fd = openSync(file, 'r');
    try {
      const buffer = Buffer.alloc(MAX_BYTES + 1);
      const read = readSync(fd, buffer, 0, buffer.length, 0);
      return buffer.subarray(0, read).toString('latin1');
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
}
