import type { Word } from '../../types.js';
import { jqConstructs } from '../jq/filter.js';
import { type Grammar, has, lastValue, operandWords, optionsNamed, type Parsed } from '../options.js';
import { commandTree, pflagGrammar as pflag } from '../pflag.js';
import {
  everyOptionBut,
  type ProgramSpec,
  type ReadOnlySpec,
  readOnly,
  type SubcommandSpec,
} from '../program.js';
import { leadingText } from '../words.js';
import { COMMANDS } from './commands.js';

/** The groups that lend their commands `-R/--repo` (cobra persistent flags, `cmdutil.EnableRepoOverride`). */
const REPO_GROUPS = new Set(
  'browse cache issue label pr release repo deploy-key ruleset run secret variable workflow'.split(' '),
);

/** The other spellings of commands, as each command's source lists them. */
const TOP_ALIASES: Readonly<Record<string, string>> = {
  at: 'attestation',
  cs: 'codespace',
  ext: 'extension',
  extensions: 'extension',
  rs: 'ruleset',
};
const GROUP_ALIASES: Readonly<Record<string, Record<string, string>>> = {
  gist: { ls: 'list', new: 'create' },
  issue: { ls: 'list', new: 'create' },
  pr: { ls: 'list', new: 'create' },
  release: { ls: 'list', new: 'create' },
  repo: { ls: 'list', new: 'create' },
};
const LIST = { ls: 'list' };
/** Groups that are commands too (`gh codespace ports` lists a codespace's ports): their own options. */
const GROUP_OPTIONS: Readonly<Record<string, string>> = { ports: 'codespace=/c jq=/q json= template=/t' };

/** Options no read passes: they open a browser (`--web`) or send the request to a host the line names. */
const NEVER = ['web', 'hostname'];

/**
 * The commands that read the user's own GitHub (or its own configuration) and change nothing: every option of
 * theirs but `--web`, unless the entry lists the options that keep it a read. Their operands are numbers, names,
 * branches, queries: data, not files.
 */
const SERVICE_READS: Readonly<Record<string, string | ((g: Grammar) => string)>> = {
  'pr list': all,
  'pr view': all,
  'pr status': all,
  'pr diff': all,
  'pr checks': all,
  'issue list': all,
  'issue view': all,
  'issue status': all,
  'repo view': all,
  'repo list': all,
  'repo deploy-key list': all,
  'run list': all,
  'run view': all,
  'run watch': all,
  'release list': all,
  'release view': all,
  'workflow list': all,
  'workflow view': all,
  'search code': all,
  'search commits': all,
  'search issues': all,
  'search prs': all,
  'search repos': all,
  'label list': all,
  'gist list': all,
  'gist view': all,
  'secret list': all,
  'variable list': all,
  'variable get': all,
  'codespace list': all,
  'codespace view': all,
  'cache list': all,
  'ruleset list': all,
  'ruleset view': all,
  'ruleset check': all,
  'org list': all,
  'project list': all,
  'project view': all,
  'project field-list': all,
  'project item-list': all,
  'gpg-key list': all,
  'ssh-key list': all,
  // The artifact, the bundle and the trusted root it names are files it reads (the module's effects); an image
  // (`oci://`) is pulled with the user's registry credentials from the registry the line names.
  'attestation verify': all,
  'attestation inspect': all,
  // Not --tuf-url/--tuf-root: another TUF repository.
  'attestation trusted-root': '--verify-only',
  'extension list': all,
  'extension search': all,
  'alias list': all,
  'config list': all,
  'config get': all,
  status: all,
  // Only with --no-browser (-n): it prints the page's address instead of opening a browser.
  browse: all,
  // Not --show-token (-t): it prints the token. --hostname only picks which configured host to report on.
  'auth status': 'a',
  // Not --cache (writes a cache), --verbose (prints the request, headers included), -H (headers the line
  // sends), --input and -F (a file's content or typed fields sent), --hostname (another host).
  api: 'i q p --paginate --silent --slurp t X f',
};

