import type { Word } from '../../types.js';
import { type Grammar, grammar, lastValue, type Parsed } from '../options.js';
import {
  everyOptionBut,
  type ProgramSpec,
  type ReadOnlySpec,
  readOnly,
  type SubcommandSpec,
} from '../program.js';
import { GCLOUD_COMMANDS } from './commands.js';

/**
 * gcloud's global flags (`gcloud topic flags`, the SDK's command tree), which it reads before, between and after
 * the command's words: `gcloud --project p compute instances list` as `gcloud compute instances list --project p`.
 */
const GLOBAL =
  'access-token-file= account= billing-project= configuration= flags-file= flatten= format= help/h ' +
  'impersonate-service-account= log-http project= quiet/q trace-token= user-output-enabled ' +
  'no-user-output-enabled verbosity= version';

/**
 * Global flags that are no read: a token read from a file, another account's credentials, a file of more flags,
 * and every request and response (with its authorisation) printed.
 */
const NOT_READ = '--access-token-file --impersonate-service-account --flags-file --log-http';

/** `--verbosity=debug` logs what gcloud does with its credentials; the other levels print less. */
const VERBOSITY = new Set(['critical', 'error', 'warning', 'info', 'none']);

function gcloudGrammar(own: string): Grammar {
  return grammar({ flags: 'hq', long: `${own} ${GLOBAL}`, abbreviate: false });
}

/** A word only known at run time, or a verbosity that logs the credentials' use. */
function unknownWordOrDebug(parsed: Parsed, words: readonly Word[]): string | undefined {
  for (const word of words.slice(1)) {
    if (!word.static) return `gcloud: ${word.text} is only known at run time`;
  }
  const verbosity = lastValue(parsed, '--verbosity');
  if (verbosity && !VERBOSITY.has(verbosity.value))
    return `gcloud: --verbosity ${verbosity.text} logs requests`;
  return undefined;
}

/**
 * `config get`/`get-value`/`list`: one property or section, not the proxy's (`proxy/password` is printed as set).
 * `config list` with no operand or `--all` prints every property, the proxy's password with them.
 */
function configProperty(parsed: Parsed, words: readonly Word[]): string | undefined {
  if (parsed.options.some((o) => o.name === '--all'))
    return 'gcloud config list --all prints the proxy password';
  if (parsed.operands.length !== 1)
    return 'gcloud config prints every property, the proxy password with them';
  const name = words[parsed.operands[0]!]!.value;
  const match = /^(?:([a-z][\w-]*)\/)?([a-z][\w-]*)$/.exec(name);
  if (!match) return `gcloud config: ${name} is not a property`;
  if (match[1] === 'proxy' || (!match[1] && match[2] === 'proxy'))
    return 'gcloud config: the proxy section holds its password';
  return undefined;
}

/** Commands the SDK's tree leaves out: `config get-value`, the older spelling of `config get`. */
const EXTRA: Readonly<Record<string, string>> = { 'config get-value': '' };

const CONFIG = new Set(['config get', 'config get-value', 'config list']);

function command(path: string, own: string): SubcommandSpec {
  const g = gcloudGrammar(own);
  const config = CONFIG.has(path);
  const check = (parsed: Parsed, words: readonly Word[]) =>
    unknownWordOrDebug(parsed, words) ?? (config ? configProperty(parsed, words) : undefined);
  const serviceRead: ReadOnlySpec = readOnly(() => everyOptionBut(g, NOT_READ), 'inert', { check });
  return { grammar: g, serviceRead };
}

/** A command group: gcloud prints its commands (`gcloud compute`, `gcloud compute -h`) and exits. */
function group(): SubcommandSpec {
  const g = gcloudGrammar('');
  return {
    grammar: g,
    subcommands: {},
    serviceRead: readOnly(() => everyOptionBut(g, NOT_READ), 'none', {
      check: (parsed, words) => unknownWordOrDebug(parsed, words),
    }),
  };
}

function insert(root: Record<string, SubcommandSpec>, words: readonly string[], spec: SubcommandSpec): void {
  let level = root;
  for (const name of words.slice(0, -1)) {
    level[name] ??= group();
    level = level[name].subcommands as Record<string, SubcommandSpec>;
  }
  level[words.at(-1)!] = spec;
}

/**
 * The command tree; `beta` reads as the GA tree, with the flags of the beta commands whose flags differ (a
 * command in only one of them is refused by gcloud itself: `Invalid choice`).
 */
function tree(): Record<string, SubcommandSpec> {
  const root: Record<string, SubcommandSpec> = {};
  for (const [path, own] of Object.entries({ ...GCLOUD_COMMANDS, ...EXTRA })) {
    const words = path.split(' ');
    insert(root, words, command(words[0] === 'beta' ? words.slice(1).join(' ') : path, own));
    if (words[0] !== 'beta' && !(`beta ${path}` in GCLOUD_COMMANDS))
      insert(root, ['beta', ...words], command(path, own));
  }
  return root;
}

let commands: Record<string, SubcommandSpec> | undefined;

const ROOT = gcloudGrammar('');

/**
 * Google Cloud CLI (gcloud): its global flags anywhere, command groups as levels, and the commands that only
 * read the user's own project as service reads (`serviceRead`, on where the settings name gcloud in
 * `automode.readServices`). No command is a local read: every run writes gcloud's own logs and state.
 */
export const GCLOUD_SPEC: ProgramSpec = {
  name: 'gcloud',
  grammar: ROOT,
  globalOptionsAnywhere: true,
  serviceRead: readOnly(() => everyOptionBut(ROOT, NOT_READ), 'none', {
    check: (parsed, words) => unknownWordOrDebug(parsed, words),
  }),
  get subcommands() {
    commands ??= tree();
    return commands;
  },
};
