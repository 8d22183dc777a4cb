import type { CommandView, EffectsResult, FileEffect, Word } from '../types.js';
import { NONE, option, UNKNOWN } from './effect-helpers.js';
import type { ProgramModule } from './module.js';
import { grammar, has, optionsNamed, type Parsed } from './options.js';
import {
  type ParsedCommand,
  type ProgramSpec,
  parseCommand,
  readOnly,
  type SubcommandSpec,
} from './program.js';
import { checkProgram } from './read-only.js';
import { leadingText, syntheticWord } from './words.js';

/**
 * The option grammars of ansible-core's programs, each level as its argparse parser declares it (read from the
 * parsers of ansible-core 2.14, Debian's `ansible-core`, which `--help` prints): short flags, short options
 * taking a value, long options (`NAME=` takes a value, `/X` reports it under `X`). argparse also takes a unique
 * prefix of a long option; an abbreviation is not read here, so it is unknown and asks.
 */
const LEVELS: Readonly<Record<string, readonly [string, string, string]>> = {
  ansible: [
    'hvbKokCD',
    'ilPBtucTefMam',
    'help/h version verbose/v become/b ask-become-pass/K list-hosts one-line/o ask-pass/k check/C diff/D ask-vault-password ask-vault-pass/--ask-vault-password become-method= become-user= become-password-file= become-pass-file=/--become-password-file inventory=/i inventory-file=/i limit=/l poll=/P background=/B tree=/t private-key= key-file=/--private-key user=/u connection=/c timeout=/T ssh-common-args= sftp-extra-args= scp-extra-args= ssh-extra-args= connection-password-file= conn-pass-file=/--connection-password-file extra-vars=/e vault-id= vault-password-file= vault-pass-file=/--vault-password-file forks=/f module-path=/M playbook-dir= task-timeout= args=/a module-name=/m',
  ],
  'ansible-playbook': [
    'hvkbKCD',
    'ucTtilefM',
    'help/h version verbose/v ask-pass/k force-handlers flush-cache become/b ask-become-pass/K check/C diff/D list-hosts ask-vault-password ask-vault-pass/--ask-vault-password syntax-check list-tasks list-tags step private-key= key-file=/--private-key user=/u connection=/c timeout=/T ssh-common-args= sftp-extra-args= scp-extra-args= ssh-extra-args= connection-password-file= conn-pass-file=/--connection-password-file become-method= become-user= become-password-file= become-pass-file=/--become-password-file tags=/t skip-tags= inventory=/i inventory-file=/i limit=/l extra-vars=/e vault-id= vault-password-file= vault-pass-file=/--vault-password-file forks=/f module-path=/M start-at-task=',
  ],
  'ansible-inventory': [
    'hvy',
    'iel',
    'help/h version verbose/v ask-vault-password ask-vault-pass/--ask-vault-password list-hosts list graph yaml/y toml vars export inventory=/i inventory-file=/i vault-id= vault-password-file= vault-pass-file=/--vault-password-file playbook-dir= extra-vars=/e limit=/l host= output=',
  ],
  'ansible-doc': [
    'hvjsFl',
    'Mtre',
    'help/h version verbose/v json/j snippet/s list_files/F list/l metadata-dump no-fail-on-errors module-path=/M playbook-dir= type=/t roles-path=/r entry-point=/e',
  ],
  'ansible-config': ['hv', '', 'help/h version verbose/v'],
  'ansible-config list': ['hv', 'ctf', 'help/h verbose/v config=/c type=/t format=/f'],
  'ansible-config dump': [
    'hv',
    'ctf',
    'help/h verbose/v only-changed changed-only/--only-changed config=/c type=/t format=/f',
  ],
  'ansible-config view': ['hv', 'ct', 'help/h verbose/v config=/c type=/t'],
  'ansible-config init': ['hv', 'ctf', 'help/h verbose/v disabled config=/c type=/t format=/f'],
  'ansible-galaxy': ['hv', '', 'help/h version verbose/v'],
  'ansible-galaxy collection': ['h', '', 'help/h'],
  'ansible-galaxy collection download': [
    'hcvn',
    'spr',
    'help/h ignore-certs/c verbose/v clear-response-cache no-cache no-deps/n pre server=/s token= api-key=/--token timeout= download-path=/p requirements-file=/r',
  ],
  'ansible-galaxy collection init': [
    'hcvf',
    's',
    'help/h ignore-certs/c verbose/v force/f server=/s token= api-key=/--token timeout= init-path= collection-skeleton=',
  ],
  'ansible-galaxy collection build': [
    'hcvf',
    's',
    'help/h ignore-certs/c verbose/v force/f server=/s token= api-key=/--token timeout= output-path=',
  ],
  'ansible-galaxy collection publish': [
    'hcv',
    's',
    'help/h ignore-certs/c verbose/v no-wait server=/s token= api-key=/--token timeout= import-timeout=',
  ],
  'ansible-galaxy collection install': [
    'hcvfinU',
    'spr',
    'help/h ignore-certs/c verbose/v force/f clear-response-cache no-cache ignore-errors/i no-deps/n force-with-deps pre upgrade/U disable-gpg-verify offline server=/s token= api-key=/--token timeout= collections-path=/p requirements-file=/r keyring= signature= required-valid-signature-count= ignore-signature-status-code=',
  ],
  'ansible-galaxy collection list': [
    'hcv',
    'sp',
    'help/h ignore-certs/c verbose/v server=/s token= api-key=/--token timeout= collections-path=/p format=',
  ],
  'ansible-galaxy collection verify': [
    'hcvi',
    'spr',
    'help/h ignore-certs/c verbose/v ignore-errors/i offline server=/s token= api-key=/--token timeout= collections-path=/p requirements-file=/r keyring= signature= required-valid-signature-count= ignore-signature-status-code=',
  ],
  'ansible-galaxy role': ['h', '', 'help/h'],
  'ansible-galaxy role init': [
    'hcvf',
    's',
    'help/h ignore-certs/c verbose/v force/f offline server=/s token= api-key=/--token timeout= init-path= role-skeleton= type=',
  ],
  'ansible-galaxy role remove': [
    'hcv',
    'sp',
    'help/h ignore-certs/c verbose/v server=/s token= api-key=/--token timeout= roles-path=/p',
  ],
  'ansible-galaxy role delete': [
    'hcv',
    's',
    'help/h ignore-certs/c verbose/v server=/s token= api-key=/--token timeout=',
  ],
  'ansible-galaxy role list': [
    'hcv',
    'sp',
    'help/h ignore-certs/c verbose/v server=/s token= api-key=/--token timeout= roles-path=/p',
  ],
  'ansible-galaxy role search': [
    'hcv',
    's',
    'help/h ignore-certs/c verbose/v server=/s token= api-key=/--token timeout= platforms= galaxy-tags= author=',
  ],
  'ansible-galaxy role import': [
    'hcv',
    's',
    'help/h ignore-certs/c verbose/v no-wait status server=/s token= api-key=/--token timeout= branch= role-name=',
  ],
  'ansible-galaxy role setup': [
    'hcv',
    'sp',
    'help/h ignore-certs/c verbose/v list server=/s token= api-key=/--token timeout= roles-path=/p remove=',
  ],
  'ansible-galaxy role info': [
    'hcv',
    'sp',
    'help/h ignore-certs/c verbose/v offline server=/s token= api-key=/--token timeout= roles-path=/p',
  ],
  'ansible-galaxy role install': [
    'hcvfing',
    'spr',
    'help/h ignore-certs/c verbose/v force/f ignore-errors/i no-deps/n force-with-deps keep-scm-meta/g server=/s token= api-key=/--token timeout= roles-path=/p role-file=/r',
  ],
  'ansible-vault': ['hv', '', 'help/h version verbose/v'],
  'ansible-vault create': [
    'hv',
    '',
    'help/h ask-vault-password ask-vault-pass/--ask-vault-password verbose/v encrypt-vault-id= vault-id= vault-password-file= vault-pass-file=/--vault-password-file',
  ],
  'ansible-vault decrypt': [
    'hv',
    '',
    'help/h ask-vault-password ask-vault-pass/--ask-vault-password verbose/v output= vault-id= vault-password-file= vault-pass-file=/--vault-password-file',
  ],
  'ansible-vault edit': [
    'hv',
    '',
    'help/h ask-vault-password ask-vault-pass/--ask-vault-password verbose/v encrypt-vault-id= vault-id= vault-password-file= vault-pass-file=/--vault-password-file',
  ],
  'ansible-vault view': [
    'hv',
    '',
    'help/h ask-vault-password ask-vault-pass/--ask-vault-password verbose/v vault-id= vault-password-file= vault-pass-file=/--vault-password-file',
  ],
  'ansible-vault encrypt': [
    'hv',
    '',
    'help/h ask-vault-password ask-vault-pass/--ask-vault-password verbose/v vault-id= vault-password-file= vault-pass-file=/--vault-password-file output= encrypt-vault-id=',
  ],
  'ansible-vault encrypt_string': [
    'hvp',
    'n',
    'help/h ask-vault-password ask-vault-pass/--ask-vault-password verbose/v prompt/p show-input vault-id= vault-password-file= vault-pass-file=/--vault-password-file output= encrypt-vault-id= name=/n stdin-name=',
  ],
  'ansible-vault rekey': [
    'hv',
    '',
    'help/h ask-vault-password ask-vault-pass/--ask-vault-password verbose/v vault-id= vault-password-file= vault-pass-file=/--vault-password-file encrypt-vault-id= new-vault-password-file= new-vault-id=',
  ],
  'ansible-console': [
    'hvbKkCD',
    'ilucTfMe',
    'help/h version verbose/v become/b ask-become-pass/K list-hosts ask-pass/k check/C diff/D ask-vault-password ask-vault-pass/--ask-vault-password step become-method= become-user= become-password-file= become-pass-file=/--become-password-file inventory=/i inventory-file=/i limit=/l private-key= key-file=/--private-key user=/u connection=/c timeout=/T ssh-common-args= sftp-extra-args= scp-extra-args= ssh-extra-args= connection-password-file= conn-pass-file=/--connection-password-file vault-id= vault-password-file= vault-pass-file=/--vault-password-file forks=/f module-path=/M playbook-dir= extra-vars=/e task-timeout=',
  ],
  'ansible-pull': [
    'hvkKof',
    'ucTetilMsdUCm',
    'help/h version verbose/v ask-pass/k ask-vault-password ask-vault-pass/--ask-vault-password list-hosts ask-become-pass/K purge only-if-changed/o force/f full accept-host-key verify-commit clean track-subs check diff private-key= key-file=/--private-key user=/u connection=/c timeout=/T ssh-common-args= sftp-extra-args= scp-extra-args= ssh-extra-args= connection-password-file= conn-pass-file=/--connection-password-file vault-id= vault-password-file= vault-pass-file=/--vault-password-file extra-vars=/e tags=/t skip-tags= inventory=/i inventory-file=/i limit=/l module-path=/M become-password-file= become-pass-file=/--become-password-file sleep=/s directory=/d url=/U checkout=/C module-name=/m',
  ],
};