function all(g: Grammar): string {
  return everyOptionBut(g, NEVER.flatMap((name) => g.long.get(name)?.name ?? []).join(' '));
}

/** The keys of gh's configuration (`gh config list` prints these); `oauth_token` is not one of them. */
const CONFIG_KEYS = new Set(
  'git_protocol editor prompt prefer_editor_prompt pager http_unix_socket browser color_labels accessible_colors accessible_prompter spinner'.split(
    ' ',
  ),
);

/** The one operand of `gh config get`: a key that holds no secret. */
function configKey(parsed: Parsed, words: readonly Word[]): string | undefined {
  const [key, ...more] = operandWords(words, parsed);
  if (!key || more.length > 0) return 'gh config get takes one key';
  if (!key.static || !CONFIG_KEYS.has(key.value)) return `gh config get ${key.text} may print a secret`;
  return undefined;
}

/** A `--jq` filter that only computes on the response (not `env`, `$ENV`, modules). */
function jqProblem(parsed: Parsed): string | undefined {
  for (const found of optionsNamed(parsed, 'q')) {
    const filter = found.value;
    if (!filter?.static) return 'a --jq filter only known at run time';
    const hidden = jqConstructs(filter.value);
    if (hidden.length > 0) return `the --jq filter reads ${hidden.join(', ')}`;
  }
  return undefined;
}

/** A path of the API (`repos/o/r/pulls`, `/user`, `graphql`): not a URL, which names a host of its own. */
const ENDPOINT = /^\/?[\w.{}~%-]+(\/[\w.{}~%:@,+=-]*)*(\?[\w.{}~%:@,+=&[\]/-]*)?$/;

