import type { CommandView, EffectsResult, Word } from '../types.js';
import { NONE, UNKNOWN } from './effect-helpers.js';
import type { ProgramModule } from './module.js';
import { type Grammar, has, operandWords, optionsNamed, type Parsed } from './options.js';
import { pflagGrammar } from './pflag.js';
import {
  type ProgramSpec,
  parseCommand,
  type ReadOnlySpec,
  readOnly,
  type SubcommandSpec,
} from './program.js';

/**
 * auth0, Auth0's CLI (cobra and pflag: exact long names, options anywhere after the command). Not installed
 * here: its commands and options are those its own reference lists (github.com/auth0/auth0-cli, docs/auth0_*.md
 * and internal/cli/*.go, August 2026). The persistent options every command reads (root.go): `--tenant` picks one
 * of the tenants the user has logged in to (an unknown one is an error, never another host), the others change
 * only what is printed and whether it prompts.
 */
const GLOBAL = 'tenant= debug no-color no-input agent-mode';
const SAFE_GLOBALS = '--tenant --debug --no-color --no-input --agent-mode h';

/**
 * The commands that read the user's own tenant and change nothing, with their own options. Not listed, however
 * spelt: the writes, `open` (a browser), `use` (its configuration), `test token` and `test login` (they print or
 * mint tokens), `login`/`logout`, and the reads whose output holds a secret in the JSON automode's agent gets by
 * default (auth0's agent mode): `apis show/list` (an API's signing secret), `logs streams` (the sink's
 * tokens), `event-streams list/show` (a webhook's authorization), `email provider show` and `phone provider`
 * (their credentials), `orgs invitations` (the invitation links), `sessions`, `refresh-tokens`.
 */
const READS: Readonly<Record<string, string>> = {
  'actions list': 'csv json json-compact',
  'actions show': 'json json-compact',
  'actions diff': '',
  'actions modules list': 'csv json json-compact number=/n',
  'actions modules show': 'json json-compact',
  'actions modules actions list': 'csv json json-compact number=/n',
  'actions modules versions list': 'csv json json-compact number=/n',
  'actions modules versions show': 'json json-compact',
  // Not --reveal-secrets (-r): it prints the client secrets and signing keys, which are dropped otherwise.
  // Not `apis show/list`: their JSON holds an API's signing secret; a scope is a name and a description.
  'apis scopes list': 'csv json json-compact',
  'apps list': 'csv json json-compact number=/n reveal-secrets/r',
  'apps show': 'json json-compact reveal-secrets/r',
  'apps session-transfer show': 'json json-compact',
  'client-grants list':
    'allow-any-organization audience=/a client-id=/c csv default-for= json json-compact number=/n subject-type=',
  'client-grants show': 'json json-compact',
  'client-grants organizations list': 'csv json json-compact number=/n',
  'domains list': 'csv filter= json json-compact sort=',
  'domains show': 'json json-compact',
  'domains default show': 'json json-compact',
  'email templates show': 'json json-compact',
  'event-streams stats': 'from=/f json to=/t',
  'logs list': 'csv filter=/f json json-compact number=/n picker/p',
  'logs tail': 'filter=/f number=/n',
  'network-acl list': 'json',
  'network-acl show': 'json',
  'orgs list': 'csv json json-compact number=/n',
  'orgs show': 'json json-compact',
  'orgs members list': 'csv json json-compact number=/n',
  'orgs roles list': 'csv json json-compact number=/n',
  'orgs roles members list': 'csv json json-compact number=/n role-id=/r',
  'protection bot-detection show': 'json json-compact',
  'protection breached-password-detection show': 'json json-compact',
  'protection brute-force-protection show': 'json json-compact',
  'protection suspicious-ip-throttling show': 'json json-compact',
  'quickstarts list': 'csv json json-compact',
  'roles list': 'csv json json-compact number=/n',
  'roles show': 'json json-compact',
  'roles permissions list': 'csv json json-compact number=/n',
  'rules list': 'csv json json-compact',
  'rules show': 'json json-compact',
  'tenant-settings show': 'json json-compact',
  'tenants list': 'csv json json-compact',
  'universal-login show': 'json json-compact',
  'universal-login prompts show': 'language=/l',
  'universal-login templates show': '',
  'users search': 'csv json json-compact number=/n picker/p query=/q sort=/s',
  'users search-by-email': 'csv json json-compact picker/p',
  'users show': 'json json-compact',
  'users roles show': 'csv json json-compact number=/n',
  'users blocks list': 'csv json json-compact',
  // `auth0 api [METHOD] PATH`: a GET unless a method or --data says otherwise (api.go).
  api: 'data=/d force query=/q',
};

/** The options of a read that keep it one: all but --reveal-secrets, and for `api` only the query parameters. */
const KEEPS: Readonly<Record<string, string>> = {
  'apps list': '--csv --json --json-compact n',
  'apps show': '--json --json-compact',
  api: 'q',
};

/** The other spellings of commands and groups, as their `Aliases` in internal/cli/*.go give them. */
const ALIASES: Readonly<Record<string, Record<string, string>>> = {
  '': {
    clients: 'apps',
    'resource-servers': 'apis',
    grants: 'client-grants',
    organizations: 'orgs',
    'attack-protection': 'protection',
    ap: 'protection',
    qs: 'quickstarts',
    ul: 'universal-login',
  },
  protection: {
    bd: 'bot-detection',
    bpd: 'breached-password-detection',
    bfp: 'brute-force-protection',
    sit: 'suspicious-ip-throttling',
  },
  roles: { perms: 'permissions' },
};

