import type { ProgramModule } from '../module.js';
import { sedEffects } from './effects.js';
import { sedNested } from './nested.js';
import { SED_SPEC } from './spec.js';

export const SED_MODULE: ProgramModule = {
  names: ['sed', 'gsed'],
  spec: SED_SPEC,
  effects: sedEffects,
  nested: sedNested,
  oracle: {
    cases: [
      "sed -f - f <<< '1e touch P'",
      "printf '1e touch P\\n' | sed -f /dev/stdin f",
      "sed -f /dev/fd/0 f <<< 'e touch P'",
      "sed -f /proc/self/fd/0 f <<< 'e touch P'",
      "sed --file=- f <<< 'e touch P'",
      "sed --fi=- f <<< 'e touch P'",
      "sed -nf - f <<< 'w out.txt'",
      "sed -f <(echo 'w out.txt') f",
      "sed -n 'w out.txt' README.md",
      "sed -n 'W out.txt' README.md",
      "sed 's/a/b/w out.txt' f",
      "sed 's/a/b/gw out.txt' f",
      "sed 's|a|b|pw out.txt' f",
      "sed -n '/x/,$w out.txt' f",
      "sed '1r .env' f",
      "sed '1R .env' f",
      "sed '1e touch P' f",
      "sed -e p -e '1e touch P' f",
      "sed --exp='1e touch P' f",
      "sed 's/.*/touch P/e' f",
      "sed -s -n '$w out.txt' f g",
      "sed -e 'w out.txt' --help",
      "sed -i.bak -e 'w out.txt' f",
    ],
    operands: ['-', '/dev/stdin', '/dev/fd/0', '/proc/self/fd/0', 'out.txt'],
  },
};
