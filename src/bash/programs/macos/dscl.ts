import type { Word } from '../../types.js';
import { NONE, UNKNOWN } from '../effect-helpers.js';
import type { ProgramModule } from '../module.js';
import { grammar, type Parsed } from '../options.js';
import { type ProgramSpec, readOnly } from '../program.js';
import { checkProgram } from '../read-only.js';

/**
 * dscl(1), the Directory Service command line: `dscl [options] DATASOURCE COMMAND ARGS`. The commands that
 * read records (`read`, `readall`, `readpl`, `readpli`, `list`, `search`, `diff`, each also spelt with a leading
 * `-`) on this machine's own nodes (`.`, `localhost`, `/Local/Default`, `/Search`, `/Contact`) print; `create`,
 * `append`, `merge`, `change`, `delete`, `passwd` and `auth` change them, and without a command dscl reads
 * commands from stdin. `-u`/`-P` log in (a password on the command line), `-p` prompts for one, `-f` opens
 * another directory file: none is read-only. Naming a password or key attribute (`ShadowHashData`,
 * `KerberosKeys`) asks: root gets the hashes.
 */
const DSCL = grammar({ words: '-plist -raw -url -q -p -u= -P= -f=', abbreviate: false });

const LOCAL_NODES = new Set(['.', 'localhost', '/Local/Default', '/Search', '/Contact']);

const READS = new Set(
  'read readall readpl readpli list search diff'.split(' ').flatMap((name) => [name, `-${name}`]),
);

const SECRET_ATTRIBUTE = /shadowhash|passw|kerberoskeys|heimdalsrpkey|privatekey/i;

function readsLocalRecords(parsed: Parsed, words: readonly Word[]): string | undefined {
  const [node, command, ...rest] = parsed.operands.map((at) => words[at]!);
  if (!node || !command) return 'dscl without a command reads commands from stdin';
  if (!node.static || !LOCAL_NODES.has(node.value))
    return `dscl ${node.text} may be another machine's directory`;
  if (!command.static || !READS.has(command.value)) return `dscl ${command.text} is not a read-only command`;
  for (const word of rest) {
    if (!word.static) return `dscl ${word.text} is only known at run time`;
    if (SECRET_ATTRIBUTE.test(word.value)) return `dscl ${word.text} names a password or key attribute`;
  }
  return undefined;
}

const spec: ProgramSpec = {
  name: 'dscl',
  grammar: DSCL,
  permute: false,
  readOnly: readOnly('-plist -raw -url -q', 'inert', {
    check: readsLocalRecords,
    why: {
      '-p': 'prompts for a password',
      '-u': 'logs in as another user',
      '-P': 'logs in with a password',
      '-f': 'opens another directory file',
    },
  }),
};

/** dscl: reading this machine's user and group records. */
export const DSCL_MODULE: ProgramModule = {
  names: ['dscl'],
  spec,
  effects: (cmd) => (checkProgram(spec, cmd.argv, false).readOnly ? NONE : UNKNOWN),
  network: () => false,
  oracle: { cases: ['dscl . -list /Users', 'dscl . -create /Users/x'] },
};
