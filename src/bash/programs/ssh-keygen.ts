import type { FileEffect, Word } from '../types.js';
import { type EffectHandler, option } from './effect-helpers.js';
import type { ProgramModule } from './module.js';
import { leadingText, sliceWord, splitsFreely } from './words.js';

/** ssh-keygen options that take a value; `-y -l -e -B` only print from the key file. */
const KEYGEN_VALUES = 'abCDEfFgIJjKmMNnOPrsSTtVwzZ';
const KEYGEN_PRINTS = 'yleB';

/** ssh-keygen -f FILE: read, and written with FILE.pub unless the command only prints from it. */
const effects: EffectHandler = (cmd) => {
  const words = cmd.argv;
  const out: FileEffect[] = [];
  let file: Word | undefined;
  let prints = false;
  let known = true;
  for (let i = 1; i < words.length; i++) {
    const word = words[i]!;
    const lead = leadingText(word);
    if (!word.static || splitsFreely(word)) known = false;
    if (!lead.startsWith('-')) continue;
    for (let j = 1; j < lead.length; j++) {
      const c = lead[j]!;
      if (KEYGEN_PRINTS.includes(c)) prints = true;
      if (!KEYGEN_VALUES.includes(c)) continue;
      const value = j + 1 < lead.length ? sliceWord(word, j + 1) : words[++i];
      if (c === 'f') file = value;
      else if (c === 's' && value) out.push(option('read', value));
      break;
    }
  }
  if (file) {
    out.push(option('read', file));
    if (!prints) out.push(option('write', file), option('write', { ...file, value: `${file.value}.pub` }));
  } else if (!prints) known = false;
  return { effects: out, known };
};

export const SSH_KEYGEN_MODULE: ProgramModule = {
  names: ['ssh-keygen'],
  effects,
  oracle: {
    cases: [
      'ssh-keygen -y -f docs/key',
      'ssh-keygen -l -f docs/key',
      'ssh-keygen -t ed25519 -N "" -q -f k',
      'ssh-keygen -fk -t ed25519 -N ""',
      'ssh-keygen -s docs/key -I id -f k.pub',
      'ssh-keygen -p -N "" -f docs/key',
    ],
    operands: ['docs/key'],
  },
};
