import type { CommandView, EffectsResult, FileEffect } from '../types.js';
import { argument, type EffectHandler, NONE, option, UNKNOWN } from './effect-helpers.js';
import { type Parsed, parseOptions } from './options.js';
import { is, leadingText, sliceWord, splitsFreely } from './words.js';
import { wrapperSyntax } from './wrappers.js';

/** dd if=FILE of=FILE: operands are `name=value`. */
const dd: EffectHandler = (cmd) => {
  const effects: FileEffect[] = [];
  let known = true;
  for (const word of cmd.argv.slice(1)) {
    const lead = leadingText(word);
    if (is(word, '--help', '--version')) return NONE;
    if (!lead.includes('=') || splitsFreely(word)) {
      known = false;
      continue;
    }
    if (lead.startsWith('if=')) effects.push(argument('read', sliceWord(word, 3)));
    if (lead.startsWith('of=')) effects.push(argument('write', sliceWord(word, 3)));
  }
  return { effects, known };
};

/** The files wrappers themselves name: time -o, xargs -a, flock FILE, script FILE, strace -o. */
function ownFiles(
  program: string,
  files: Record<string, 'read' | 'write'>,
  extra?: (parsed: Parsed, cmd: CommandView) => EffectsResult,
): EffectHandler {
  const { grammar: g, permute } = wrapperSyntax(program);
  return (cmd) => {
    const parsed = parseOptions(cmd.argv, 1, g, { unknown: 'flag', dynamic: 'operand', permute });
    if (!parsed.ok) return UNKNOWN;
    const effects = parsed.options.flatMap((found) => {
      const access = files[found.name];
      return access && found.value ? [option(access, found.value)] : [];
    });
    const more = extra?.(parsed, cmd) ?? NONE;
    return { effects: [...effects, ...more.effects], known: parsed.unknown.length === 0 && more.known };
  };
}

export const TOOL_EFFECTS: Record<string, EffectHandler> = {
  dd,
  time: ownFiles('time', { o: 'write' }),
  xargs: ownFiles('xargs', { a: 'read' }),
  strace: ownFiles('strace', { o: 'write' }),
  flock: ownFiles('flock', {}, (parsed, cmd) => {
    const lock = cmd.argv[parsed.rest];
    return { effects: lock && !/^\d+$/.test(lock.value) ? [argument('create', lock)] : [], known: true };
  }),
  script: ownFiles('script', { B: 'write', I: 'write', O: 'write', T: 'write' }, (parsed, cmd) => {
    const file = parsed.operands[0] === undefined ? undefined : cmd.argv[parsed.operands[0]];
    if (!file) return UNKNOWN;
    // A session recorded into /dev/null is discarded (`script -q /dev/null CMD`).
    return { effects: is(file, '/dev/null') ? [] : [argument('write', file)], known: true };
  }),
};
