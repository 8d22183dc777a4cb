import type { Word } from '../../types.js';
import { type Grammar, grammar, lastValue, type Parsed } from '../options.js';
import { shortLetters } from '../pflag.js';
import {
  everyOptionBut,
  type ProgramSpec,
  type ReadOnlySpec,
  readOnly,
  type SubcommandSpec,
} from '../program.js';
import { AZ_COMMANDS } from './commands.js';

/**
 * knack's global arguments, which its root parser and every command's parser read (a command group's does not):
 * `az -o table vm list` as `az vm list -o table`. `--debug` is not a read: it logs every request and response.
 */
const GLOBAL = 'debug verbose only-show-errors output=/o query= help/h';

/** Python's argparse as knack builds it: long options are read whole here (a prefix az may take is refused). */
function azGrammar(notation: string): Grammar {
  return grammar({ ...shortLetters(notation), long: notation, abbreviate: false });
}

/**
 * A word az would read a file for (`@path`: az reads the file into the argument's value, and the read would send
 * it to the service), or a word only known at run time (it could be one).
 */
function fileOrUnknownWord(words: readonly Word[]): string | undefined {
  for (const word of words.slice(1)) {
    if (!word.static) return `az: ${word.text} is only known at run time (az reads a file for a value @FILE)`;
    if (/^@|^-[A-Za-z]@|^--[\w-]+=@/.test(word.value)) return `az: ${word.text} makes az read a file`;
  }
  return undefined;
}

/** Azure DevOps's own hosts: the organisation option says where az sends the user's token. */
const DEVOPS_ORGANIZATION = /^https:\/\/(dev\.azure\.com\/[\w.-]+|[\w-]+\.visualstudio\.com)\/?$/;

function devopsOrganization(parsed: Parsed): string | undefined {
  const org = lastValue(parsed, '--org', '--organization');
  if (org && !DEVOPS_ORGANIZATION.test(org.value))
    return `az: --organization ${org.text} is not Azure DevOps`;
  return undefined;
}

/** Commands that read operands of their own: the words searched for, the configuration key. */
const POSITIONAL = new Set(['find', 'config get']);

/**
 * Words az reads as no option's: only the further values of `--ids` (it takes several); az refuses any other
 * (`unrecognized arguments`).
 */
function strayOperand(parsed: Parsed, words: readonly Word[]): string | undefined {
  const taken = new Set<number>();
  for (const option of parsed.options) {
    if (option.name === '--ids' && option.value && option.value.span.start > words[option.index]!.span.end) {
      taken.add(option.index + 1);
    }
  }
  for (const index of parsed.operands) {
    if (!taken.has(index - 1)) return `az: ${words[index]!.text} is not an argument of the command`;
    taken.add(index);
  }
  return undefined;
}

/** `devops configure` reads its defaults only with `--list` (else it writes them). */
function needsList(parsed: Parsed): string | undefined {
  return parsed.options.some((o) => o.name === 'l') ? undefined : 'az devops configure without --list writes';
}

const EXTRA: Readonly<Record<string, string>> = { 'devops configure': 'list/l' };

function command(path: string, own: string): SubcommandSpec {
  const g = azGrammar(`${own} subscription= ${GLOBAL}`);
  const devops = /\b(org|detect)=/.test(own) || path === 'devops configure';
  const check = (parsed: Parsed, words: readonly Word[]) =>
    fileOrUnknownWord(words) ??
    (POSITIONAL.has(path) ? undefined : strayOperand(parsed, words)) ??
    (devops ? devopsOrganization(parsed) : undefined) ??
    (path === 'devops configure' ? needsList(parsed) : undefined);
  const serviceRead: ReadOnlySpec = readOnly(() => everyOptionBut(g, '--debug'), 'inert', { check });
  return { grammar: g, serviceRead };
}

/** A command group: only `-h`; `az vm` alone prints the group's help. */
function group(): SubcommandSpec {
  return {
    grammar: azGrammar('help/h'),
    subcommands: {},
    serviceRead: readOnly('h', 'none'),
  };
}

function tree(): Record<string, SubcommandSpec> {
  const root: Record<string, SubcommandSpec> = {};
  const commands = { ...AZ_COMMANDS, ...EXTRA };
  for (const [path, own] of Object.entries(commands)) {
    const words = path.split(' ');
    let level = root;
    for (const name of words.slice(0, -1)) {
      level[name] ??= group();
      level = level[name].subcommands as Record<string, SubcommandSpec>;
    }
    level[words.at(-1)!] = command(path, own);
  }
  return root;
}

let commands: Record<string, SubcommandSpec> | undefined;

const ROOT = azGrammar(`${GLOBAL} version`);

/**
 * Azure CLI (az): its global arguments before the command, command groups as levels, and the commands that only
 * read the user's own subscription as service reads (`serviceRead`, on where the settings name az in
 * `automode.readServices`). No command is a local read: every one signs in and calls Azure.
 */
export const AZ_SPEC: ProgramSpec = {
  name: 'az',
  grammar: ROOT,
  serviceRead: readOnly(() => everyOptionBut(ROOT, '--debug'), 'none', {
    check: (_parsed, words) => fileOrUnknownWord(words),
  }),
  get subcommands() {
    commands ??= tree();
    return commands;
  },
};
