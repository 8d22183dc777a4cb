import type { CommandView, EffectsResult, Word } from '../types.js';
import { option } from './effect-helpers.js';
import { leadingText, runtimeWord, sliceWord, syntheticWord } from './words.js';

/** A package manager's `config` command: which words set, and where each scope's file lies. */
interface ConfigCommand {
  /** Subcommands that are `config` (`npm c`), and those that are `config set` (`npm set`). */
  config: string[];
  set: string[];
  /** Verbs of `config` that write its file. */
  writes: string[];
  /** Verbs that only read. */
  reads: string[];
  /** The file a scope writes; `undefined` for one only known at run time. */
  files: (scope: string | undefined) => Array<string | undefined>;
  /** Options whose value is the scope (`--location project`), and flags that are scopes (`--global`). */
  scopeOptions: string[];
  scopeFlags: Record<string, string>;
  /** Options whose value names the configuration file itself. */
  fileOptions: string[];
}

const NPM: ConfigCommand = {
  config: ['config', 'c'],
  set: ['set'],
  writes: ['set', 'delete', 'rm', 'edit', 'fix'],
  reads: ['get', 'list', 'ls'],
  files: (scope) => (scope === 'project' ? ['.npmrc'] : scope === 'global' ? [undefined] : ['~/.npmrc']),
  scopeOptions: ['--location', '-L'],
  scopeFlags: { '--global': 'global', '-g': 'global' },
  fileOptions: ['--userconfig', '--globalconfig'],
};

const PNPM: ConfigCommand = {
  ...NPM,
  config: ['config', 'c'],
  set: [],
  files: (scope) => (scope === 'project' ? ['.npmrc'] : ['~/.config/pnpm/rc', '~/.npmrc']),
};

const YARN: ConfigCommand = {
  config: ['config'],
  set: [],
  writes: ['set', 'delete', 'unset'],
  reads: ['get', 'list'],
  files: (scope) => (scope === 'home' ? ['~/.yarnrc.yml', '~/.yarnrc'] : ['.yarnrc.yml', '~/.yarnrc']),
  scopeOptions: [],
  scopeFlags: { '--home': 'home', '-H': 'home', '--global': 'home', '-g': 'home' },
  fileOptions: [],
};

const PIP: ConfigCommand = {
  config: ['config'],
  set: [],
  writes: ['set', 'unset', 'edit'],
  reads: ['get', 'list', 'debug'],
  files: (scope) =>
    scope === 'global'
      ? ['/etc/pip.conf', '/etc/xdg/pip/pip.conf']
      : scope === 'site'
        ? [undefined]
        : ['~/.config/pip/pip.conf', '~/.pip/pip.conf'],
  scopeOptions: [],
  scopeFlags: { '--global': 'global', '--site': 'site', '--user': 'user' },
  fileOptions: [],
};

/**
 * `npm config set KEY VALUE` and its kin write the configuration file of the scope they name; npm's
 * `script-shell` and pip's `index-url` there change what later commands run or fetch. Undefined when the
 * command is not a config command.
 */
function configEffects(spec: ConfigCommand, cmd: CommandView): EffectsResult | undefined {
  const words = cmd.argv;
  let scope: string | undefined;
  let file: Word | undefined;
  let known = true;
  const operands: Word[] = [];
  for (let i = 1; i < words.length; i++) {
    const word = words[i]!;
    const lead = leadingText(word);
    if (!lead.startsWith('-')) {
      if (!word.static) known = false;
      operands.push(word);
      continue;
    }
    if (!word.static) known = false;
    const eq = lead.indexOf('=');
    const name = eq < 0 ? lead : lead.slice(0, eq);
    const flag = spec.scopeFlags[name];
    if (flag) scope = flag;
    if (spec.scopeOptions.includes(name) || spec.fileOptions.includes(name)) {
      const value = eq < 0 ? words[++i] : sliceWord(word, eq + 1);
      if (!value) continue;
      if (spec.fileOptions.includes(name)) file = value;
      else if (value.static) scope = value.value;
      else known = false;
    }
  }
  const [first, verb] = operands;
  if (!first?.static) return undefined;
  const sets = spec.set.includes(first.value);
  if (!sets && !spec.config.includes(first.value)) return undefined;
  const writes = sets || (verb?.static === true && spec.writes.includes(verb.value));
  const reads = !sets && verb?.static === true && spec.reads.includes(verb.value);
  if (!writes && !reads) return { effects: [], known: false };
  const at = first.span;
  const files = file
    ? [file]
    : spec
        .files(scope)
        .map((path) => (path ? syntheticWord(path, at) : runtimeWord(`the ${scope} configuration`, at)));
  if (!writes) return { effects: file ? [option('read', file)] : [], known };
  return { effects: files.map((path) => option('write', path)), known };
}

export const CONFIG_EFFECTS: Record<string, (cmd: CommandView) => EffectsResult | undefined> = {
  npm: (cmd) => configEffects(NPM, cmd),
  pnpm: (cmd) => configEffects(PNPM, cmd),
  yarn: (cmd) => configEffects(YARN, cmd),
  pip: (cmd) => configEffects(PIP, cmd),
  pip3: (cmd) => configEffects(PIP, cmd),
};
