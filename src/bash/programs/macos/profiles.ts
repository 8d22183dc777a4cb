import type { ProgramModule } from '../module.js';
import type { ProgramSpec } from '../program.js';
import { BARE, level, levelEffects, VERB_FIRST } from './levels.js';

/**
 * profiles(1), macOS's configuration-profile tool: `list` and `status` report which profiles are installed
 * and how the machine is enrolled, `help` and `version` print. Not `show` (it prints the profiles' payloads,
 * which can carry Wi-Fi and VPN passwords, and `-type enrollment` fetches the enrollment record from Apple),
 * `validate` (checks enrollment with Apple's servers), `renew`, `install`, `remove` and `sync`, which
 * change profiles; nor `-output`, which writes a file.
 */
const spec: ProgramSpec = {
  name: 'profiles',
  grammar: VERB_FIRST,
  subcommands: {
    help: BARE,
    version: BARE,
    status: level({ words: '-type=', operands: 'none' }),
    list: level({
      words: '-type= -user= -verbose -all -output=',
      allow: '-type -user -verbose -all',
      operands: 'none',
      why: { '-output': 'writes the list to a file' },
    }),
  },
};

/** profiles: listing installed configuration profiles and the enrollment status. */
export const PROFILES_MODULE: ProgramModule = {
  names: ['profiles'],
  spec,
  effects: levelEffects(spec),
  network: () => false,
  oracle: { cases: ['profiles list', 'profiles status -type enrollment'] },
};