/**
 * The Management API paths (`auth0 api get PATH`) whose answer holds no secret for the scopes auth0 logs in
 * with: users, logs, roles, organizations' members and roles, rules, actions, grants, domains, settings and
 * statistics. Not clients (their secrets: auth0 asks for read:client_keys), resource-servers (signing secrets),
 * connections, log and event streams, email and phone providers, keys, invitations. Each segment is plain: no
 * `..`, no query (`-q` gives those), no escapes.
 */
const API_PATHS = [
  /^users(\/[^/]+(\/(roles|permissions|logs|organizations))?)?$/,
  /^users-by-email$/,
  /^logs(\/[^/]+)?$/,
  /^roles(\/[^/]+(\/(permissions|users))?)?$/,
  /^organizations(\/[^/]+(\/(members|roles|enabled_connections))?)?$/,
  /^rules(\/[^/]+)?$/,
  /^actions\/(actions|triggers)(\/[^/]+)?$/,
  /^client-grants(\/[^/]+)?$/,
  /^custom-domains(\/[^/]+)?$/,
  /^tenants\/settings$/,
  /^stats\/(daily|active-users)$/,
  /^attack-protection\/(breached-password-detection|brute-force-protection|suspicious-ip-throttling)$/,
];

function apiRead(parsed: Parsed, words: readonly Word[]): string | undefined {
  const operands = operandWords(words, parsed);
  if (operands.length === 0 || operands.length > 2) return 'auth0 api takes a method and a path';
  if (!operands.every((word) => word.static)) return 'auth0 api with words only known at run time';
  const [method, path] = operands.length === 2 ? operands : [undefined, operands[0]!];
  if (method && method.value.toUpperCase() !== 'GET') return `auth0 api ${method.text} can write`;
  const trimmed = path!.value.replace(/^\/+|\/+$/g, '');
  const plain = /^[\w|@.:+-]+(\/[\w|@.:+-]+)*$/.test(trimmed) && !/(^|\/)\.\.?(\/|$)/.test(trimmed);
  if (!plain || !API_PATHS.some((allowed) => allowed.test(trimmed))) {
    return `auth0 api ${path!.text} may print a secret`;
  }
  for (const found of optionsNamed(parsed, 'q')) {
    if (!found.value?.static) return 'auth0 api with a query only known at run time';
  }
  return undefined;
}

function helpOnly(): ReadOnlySpec {
  return readOnly(SAFE_GLOBALS, 'inert', {
    check: (parsed) => (has(parsed, 'h') ? undefined : 'only --help prints and exits'),
  });
}

function pflag(own: string): Grammar {
  return pflagGrammar(`${own} ${GLOBAL}`.trim());
}

function command(path: string): SubcommandSpec {
  const g = pflag(READS[path]!);
  const keeps = KEEPS[path] ?? everyOwn(g, READS[path]!);
  return {
    grammar: g,
    serviceRead: readOnly(`${keeps} ${SAFE_GLOBALS}`, 'inert', path === 'api' ? { check: apiRead } : {}),
  };
}

/** The names the grammar reports for a notation's options: `--json`, `n` for `number=/n`. */
function everyOwn(g: Grammar, notation: string): string {
  return notation
    .split(' ')
    .filter(Boolean)
    .map((entry) => {
      const [, long, letter] = /^([\w.-]+)=?(?:\/(\w))?$/.exec(entry)!;
      return letter ?? g.long.get(long!)?.name ?? `--${long}`;
    })
    .join(' ');
}

function group(prefix: string): SubcommandSpec {
  return {
    grammar: pflag(''),
    permute: false,
    subcommands: {},
    subcommandAliases: { ls: 'list', ...(ALIASES[prefix] ?? {}) },
    serviceRead: helpOnly(),
  };
}

function tree(): Record<string, SubcommandSpec> {
  const root: Record<string, SubcommandSpec> = {};
  for (const path of Object.keys(READS)) {
    const words = path.split(' ');
    let level = root;
    for (const [k, name] of words.slice(0, -1).entries()) {
      level[name] ??= group(words.slice(0, k + 1).join(' '));
      level = level[name].subcommands as Record<string, SubcommandSpec>;
    }
    level[words.at(-1)!] = command(path);
  }
  return root;
}

let commands: Record<string, SubcommandSpec> | undefined;

export const AUTH0_SPEC: ProgramSpec = {
  name: 'auth0',
  grammar: pflagGrammar(`${GLOBAL} version/v`),
  // `auth0 --help`, `auth0 --version`: cobra prints and exits before logging in.
  serviceRead: readOnly(`${SAFE_GLOBALS} v`, 'none', {
    check: (parsed) => (has(parsed, 'h', 'v') ? undefined : 'auth0 without a command'),
  }),
  globalOptionsAnywhere: true,
  get subcommands() {
    commands ??= tree();
    return commands;
  },
  subcommandAliases: ALIASES['']!,
};

/**
 * The files an auth0 command touches here: none for its reads and usage but its own configuration (the tenants'
 * tokens it refreshes, which it keeps to do its job); the others (`apps create` writing a quickstart, `terraform
 * generate`, `acul`) are not modelled.
 */
function auth0Effects(cmd: CommandView): EffectsResult {
  const parsed = parseCommand(AUTH0_SPEC, cmd.argv, { unknown: 'flag', dynamic: 'operand' });
  if (!parsed.ok || parsed.unknownSubcommand) return UNKNOWN;
  const last = parsed.levels.at(-1)!;
  if (has(last.parsed, 'h') || (parsed.levels.length === 1 && has(last.parsed, 'v'))) return NONE;
  if (last.spec.subcommands === undefined && last.spec.serviceRead) return NONE;
  return UNKNOWN;
}

export const AUTH0: ProgramModule = {
  names: ['auth0'],
  spec: AUTH0_SPEC,
  effects: auth0Effects,
  network: () => true,
};