/**
 * The reads: ansible's programs that only print local configuration, inventory and documentation. Each is
 * read-only only when what it loads is the user's own: the policy checks at decision time that no ansible.cfg is
 * in the working folder, no ANSIBLE_* variable is set and no inventory named is a script or a plugin
 * configuration (src/policy/project-files/ansible.ts). Left out, and why:
 * - `--playbook-dir`, `-M`/`--module-path`, `-r`/`--roles-path`, `-c`/`--config` name folders plugins or
 *   settings are loaded from; `-e` loads variables files; vault options run a password script;
 * - `ansible-playbook --syntax-check` and `--list-*` template the play's `hosts` and the names of imported files
 *   (a `lookup('pipe', ...)` there runs), and load the plugin folders beside each playbook and role;
 * - `ansible-console --list-hosts` still opens the console; `-m`/`-a` and `--check` run modules on the hosts;
 * - `ansible-vault view` and `decrypt` print the secrets the vault holds; every other `ansible-galaxy` verb
 *   reaches Galaxy with the user's token, or installs or writes roles and collections.
 */
interface Reads {
  options: string;
  operands: 'inert' | 'none';
  maxOperands?: number;
  /** The options one of which must be given (the listing asked for). */
  needs?: readonly string[];
}
const READS: Readonly<Record<string, Reads>> = {
  ansible: { options: 'i l v --list-hosts', operands: 'inert', maxOperands: 1, needs: ['--list-hosts'] },
  'ansible-inventory': {
    options: 'i l v y --list --graph --host --toml --vars --export',
    operands: 'inert',
    maxOperands: 1,
    needs: ['--list', '--graph', '--host'],
  },
  'ansible-doc': { options: 'j s F l t v e --metadata-dump --no-fail-on-errors', operands: 'inert' },
  'ansible-config list': { options: 't f v', operands: 'none' },
  'ansible-config dump': { options: 't f v --only-changed', operands: 'none' },
  'ansible-config view': { options: 't v', operands: 'none' },
  'ansible-config init': { options: 't f v --disabled', operands: 'none' },
  'ansible-galaxy collection list': { options: 'v p --format', operands: 'inert' },
  'ansible-galaxy role list': { options: 'v p', operands: 'inert' },
};

