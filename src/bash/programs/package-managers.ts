/** What npm, pnpm, yarn and pip share: the `config` command that writes a settings file; yarn and pnpm's scripts. */
import type { CommandView, EffectsResult, Word } from '../types.js';
import { option } from './effect-helpers.js';
import { type Grammar, has } from './options.js';
import { dynamicSub, PLAIN, packageRunner, projectScript, subcommand } from './runners.js';
import { argvSpec, codeSpec, type Handler } from './specs.js';
import { joinWords, leadingText, runtimeWord, sliceWord, syntheticWord } from './words.js';

/** A package manager's `config` command: which words set, and where each scope's file lies. */
export interface ConfigCommand {
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

/**
 * `npm config set KEY VALUE` and its kin write the configuration file of the scope they name; npm's
 * `script-shell` and pip's `index-url` there change what later commands run or fetch. Undefined when the
 * command is not a config command.
 */
export function configEffects(spec: ConfigCommand, cmd: CommandView): EffectsResult | undefined {
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

/**
 * yarn's or pnpm's command line: its options, the subcommands that install (and so run lifecycle scripts), its
 * other built-ins.
 */
export interface ScriptCommands {
  grammar: Grammar;
  installs: ReadonlySet<string>;
  builtin: ReadonlySet<string>;
  /** The bare command installs (`yarn`). */
  bareInstalls?: boolean;
}

/** yarn and pnpm: `run X`, or X itself when it is not a built-in command, runs a package.json script. */
export function packageManager(manager: 'yarn' | 'pnpm', table: ScriptCommands): Handler {
  return (cmd) => {
    const found = subcommand(cmd, table.grammar);
    if (found.failure) return [found.failure];
    const { parsed, sub, operands } = found;
    if (has(parsed, 'h', 'v')) return [];
    if (!sub) {
      return table.bareInstalls ? [codeSpec('script-file', manager, `${manager} install`, cmd.argv[0]!)] : [];
    }
    const dynamic = dynamicSub(cmd, sub);
    if (dynamic) return dynamic;
    const name = sub.word.value;
    const rest = cmd.argv.slice(sub.index + 1);
    if (name === 'exec') return rest.length ? [argvSpec(rest, `${manager} exec`)] : [];
    if (name === 'node') return [argvSpec(cmd.argv.slice(sub.index), `${manager} node`)];
    if (name === 'dlx') return packageRunner(`${manager} dlx`, PLAIN, sub.index + 1)(cmd);
    if (name === 'run' || name === 'run-script') {
      return operands[1] ? [projectScript(cmd, `${manager} run`, operands[1], sub.word)] : [];
    }
    // `yarn workspaces list` (yarn 2+) and `yarn workspaces info` (yarn 1) only print the workspaces.
    const lists = name === 'workspaces' && rest[0]?.static && ['list', 'info'].includes(rest[0].value);
    if ((name === 'workspace' || name === 'workspaces') && !lists) {
      return [codeSpec('script-file', manager, `${manager} ${name}`, joinWords(rest))];
    }
    if (table.installs.has(name)) return [codeSpec('script-file', manager, `${manager} install`, sub.word)];
    if (table.builtin.has(name)) return [];
    return [projectScript(cmd, `${manager} run`, sub, sub.word)];
  };
}
