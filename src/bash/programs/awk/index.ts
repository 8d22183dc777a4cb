import type { ProgramModule } from '../module.js';
import { awkEffects } from './effects.js';
import { awkNested } from './nested.js';
import { AWK_SPEC } from './spec.js';

export const AWK_MODULE: ProgramModule = {
  names: ['awk', 'gawk', 'mawk', 'nawk'],
  spec: AWK_SPEC,
  effects: awkEffects,
  nested: awkNested,
  oracle: {
    cases: [
      `echo 'BEGIN{system("touch P")}' | awk -f -`,
      `awk -f /dev/stdin <<< 'BEGIN{system("touch P")}'`,
      `gawk -f /proc/self/fd/0 <<< 'BEGIN{system("touch P")}'`,
      `awk --file=- <<< 'BEGIN{system("touch P")}'`,
      `awk --fil=/dev/fd/0 <<< 'BEGIN{system("touch P")}'`,
      `mawk -W exec /dev/stdin <<< 'BEGIN{system("touch P")}'`,
      `mawk -We /dev/stdin <<< 'BEGIN{system("touch P")}'`,
      `gawk -Wexec=/dev/stdin <<< 'BEGIN{system("touch P")}'`,
      `gawk -E /dev/stdin <<< 'BEGIN{system("touch P")}'`,
      `gawk -i /dev/stdin 'BEGIN{}' <<< 'BEGIN{system("touch P")}'`,
      `gawk -f prog.awk -e 'BEGIN{}'`,
      `gawk -e 'BEGIN{system("touch P")}'`,
      `gawk --so='BEGIN{system("touch P")}'`,
      `awk -- 'BEGIN{system("touch P")}'`,
      `awk 'BEGIN{print "x" > "out.txt"}'`,
      `awk 'BEGIN{print "x" >> "out.txt"}'`,
      `awk 'BEGIN{printf "x" | "sh"}'`,
      `awk 'BEGIN{"touch P" | getline}'`,
      `awk 'BEGIN{while ((getline l < ".env") > 0) print l}'`,
      `awk 'BEGIN{print ENVIRON["HOME"]}'`,
      `awk 'BEGIN{ARGV[1]=".env"; ARGC=2} {print}'`,
      `awk -v ARGC=2 '{print}' x .env`,
      `gawk -i inplace '{print}' f`,
      `gawk '@include "x.awk"; BEGIN{}'`,
      `gawk -d '{print}' f`,
    ],
    operands: ['-', '/dev/stdin', 'x=1', 'ARGV=x', 'inplace'],
  },
};