const PLUGINS = 'names a folder ansible loads plugins or settings from';
const WHY: Readonly<Record<string, string>> = {
  C: 'still connects to the hosts and runs modules there',
  '--check': 'still connects to the hosts and runs modules there',
  m: 'runs a module on the hosts',
  a: 'runs a module on the hosts',
  M: PLUGINS,
  r: PLUGINS,
  c: PLUGINS,
  '--playbook-dir': PLUGINS,
  e: 'loads variables, from a file when the value starts with @',
  i: 'reads an inventory, which runs when it is an executable file',
  '--syntax-check': 'templates the plays (a lookup there runs) and loads the plugins beside the playbook',
  '--list-tasks': 'templates the plays (a lookup there runs) and loads the plugins beside the playbook',
  '--list-tags': 'templates the plays (a lookup there runs) and loads the plugins beside the playbook',
  '--vault-password-file': 'runs the password file when it is executable',
  '--vault-id': 'runs the password file when it is executable',
  '--output': 'writes the file named',
};
const ASKS_ITSELF = 'only -h/--help or --version prints and exits';

function readProblem(path: string, parsed: Parsed, words: readonly Word[]): string | undefined {
  const reads = READS[path]!;
  if (reads.needs && !has(parsed, ...reads.needs)) return `${path} reads only with ${reads.needs.join(', ')}`;
  const limits = path === 'ansible-doc' ? [] : optionsNamed(parsed, 'l');
  if (limits.some((limit) => !limit.value || leadingText(limit.value).startsWith('@')))
    return `${path} --limit @FILE reads the hosts from a file`;
  if (path === 'ansible' && parsed.operands.some((at) => leadingText(words[at]!).startsWith('@')))
    return 'a host pattern @FILE reads the hosts from a file';
  return undefined;
}

