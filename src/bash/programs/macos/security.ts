import type { ProgramModule } from '../module.js';
import { grammar } from '../options.js';
import { type ProgramSpec, readOnly } from '../program.js';
import { BARE, level, levelEffects } from './levels.js';

/**
 * security(1), macOS's keychain and certificate tool: the commands that list keychains, find items by their
 * attributes, show certificates and trust settings, each with the options its usage text (`security help CMD`)
 * gives. Never what prints a secret: `find-generic-password`/`find-internet-password` `-g` and `-w` print the
 * password, `dump-keychain -d` the decrypted data and `-r` the raw data of every item (`-i` edits access
 * lists). Every command that adds, deletes, imports, exports, unlocks, sets, authorizes or runs a tool
 * (`execute-with-privileges`) is asked; so are `verify-cert` (it fetches certificates and revocation answers
 * from the network, and connects to a URL it is given) and the global `-i`/`-p` (commands read from stdin)
 * and `-l` (runs leaks at exit). Keychains are named as files: a keychain outside the working folder is a read
 * decided by its path.
 */
const PREFERENCE_DOMAIN = 'd';

const FIND_ITEM = { g: 'prints the password', w: 'prints the password' };

const spec: ProgramSpec = {
  name: 'security',
  grammar: grammar({ flags: 'qv', abbreviate: false }),
  permute: false,
  subcommands: {
    help: level({ operands: 'inert', max: 1 }),
    'list-keychains': level({
      values: `${PREFERENCE_DOMAIN}s`,
      allow: PREFERENCE_DOMAIN,
      operands: 'none',
      why: { s: 'sets the keychain search list' },
    }),
    'default-keychain': level({
      values: PREFERENCE_DOMAIN,
      flags: 's',
      allow: PREFERENCE_DOMAIN,
      operands: 'none',
      why: { s: 'sets the default keychain' },
    }),
    'login-keychain': level({
      values: PREFERENCE_DOMAIN,
      flags: 's',
      allow: PREFERENCE_DOMAIN,
      operands: 'none',
      why: { s: 'sets the login keychain' },
    }),
    'show-keychain-info': level({ operands: 'files', max: 1 }),
    'dump-keychain': level({
      flags: 'adir',
      allow: 'a',
      operands: 'files',
      why: {
        d: "prints every item's decrypted data, passwords included",
        r: "prints every item's raw data",
        i: 'edits access control lists',
      },
    }),
    'find-generic-password': level({
      flags: 'gw',
      values: 'acCDGjls',
      allow: 'a c C D G j l s',
      operands: 'files',
      why: FIND_ITEM,
    }),
    'find-internet-password': level({
      flags: 'gw',
      values: 'acCdDjlpPrst',
      allow: 'a c C d D j l p P r s t',
      operands: 'files',
      why: FIND_ITEM,
    }),
    'find-key': level({ flags: 'dersuvw', values: 'acDjlt', operands: 'files' }),
    'find-certificate': level({ flags: 'ampZ', values: 'ce', operands: 'files' }),
    'find-identity': level({ flags: 'v', values: 'ps', operands: 'files' }),
    'get-identity-preference': level({ flags: 'pcZ', values: 'su', operands: 'files' }),
    'dump-trust-settings': level({ flags: 'sd', operands: 'none' }),
    'list-smartcards': BARE,
    leaks: BARE,
    error: level({ operands: 'inert' }),
    'translocate-policy-check': level({ operands: 'files', max: 1 }),
    'translocate-status-check': level({ operands: 'files', max: 1 }),
    'translocate-original-path': level({ operands: 'files', max: 1 }),
    // The requirement's text, then the certificates it is checked against (read as files, as is its text).
    'requirement-evaluate': level({ operands: 'files' }),
  },
  // Its own options are read-only before any command; without a command it reads commands from stdin.
  readOnly: readOnly('q v', 'none', { check: () => 'security without a command' }),
};

/** security: finding and showing keychain items, certificates and trust settings, never their secrets. */
export const SECURITY_MODULE: ProgramModule = {
  names: ['security'],
  spec,
  effects: levelEffects(spec),
  network: () => false,
  oracle: {
    cases: [
      'security find-generic-password -s example',
      'security find-generic-password -s example -w',
      'security dump-keychain',
      'security find-certificate -a -p',
    ],
  },
};
