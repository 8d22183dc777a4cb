import type { ProgramModule } from '../module.js';
import { gitEffects } from './effects.js';
import { gitNested } from './nested.js';
import { GIT_SPEC } from './spec.js';

/** git: its command grammar and read-only commands, the files it reads and writes, and what it runs. */
export const GIT_MODULE: ProgramModule = {
  names: ['git'],
  spec: GIT_SPEC,
  effects: gitEffects,
  nested: gitNested,
  oracle: {
    cases: [],
    operands: [],
  },
};