function level(path: string, top: boolean): SubcommandSpec {
  const [flags, values, long] = LEVELS[path]!;
  const names = top ? 'h --version' : 'h';
  const helps = (parsed: Parsed) => parsed.options.length === 1 && has(parsed, ...names.split(' '));
  const reads = READS[path];
  return {
    grammar: grammar({ flags, values, long, abbreviate: false }),
    readOnly: reads
      ? readOnly(`${names} ${reads.options}`, reads.operands, {
          why: WHY,
          ...(reads.maxOperands === undefined ? {} : { maxOperands: reads.maxOperands }),
          check: (parsed, words) =>
            helps(parsed)
              ? parsed.operands.length === 0
                ? undefined
                : ASKS_ITSELF
              : has(parsed, ...names.split(' '))
                ? ASKS_ITSELF
                : readProblem(path, parsed, words),
        })
      : readOnly(names, 'none', {
          why: WHY,
          check: (parsed) => (helps(parsed) ? undefined : ASKS_ITSELF),
        }),
  };
}

function program(name: string): ProgramSpec {
  const build = (path: string): SubcommandSpec => {
    const prefix = `${path} `;
    const below = Object.keys(LEVELS).filter(
      (key) => key.startsWith(prefix) && !key.slice(prefix.length).includes(' '),
    );
    const spec = level(path, path === name);
    if (below.length === 0) return spec;
    const subcommands: Record<string, SubcommandSpec> = {};
    for (const key of below) subcommands[key.slice(prefix.length)] = build(key);
    return { ...spec, subcommands };
  };
  let built: SubcommandSpec | undefined;
  return {
    name,
    get grammar() {
      built ??= build(name);
      return built.grammar;
    },
    get readOnly() {
      built ??= build(name);
      return built.readOnly;
    },
    get subcommands() {
      built ??= build(name);
      return built.subcommands;
    },
  };
}

