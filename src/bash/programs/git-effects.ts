import type { CommandView, EffectsResult, FileAccess, FileEffect, Word } from '../types.js';
import { argument, option } from './effect-helpers.js';
import { GIT_SPEC, gitLevel } from './git/spec.js';
import { has, lastValue, operandWords, type Parsed, parseOptions } from './options.js';
import { parseCommand } from './program.js';
import { is, runtimeWord, syntheticWord } from './words.js';

/** How git SUB reads files through its options; its grammar is the one git's spec gives SUB. */
interface FileOptions {
  /** Options whose value names a file, and what git does with it. */
  files: Record<string, FileAccess>;
  /** What git does with the operands, when they are files. */
  operands?: FileAccess;
}

const GIT_FILE_OPTIONS: Record<string, FileOptions> = {
  commit: {
    files: { F: 'read', t: 'read', '--pathspec-from-file': 'read' },
    operands: 'read',
  },
  tag: {
    files: { F: 'read' },
  },
  merge: {
    files: { F: 'read' },
  },
  apply: {
    files: { '--build-fake-ancestor': 'write' },
    operands: 'read',
  },
  am: {
    files: {},
    operands: 'read',
  },
  archive: {
    files: { o: 'write', '--add-file': 'read' },
  },
  notes: {
    files: { F: 'read' },
  },
  'hash-object': {
    files: {},
    operands: 'read',
  },
  'format-patch': {
    files: { o: 'write' },
  },
};

/** git SUB with options that name files: those files, relative to the working folder git runs in. */
export function gitFileOptions(cmd: CommandView, sub: string): EffectsResult | undefined {
  const spec = Object.hasOwn(GIT_FILE_OPTIONS, sub) ? GIT_FILE_OPTIONS[sub] : undefined;
  if (!spec) return undefined;
  const command = parseCommand(GIT_SPEC, cmd.argv, { unknown: 'flag', dynamic: 'operand' });
  if (!command.ok) return { effects: [], known: false };
  const parsed = command.levels[command.levels.length - 1]!.parsed;
  const effects: FileEffect[] = [];
  for (const found of parsed.options) {
    const access = spec.files[found.name];
    if (access && found.value && !is(found.value, '-')) effects.push(option(access, found.value));
  }
  if (spec.operands) {
    for (const word of operandWords(cmd.argv, parsed)) effects.push(argument(spec.operands, word));
  }
  // These subcommands also write the repository, and the files a patch or merge names.
  return { effects, known: false };
}

const CONFIG_READS = [
  '--get',
  '--get-all',
  '--get-regexp',
  '--get-urlmatch',
  'l',
  '--get-color',
  '--get-colorbool',
];
const CONFIG_WRITES = [
  '--replace-all',
  '--add',
  '--unset',
  '--unset-all',
  '--rename-section',
  '--remove-section',
  'e',
];
const CONFIG_READ_VERBS = ['get', 'list'];
const CONFIG_WRITE_VERBS = ['set', 'unset', 'rename-section', 'remove-section', 'edit'];

/**
 * git config: the forms that set, unset, rename or edit write the configuration file of the scope they name
 * (`.git/config` by default, `~/.gitconfig` with --global); `--file F` names the file, read or written.
 */
export function gitConfigEffects(cmd: CommandView, subIndex: number, elsewhere: boolean): EffectsResult {
  const level = gitLevel('config');
  if (!level) return { effects: [], known: false };
  const parsed = parseOptions(cmd.argv, subIndex + 1, level.grammar, {
    permute: true,
    unknown: 'flag',
    dynamic: 'operand',
  });
  if (!parsed.ok) return { effects: [], known: false };
  const operands = operandWords(cmd.argv, parsed);
  const verb = operands[0]?.static ? operands[0].value : undefined;
  const writes = configWrites(parsed, operands, verb);
  const known = parsed.unknown.length === 0 && parsed.suspects.length === 0 && writes !== undefined;
  const file = configFile(parsed, cmd.argv[subIndex]!, elsewhere);
  if (!file) return { effects: [], known };
  // git reads its own configuration files on every run; a file named with --file is read on purpose.
  const effects = has(parsed, 'f') ? [option('read', file)] : [];
  if (writes !== false) effects.push(option('write', file));
  return { effects, known };
}

/** Whether the command writes; undefined when that cannot be told. */
function configWrites(parsed: Parsed, operands: Word[], verb: string | undefined): boolean | undefined {
  if (has(parsed, ...CONFIG_WRITES)) return true;
  if (has(parsed, ...CONFIG_READS)) return false;
  if (verb && CONFIG_WRITE_VERBS.includes(verb)) return true;
  if (verb && CONFIG_READ_VERBS.includes(verb)) return false;
  if (operands.some((word) => !word.static)) return undefined;
  return operands.length >= 2;
}

/** The configuration file of the scope the options name; undefined for a blob (it is never written). */
function configFile(parsed: Parsed, at: Word, elsewhere: boolean): Word | undefined {
  const file = lastValue(parsed, 'f');
  if (file) return file;
  if (has(parsed, '--blob')) return undefined;
  if (has(parsed, '--global')) return syntheticWord('~/.gitconfig', at.span);
  if (has(parsed, '--system')) return syntheticWord('/etc/gitconfig', at.span);
  if (elsewhere) return runtimeWord('the repository configuration', at.span);
  return syntheticWord(has(parsed, '--worktree') ? '.git/config.worktree' : '.git/config', at.span);
}
