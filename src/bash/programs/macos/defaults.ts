import type { Word } from '../../types.js';
import type { ProgramModule } from '../module.js';
import { grammar, type Parsed } from '../options.js';
import { type ProgramSpec, readOnly } from '../program.js';
import { BARE, level, levelEffects } from './levels.js';

/**
 * defaults(1), the macOS user-defaults (preferences) tool: `read`, `read-type`, `domains`, `find` and `help`
 * print; `write`, `rename`, `delete` and `import` change preferences, `export` writes a file. The global
 * `-currentHost` and `-host NAME` choose the host-specific preferences on this machine. A domain is a name
 * (`com.apple.finder`, `-app Safari`, `-g`/`NSGlobalDomain`); a domain holding a slash or starting with `~` is
 * a path to a property-list file, decided as a read of that file: asked here.
 */
function domainsAreNames(parsed: Parsed, words: readonly Word[]): string | undefined {
  const domain = parsed.operands[0];
  if (domain === undefined) return undefined;
  const word = words[domain]!;
  if (!word.static) return `defaults ${word.text} is only known at run time`;
  return /[/~]/.test(word.value) ? `defaults reads the property-list file ${word.text}` : undefined;
}

const READ = level({ words: '-app= -g -globalDomain', operands: 'inert', max: 2, check: domainsAreNames });

const spec: ProgramSpec = {
  name: 'defaults',
  grammar: grammar({ words: '-currentHost -host=', abbreviate: false }),
  permute: false,
  readOnly: readOnly('-currentHost -host', 'none', { check: () => 'defaults without a command' }),
  subcommands: {
    read: READ,
    'read-type': READ,
    domains: BARE,
    find: level({ operands: 'inert', max: 1 }),
    help: BARE,
  },
};

/** defaults: reading preferences by domain and key. */
export const DEFAULTS_MODULE: ProgramModule = {
  names: ['defaults'],
  spec,
  effects: levelEffects(spec),
  network: () => false,
  oracle: { cases: ['defaults read com.apple.finder', 'defaults write com.example.x key -bool true'] },
};
