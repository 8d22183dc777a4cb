import { NONE } from './effect-helpers.js';
import type { ProgramModule } from './module.js';
import { grammar } from './options.js';
import { everyOptionBut, type ProgramSpec, readOnly } from './program.js';

/** util-linux dmesg, as `dmesg --help` lists it. */
const DMESG = grammar({
  flags: 'CcDEHJkPprSuwWxdeTthV',
  values: 'Fflns',
  optional: 'L',
  long:
    'clear/C read-clear/c console-off/D console-on/E file=/F facility=/f human/H json/J kernel/k color?/L ' +
    'level=/l console-level=/n nopager/P force-prefix/p raw/r noescape syslog/S buffer-size=/s userspace/u ' +
    'follow/w follow-new/W decode/x show-delta/d reltime/e ctime/T notime/t time-format= since= until= ' +
    'help/h version/V',
});

const spec: ProgramSpec = {
  name: 'dmesg',
  grammar: DMESG,
  readOnly: readOnly(() => everyOptionBut(DMESG, 'C c D E n F'), 'none', {
    why: {
      C: 'clears the kernel ring buffer',
      c: 'clears the kernel ring buffer',
      D: 'changes what the kernel prints to the console',
      E: 'changes what the kernel prints to the console',
      n: 'changes what the kernel prints to the console',
      F: 'reads a file no rule names',
    },
  }),
};

/** dmesg prints the kernel's message buffer. */
export const DMESG_MODULE: ProgramModule = {
  names: ['dmesg'],
  spec,
  effects: () => NONE,
  oracle: { cases: ['dmesg', 'dmesg -T', 'dmesg --level=err,warn', 'dmesg -H -P'] },
};
