import { NONE } from './effect-helpers.js';
import type { ProgramModule } from './module.js';
import { grammar } from './options.js';
import { everyOptionBut, type ProgramSpec, readOnly } from './program.js';

/** systemd's journalctl, as `journalctl --help` lists it (systemd 252); its operands are field matches. */
const JOURNALCTL = grammar({
  flags: 'mkrxaqfeNh',
  values: 'MDSUcutpgoF',
  optional: 'bn',
  long:
    'system user machine=/M merge/m directory=/D file= root= image= namespace= since=/S until=/U cursor=/c ' +
    'after-cursor= cursor-file= boot?/b unit=/u user-unit= identifier=/t priority=/p facility= grep=/g ' +
    'case-sensitive? dmesg/k output=/o output-fields= lines?/n reverse/r show-cursor utc catalog/x ' +
    'no-hostname no-full all/a follow/f no-tail quiet/q no-pager pager-end/e interval= verify-key= force ' +
    'help/h version fields/N field=/F list-boots disk-usage vacuum-size= vacuum-files= vacuum-time= verify ' +
    'sync relinquish-var smart-relinquish-var flush rotate header list-catalog dump-catalog update-catalog ' +
    'setup-keys',
});

/** What changes the journal or its catalog, writes a cursor file, or reads journals no rule names. */
const UNSAFE =
  '--vacuum-size --vacuum-files --vacuum-time --sync --relinquish-var --smart-relinquish-var --flush --rotate ' +
  '--update-catalog --setup-keys --force --interval --verify-key --cursor-file D --file --root --image M';

const spec: ProgramSpec = {
  name: 'journalctl',
  grammar: JOURNALCTL,
  readOnly: readOnly(() => everyOptionBut(JOURNALCTL, UNSAFE), 'inert', {
    why: {
      '--cursor-file': 'writes the cursor file',
      D: 'reads journals from a folder no rule names',
      '--file': 'reads a journal file no rule names',
      '--root': 'reads journals below a folder no rule names',
      '--image': 'reads journals from an image no rule names',
      '--setup-keys': 'writes sealing keys',
      '--update-catalog': 'writes the message catalog',
    },
  }),
};

/** journalctl prints the system's and the user's journal. */
export const JOURNALCTL_MODULE: ProgramModule = {
  names: ['journalctl'],
  spec,
  effects: () => NONE,
  oracle: {
    cases: ['journalctl -n 5 --no-pager', 'journalctl -u ssh -n 5 --no-pager', 'journalctl --disk-usage'],
  },
};