function printsItself(parsed: ParsedCommand): boolean {
  const last = parsed.levels.at(-1)!;
  return (
    parsed.levels.every((found) => found === last || found.parsed.options.length === 0) &&
    last.parsed.options.length === 1 &&
    has(last.parsed, 'h', '--version') &&
    last.parsed.operands.length === 0
  );
}

/** The command line as ansible reads it when it is one of the reads of READS (help and version aside). */
function readForm(spec: ProgramSpec, argv: readonly Word[]): ParsedCommand | undefined {
  const parsed = parseCommand(spec, argv, { unknown: 'fail', dynamic: 'operand' });
  if (!parsed.ok || parsed.unknownSubcommand || printsItself(parsed)) return undefined;
  const last = parsed.levels.at(-1)!;
  if (!READS[last.name]) return undefined;
  return checkProgram(spec, argv, false).readOnly ? parsed : undefined;
}

/**
 * The inventory sources a read names with `-i`, for the policy to look at: each file (or every file below a
 * folder) is a script ansible runs when it is executable, and a plugin configuration when it is YAML naming a
 * `plugin`. Undefined when the command is not one of the reads.
 */
export function ansibleInventories(name: string, argv: readonly Word[]): Word[] | undefined {
  const spec = ANSIBLE_PROGRAMS.includes(name) ? program(name) : undefined;
  const parsed = spec && readForm(spec, argv);
  if (!parsed) return undefined;
  return optionsNamed(parsed.levels.at(-1)!.parsed, 'i').map((option) => option.value!);
}

/** A host list (`-i web1,web2,`) names hosts, not a file. */
function hostList(word: Word): boolean {
  return word.static && word.value.includes(',');
}

/**
 * What a read reads: each inventory `-i` names, and the group_vars and host_vars folders beside it (a folder
 * named holds its own) and in the working folder, where ansible's loader starts. The user's own inventory,
 * configuration and plugins are not the project's.
 */
function effectsOf(spec: ProgramSpec): (cmd: CommandView) => EffectsResult {
  return (cmd) => {
    const parsed = parseCommand(spec, cmd.argv, { unknown: 'fail', dynamic: 'operand' });
    if (!parsed.ok || parsed.unknownSubcommand) return UNKNOWN;
    if (printsItself(parsed)) return NONE;
    const inventories = ansibleInventories(spec.name, cmd.argv);
    if (!inventories) return UNKNOWN;
    const effects: FileEffect[] = [];
    const folders = new Map<string, Word>();
    if (spec.name === 'ansible' || spec.name === 'ansible-inventory') folders.set('.', cmd.argv[0]!);
    for (const word of inventories) {
      if (hostList(word)) continue;
      effects.push(option('read', word));
      const slash = word.value.replace(/\/+$/, '').lastIndexOf('/');
      folders.set(slash < 0 ? '.' : word.value.slice(0, slash) || '/', word);
    }
    for (const [folder, word] of folders)
      for (const vars of ['group_vars', 'host_vars'])
        effects.push(option('read', syntheticWord(`${folder}/${vars}`, word.span)));
    // galaxy's list reads the manifests and role metadata below each folder of a colon-separated -p.
    for (const { value } of optionsNamed(parsed.levels.at(-1)!.parsed, 'p')) {
      if (!value?.static) return UNKNOWN;
      const paths = value.value.split(':').filter(Boolean);
      if (paths.length === 1 && paths[0] === value.value) effects.push(option('read', value));
      else for (const path of paths) effects.push(option('read', syntheticWord(path, value.span)));
    }
    return { effects, known: true };
  };
}