/** A GraphQL document that asks (`query { ... }`, `{ viewer { login } }`), never one that changes or subscribes. */
function graphqlQuery(text: string): boolean {
  return !/\b(mutation|subscription)\b/.test(text) && /^\s*(query\b|\{)/.test(text);
}

/**
 * `gh api` as a read: a GET (or HEAD) of a path of the API the user's login reaches, or a GraphQL query. Fields
 * (`-f`) are the query's parameters only where the method is named GET or HEAD (otherwise they make the request
 * a POST), and for `graphql` the document itself.
 */
function apiRead(parsed: Parsed, words: readonly Word[]): string | undefined {
  const operands = operandWords(words, parsed);
  const [endpoint, ...more] = operands;
  if (!endpoint || more.length > 0) return 'gh api takes one endpoint';
  if (!endpoint.static || endpoint.value.startsWith('//') || !ENDPOINT.test(endpoint.value)) {
    return `gh api ${endpoint.text} is not a path of the API`;
  }
  const jq = jqProblem(parsed);
  if (jq) return jq;
  const method = lastValue(parsed, 'X');
  const fields = optionsNamed(parsed, 'f');
  if (endpoint.value === 'graphql') {
    if (method) return 'gh api graphql with a method';
    const query = fields.filter((found) => found.value && leadingText(found.value).startsWith('query='));
    if (query.length !== 1) return 'gh api graphql without one query';
    for (const found of fields) {
      if (!found.value?.static) return 'gh api graphql with fields only known at run time';
      if (found === query[0] && !graphqlQuery(found.value.value.slice('query='.length))) {
        return 'gh api graphql with a document that is not a query';
      }
    }
    return undefined;
  }
  if (method && !(method.static && /^(GET|HEAD)$/i.test(method.value))) {
    return `gh api -X ${method.text} can write`;
  }
  if (fields.length > 0 && !method) return 'gh api with fields sends a POST';
  return undefined;
}

/** The artifact `attestation verify` checks: a file, not an image pulled from a registry. */
function localArtifact(parsed: Parsed, words: readonly Word[]): string | undefined {
  if (has(parsed, '--bundle-from-oci')) return 'gh attestation --bundle-from-oci pulls from a registry';
  for (const artifact of operandWords(words, parsed)) {
    if (!artifact.static) return 'gh attestation: an artifact only known at run time';
    if (/^oci:/i.test(artifact.value)) return 'gh attestation pulls the image from its registry';
  }
  return undefined;
}

function serviceRead(path: string, g: Grammar): ReadOnlySpec | undefined {
  const entry = SERVICE_READS[path];
  if (entry === undefined) return undefined;
  const options = typeof entry === 'string' ? entry : entry(g);
  const jqOnly = (parsed: Parsed) => jqProblem(parsed);
  if (path === 'api') return readOnly(options, 'inert', { check: apiRead });
  if (path === 'browse') {
    return readOnly(() => options, 'inert', {
      check: (parsed) => (has(parsed, 'n') ? jqOnly(parsed) : 'gh browse without -n opens a browser'),
    });
  }
  if (path === 'attestation verify' || path === 'attestation inspect') {
    return readOnly(() => options, 'inert', {
      check: (parsed, words) => localArtifact(parsed, words) ?? jqOnly(parsed),
    });
  }
  if (path === 'config get') {
    return readOnly(() => options, 'inert', {
      check: (parsed, words) => configKey(parsed, words) ?? jqOnly(parsed),
    });
  }
  return readOnly(() => options, 'inert', { check: jqOnly });
}

/** The name `--help` is reported under: `h` where the letter means help, else `--help` (`auth login -h HOST`). */
export function helpName(g: Grammar): string {
  return g.long.get('help')?.name ?? '--help';
}

/** `--help` alone (or with `-R`): cobra prints the command's usage and exits. */
function helpOnly(g: Grammar): ReadOnlySpec {
  const help = helpName(g);
  return readOnly(`${help} R`, 'inert', {
    check: (parsed) => (has(parsed, help) ? undefined : 'only --help prints and exits'),
  });
}

function group(name: string): SubcommandSpec {
  const g = pflag(`${GROUP_OPTIONS[name] ?? ''}${REPO_GROUPS.has(name) ? ' repo=/R' : ''}`);
  return {
    grammar: g,
    permute: false,
    subcommands: {},
    subcommandAliases: GROUP_ALIASES[name] ?? LIST,
    readOnly: helpOnly(g),
  };
}

function command(path: string, notation: string): SubcommandSpec {
  const repo = REPO_GROUPS.has(path.split(' ')[0]!) && !/(^| )repo=/.test(notation) ? ' repo=/R' : '';
  const g = pflag(`${notation}${repo}`);
  const reads = serviceRead(path, g);
  return {
    grammar: g,
    readOnly: helpOnly(g),
    ...(reads ? { serviceRead: reads } : {}),
  };
}

function tree(): Record<string, SubcommandSpec> {
  const commands = commandTree(COMMANDS, group, command);
  // `gh help [COMMAND...]` prints usage; `gh version` what it is.
  commands.help = { grammar: pflag(''), readOnly: readOnly('h', 'inert') };
  commands.version = { grammar: pflag(''), readOnly: readOnly('h', 'none') };
  return commands;
}

let commands: Record<string, SubcommandSpec> | undefined;

/** gh, GitHub's CLI: cobra and pflag (exact long names, options anywhere after the command). */
const ROOT = pflag('repo=/R version');

export const GH_SPEC: ProgramSpec = {
  name: 'gh',
  grammar: ROOT,
  // `gh --version`, `gh --help`, `gh -h`; `-R` in front of a command that reads it.
  readOnly: readOnly('h --version R', 'none', {
    check: (parsed) => (has(parsed, 'h', '--version') ? undefined : 'gh without a command'),
  }),
  globalOptionsAnywhere: true,
  get subcommands() {
    commands ??= tree();
    return commands;
  },
  subcommandAliases: TOP_ALIASES,
};
