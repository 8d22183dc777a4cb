import type { FileEffect } from '../../types.js';
import { programFileRead } from '../code-files.js';
import { argument, type EffectHandler, each, option, reads, UNKNOWN } from '../effect-helpers.js';
import { optionsNamed, parseOptions } from '../options.js';
import { syntheticWord } from '../words.js';
import { parseSed } from './script.js';
import { SED, sedScripts } from './spec.js';

/** Names sed opens as its own standard streams rather than as files. */
const STANDARD_STREAMS = ['/dev/stdout', '/dev/stderr', '/dev/null'];

/**
 * sed reads its file operands, or writes them with -i. The files its script names (`w`, `W`, `s///w`, `r`, `R`)
 * are opened by the script, not named as operands: they are declared as an option's files are, so that no rule
 * allowing `sed *` vouches for them. A script sed reads from a file (-f) may do anything a script does.
 */
export const sedEffects: EffectHandler = (cmd) => {
  const parsed = parseOptions(cmd.argv, 1, SED, { permute: true, unknown: 'flag', dynamic: 'operand' });
  if (!parsed.ok) return UNKNOWN;
  const { scripts, bsd, files } = sedScripts(cmd.argv, parsed);
  const programFiles = optionsNamed(parsed, 'f').map((found) => found.value!);
  const effects: FileEffect[] = programFiles.flatMap(programFileRead);
  let known = parsed.unknown.length === 0 && parsed.suspects.length === 0 && programFiles.length === 0;
  for (const group of bsd ? [scripts, [bsd]] : [scripts]) {
    if (group.some((script) => !script.static)) {
      known = false;
      continue;
    }
    if (group.length === 0) continue;
    const at = group[0]!.span;
    const result = parseSed(group.map((script) => script.value).join('\n'));
    if (!result.ok && group[0] !== bsd) known = false;
    if (result.executes.length > 0) known = false;
    for (const path of result.writes) {
      if (!STANDARD_STREAMS.includes(path)) effects.push(option('write', syntheticWord(path, at)));
    }
    for (const path of result.reads) effects.push(option('read', syntheticWord(path, at)));
  }
  const inPlace = optionsNamed(parsed, 'i', 'I').at(-1);
  if (!inPlace) return { effects: [...effects, ...reads(files)], known };
  effects.push(...each('write', files));
  const suffix = inPlace.value;
  if (suffix && !(suffix.static && suffix.value === '')) {
    if (!suffix.static || /[*/]/.test(suffix.value)) known = false;
    else
      effects.push(...files.map((file) => argument('create', { ...file, value: file.value + suffix.value })));
  }
  return { effects, known };
};