/** ansible-core's programs, each with its module. */
export const ANSIBLE_PROGRAMS = [
  'ansible',
  'ansible-playbook',
  'ansible-inventory',
  'ansible-doc',
  'ansible-config',
  'ansible-galaxy',
  'ansible-vault',
  'ansible-console',
  'ansible-pull',
];

/**
 * The canary world's ansible/ folder holds the project's code every way ansible loads it, each running a marker:
 * the reads there must ask (its ansible.cfg, a script or plugin inventory, the play's lookups), and the reads of
 * its plain inventory run without a marker (group_vars are printed, never templated).
 */
const CASES: Readonly<Record<string, readonly string[]>> = {
  ansible: [
    '--version',
    '--help',
    '-h',
    'all --list-hosts',
    '-i ansible/hosts.ini all --list-hosts',
    '-i ansible/inventory.py all --list-hosts',
    'localhost -m ping --check',
    '--versio',
  ],
  'ansible-playbook': [
    '--version',
    '-h',
    '-i ansible/hosts.ini ansible/site.yml --syntax-check',
    '-i ansible/hosts.ini ansible/site.yml --list-tasks',
  ],
  'ansible-inventory': [
    '--help',
    '--version',
    '--list',
    '--graph',
    '-i ansible/hosts.ini --list --vars',
    '-i ansible/hosts.ini --host web1 -y',
    '-i ansible/hosts.ini --graph --vars',
    '-i ansible/inventory.py --list',
    '-i ansible/generated.yml --list',
    '-i ansible --list',
  ],
  'ansible-doc': [
    '-h',
    '--version',
    'ping',
    '-l',
    '-t filter -l',
    '-s file',
    '-j ping',
    '-M ansible/library -l',
  ],
  'ansible-config': ['--help', 'dump --help', 'list -h', 'dump', 'dump --only-changed', 'view', 'list'],
  'ansible-galaxy': [
    '--help',
    '--version',
    'collection --help',
    'role -h',
    'collection list -h',
    'collection list',
    'role list',
    'role list -p ansible',
    'collection list -p ansible:src --format json',
  ],
  'ansible-vault': ['--help', 'view --help', 'view secrets.yml'],
  'ansible-console': ['--help', '--version'],
  'ansible-pull': ['--help', '--version'],
};
/** The reads run in the ansible/ folder, where its ansible.cfg names the filter plugins and modules it holds. */
const IN_PROJECT: Readonly<Record<string, readonly string[]>> = {
  'ansible-doc': ['-t filter -l', '-l', 'marker'],
  'ansible-config': ['list', 'dump --only-changed'],
  'ansible-inventory': ['-i hosts.ini --list'],
  ansible: ['-i hosts.ini all --list-hosts'],
};

/** ansible-core's programs: what they are allowed to say about themselves, and the grammar deny and ask rules read. */
export const ANSIBLE_MODULES: readonly ProgramModule[] = ANSIBLE_PROGRAMS.map((name) => {
  const spec = program(name);
  return {
    names: [name],
    spec,
    effects: effectsOf(spec),
    // Any command but help, version and the reads may reach the hosts of the inventory, Galaxy or a git remote.
    network: (cmd) => {
      const parsed = parseCommand(spec, cmd.argv, { unknown: 'fail', dynamic: 'operand' });
      if (!parsed.ok || parsed.unknownSubcommand !== undefined) return true;
      return !printsItself(parsed) && readForm(spec, cmd.argv) === undefined;
    },
    oracle: {
      cases: [
        ...(CASES[name] ?? []).map((tail) => `${name} ${tail}`),
        ...(IN_PROJECT[name] ?? []).map((tail) => `cd ansible && ${name} ${tail}`),
      ],
    },
  };
});
