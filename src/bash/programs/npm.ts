import type { CommandView, NestedSpec, Word } from '../types.js';
import { type ProgramModule, subcommandOf } from './module.js';
import { npx } from './npx.js';
import { grammar, has, optionsNamed, type Parsed } from './options.js';
import { type ConfigCommand, configEffects } from './package-managers.js';
import { everyOption, type ProgramSpec, readOnly, type SubcommandSpec } from './program.js';
import { dynamicSub, projectScript, subcommand } from './runners.js';
import { codeSpec, shellSpec } from './specs.js';
import { is, joinWords, leadingText } from './words.js';

const ANY = grammar({ long: 'help' });

/** npm's commands (v10). */
const COMMANDS =
  'access adduser audit bugs cache ci completion config dedupe deprecate diff dist-tag docs doctor edit exec ' +
  'explain explore find-dupes fund get help help-search hook init install install-ci-test install-test link ' +
  'll login logout ls org outdated owner pack ping pkg prefix profile prune publish query rebuild repo restart ' +
  'root run-script sbom search set shrinkwrap star stars start stop team test token undeprecate uninstall ' +
  'unpublish unstar update version view whoami';

/** npm's own alias table (lib/utils/cmd-list.js), typos included. */
const ALIASES: Record<string, string> = {
  author: 'owner',
  home: 'docs',
  issues: 'bugs',
  info: 'view',
  show: 'view',
  find: 'search',
  add: 'install',
  unlink: 'uninstall',
  remove: 'uninstall',
  rm: 'uninstall',
  r: 'uninstall',
  un: 'uninstall',
  rb: 'rebuild',
  list: 'ls',
  ln: 'link',
  create: 'init',
  i: 'install',
  it: 'install-test',
  cit: 'install-ci-test',
  up: 'update',
  c: 'config',
  s: 'search',
  se: 'search',
  tst: 'test',
  t: 'test',
  ddp: 'dedupe',
  v: 'view',
  run: 'run-script',
  'clean-install': 'ci',
  'clean-install-test': 'install-ci-test',
  x: 'exec',
  why: 'explain',
  la: 'll',
  verison: 'version',
  ic: 'ci',
  innit: 'init',
  isntall: 'install',
  'install-clean': 'ci',
  'isntall-clean': 'ci',
  hlep: 'help',
  'dist-tags': 'dist-tag',
  upgrade: 'update',
  udpate: 'update',
  rum: 'run-script',
  sit: 'install-ci-test',
  urn: 'run-script',
  ogr: 'org',
  'add-user': 'adduser',
  get: 'config get',
};

const subcommands: Record<string, SubcommandSpec> = {};
for (const name of COMMANDS.split(' ')) subcommands[name] = { grammar: ANY };

/**
 * Commands that only read the project's installed tree, its lock file or the registry's public data, with
 * their options as `npm <command> --help` lists them (npm 11). npm reads any config key as an option: one not
 * listed here makes the command unknown, and abbreviations are not read (`--scr` could be `--script-shell`).
 */
const WORKSPACES = 'workspace=/w workspaces include-workspace-root';
const READS: Record<string, [flags: string, long: string]> = {
  ls: [
    'alpg',
    `all/a json long/l parseable/p global/g depth= omit= include= link package-lock-only unicode no-unicode ` +
      `${WORKSPACES} install-links help`,
  ],
  ll: [
    'alpg',
    `all/a json long/l parseable/p global/g depth= omit= include= link package-lock-only unicode no-unicode ` +
      `${WORKSPACES} install-links help`,
  ],
  view: ['', `json ${WORKSPACES} help`],
  outdated: [
    'alpg',
    `all/a json long/l parseable/p global/g ${WORKSPACES} before= min-release-age= min-release-age-exclude= help`,
  ],
  explain: ['', `json ${WORKSPACES} help`],
  root: ['g', 'global/g help'],
  prefix: ['g', 'global/g help'],
  'help-search': ['l', 'long/l help'],
  pkg: ['', `json ${WORKSPACES} help`],
  query: ['g', `global/g ${WORKSPACES} package-lock-only expect-results expect-result-count= help`],
  fund: ['', `json unicode no-unicode ${WORKSPACES} help`],
  'run-script': ['', `${WORKSPACES} help`],
  search: [
    'p',
    'json no-color parseable/p description no-description searchlimit= searchopts= searchexclude= ' +
      'prefer-online prefer-offline offline help',
  ],
  audit: [
    '',
    `audit-level= json omit= include= package-lock-only no-package-lock ${WORKSPACES} include-attestations help`,
  ],
  help: ['', 'help'],
  whoami: ['', 'help'],
  ping: ['', 'help'],
  stars: ['', 'help'],
  sbom: ['', `omit= package-lock-only sbom-format= sbom-type= ${WORKSPACES} help`],
  version: ['', 'json help'],
  // `npm dedupe --dry-run`: builds the tree dedupe would make and prints the difference; not --install-links,
  // which packs (and prepares) file: dependencies.
  'find-dupes': [
    '',
    'install-strategy= legacy-bundling global-style strict-peer-deps no-package-lock omit= include= ' +
      `ignore-scripts no-audit no-bin-links no-fund ${WORKSPACES} help`,
  ],
};
/**
 * Reads below a second word (`npm config get`, `npm dist-tag ls`), with their options (npm 11). `config`
 * prints protected keys (tokens, passwords, credentials in a URL) as `(protected)` or `***` and refuses to
 * `get` them; keys that name a credential are refused here too, for the npm releases that printed them.
 */
const NESTED_READS: Record<string, Record<string, [flags: string, long: string]>> = {
  config: {
    get: ['gl', 'json global/g location=/L long/l help'],
    list: ['gl', 'json global/g location=/L long/l help'],
    ls: ['gl', 'json global/g location=/L long/l help'],
  },
  'dist-tag': { ls: ['', `${WORKSPACES} help`], list: ['', `${WORKSPACES} help`] },
  owner: { ls: ['', 'help'], list: ['', 'help'] },
  cache: { ls: ['', 'help'] },
};
/**
 * A registry package: a name, optionally scoped, with a version, range or tag. npm reads any other spec
 * (`user/repo`, `git+ssh://…`, `./dir`, `a.tgz`, `x@npm:y`) by cloning, running git over ssh or unpacking a file.
 */
const REGISTRY_SPEC = /^(?:@[a-z0-9][\w.~-]*\/)?[a-z0-9][\w.~-]*(?:@[\w.^~<>=*|+ -]+)?$/i;
const FILE_SPEC = /\.(?:tgz|tar|tar\.gz)$/i;

/** `npm view`'s first operand is the package it fetches; the rest are fields of its document. */
function registrySpec(parsed: Parsed, words: readonly Word[]): string | undefined {
  const first = parsed.operands[0];
  if (first === undefined) return undefined;
  const word = words[first]!;
  if (word.static && (word.value === '.' || (REGISTRY_SPEC.test(word.value) && !FILE_SPEC.test(word.value))))
    return undefined;
  return `npm view ${word.text} is not a registry package: npm may clone it, run git or ssh, or unpack a file`;
}

/** `npm pkg get` prints package.json's fields; `set`, `delete` and `fix` write it. */
function pkgGet(parsed: Parsed, words: readonly Word[]): string | undefined {
  const first = parsed.operands[0];
  const word = first === undefined ? undefined : words[first];
  return word?.static && word.value === 'get' ? undefined : 'npm pkg writes package.json but with get';
}

/** `npm fund PKG` and `npm run NAME` open a browser or run a script; without an operand they list. */
function noOperands(parsed: Parsed): string | undefined {
  return parsed.operands.length > 0 ? 'with a package or script named, npm opens or runs it' : undefined;
}

/**
 * `npm help TERM` runs the configured viewer: man (and its formatters), emacsclient, or with `viewer=browser`
 * the `browser` program a project's .npmrc may name. Without a term it prints its usage.
 */
function helpUsage(parsed: Parsed): string | undefined {
  return parsed.operands.length > 0 ? "npm help TERM runs the viewer npm's configuration names" : undefined;
}

/** `npm audit` and `npm audit signatures` ask the registry; `npm audit fix` installs. */
function auditReport(parsed: Parsed, words: readonly Word[]): string | undefined {
  const [first, ...rest] = parsed.operands.map((index) => words[index]!);
  if (first === undefined || (first.static && first.value === 'signatures' && rest.length === 0))
    return undefined;
  return 'npm audit fix installs packages and runs their scripts';
}

/** Keys whose value is a credential: `_authToken`, `//host/:_password`, `https-proxy` with its password. */
const SECRET_KEY = /_auth|token|pass|proxy|cert|key|otp|username|email|secret|:/i;

/** `npm config get KEY…` of keys that are not credentials. */
function plainKeys(parsed: Parsed, words: readonly Word[]): string | undefined {
  const secret = parsed.operands
    .map((index) => words[index]!)
    .find((w) => !w.static || SECRET_KEY.test(w.value));
  return secret ? `npm config get ${secret.text} may print a credential` : undefined;
}

/** `npm owner ls PKG` and `npm dist-tag ls PKG` read a registry package. */
function registryPackage(parsed: Parsed, words: readonly Word[]): string | undefined {
  return parsed.operands.length > 1 ? 'more than one package' : registrySpec(parsed, words);
}

const CHECKS: Record<string, NonNullable<SubcommandSpec['readOnly']>['check']> = {
  view: registrySpec,
  pkg: pkgGet,
  fund: noOperands,
  'run-script': noOperands,
  help: helpUsage,
  audit: auditReport,
  whoami: noOperands,
  ping: noOperands,
  sbom: noOperands,
  version: noOperands,
  'find-dupes': noOperands,
  'config get': plainKeys,
  'config list': noOperands,
  'config ls': noOperands,
  'dist-tag ls': registryPackage,
  'dist-tag list': registryPackage,
  'owner ls': registryPackage,
  'owner list': registryPackage,
  'cache ls': registryPackage,
};

/**
 * npm reads any word starting with `-` as a config key (`--registry`, `--script-shell`): a word only known at
 * run time may be one.
 */
function staticOptions(parsed: Parsed, words: readonly Word[]): string | undefined {
  const word = parsed.operands
    .map((index) => words[index]!)
    .find((w) => !w.static && !/^[^-]/.test(leadingText(w)));
  return word ? `npm reads ${word.text} as a setting when it starts with -` : undefined;
}

function readSpec(name: string, flags: string, long: string): SubcommandSpec {
  const values = [...long.matchAll(/=\/(\w)/g)].map((m) => m[1]).join('');
  const g = grammar({ flags, values, long, abbreviate: false });
  const more = CHECKS[name];
  const check = (parsed: Parsed, words: readonly Word[]) =>
    staticOptions(parsed, words) ?? more?.(parsed, words);
  return { grammar: g, readOnly: readOnly(() => everyOption(g), 'inert', { check }) };
}

for (const [name, [flags, long]] of Object.entries(READS)) subcommands[name] = readSpec(name, flags, long);
for (const [name, verbs] of Object.entries(NESTED_READS)) {
  const nested: Record<string, SubcommandSpec> = {};
  for (const [verb, [flags, long]] of Object.entries(verbs))
    nested[verb] = readSpec(`${name} ${verb}`, flags, long);
  subcommands[name] = { grammar: ANY, subcommands: nested };
}

/** npm's options before the subcommand and its subcommands, for the read-only allow-list. */
const spec: ProgramSpec = {
  name: 'npm',
  grammar: grammar({
    flags: 'sgdqy',
    values: 'Cw',
    long:
      'prefix=/C workspace=/w workspaces silent/s global/g userconfig= globalconfig= registry= cache= ' +
      'loglevel= otp= help version',
    abbreviate: false,
  }),
  subcommands,
  subcommandAliases: ALIASES,
  abbreviateSubcommands: true,
};

/** npm's options anywhere on the line, as the script runner reads them; unlisted ones are flags. */
const NPM = grammar({
  flags: 'gDSOEByqsdhvlfP',
  values: 'wC',
  long:
    'prefix=/C workspace=/w userconfig= globalconfig= cache= registry= loglevel= script-shell= node-options= ' +
    'tag= otp= access= omit= include= install-strategy= before= help/h version/v',
  unlistedFlags: /./,
});

const NPM_ALIASES: Record<string, string> = {
  'run-script': 'run',
  rum: 'run',
  urn: 'run',
  t: 'test',
  tst: 'test',
  i: 'install',
  in: 'install',
  ins: 'install',
  inst: 'install',
  insta: 'install',
  instal: 'install',
  isnt: 'install',
  isnta: 'install',
  isntal: 'install',
  isntall: 'install',
  add: 'install',
  'clean-install': 'ci',
  ic: 'ci',
  'install-clean': 'ci',
  'isntall-clean': 'ci',
  x: 'exec',
  rb: 'rebuild',
  up: 'update',
  upgrade: 'update',
  udpate: 'update',
  ln: 'link',
  it: 'install-test',
  cit: 'install-ci-test',
};

const LIFECYCLE = new Set([
  'install',
  'ci',
  'rebuild',
  'update',
  'link',
  'pack',
  'publish',
  'version',
  'install-test',
  'install-ci-test',
]);

function npm(cmd: CommandView): NestedSpec[] {
  const found = subcommand(cmd, NPM);
  if (found.failure) return [found.failure];
  const { parsed, sub, operands } = found;
  const specs = optionsNamed(parsed, '--script-shell').map((option) =>
    shellSpec(option.value!, 'npm --script-shell'),
  );
  if (!sub || has(parsed, 'v', 'h')) return specs;
  const dynamic = dynamicSub(cmd, sub);
  if (dynamic) return dynamic;
  const name = NPM_ALIASES[sub.word.value] ?? sub.word.value;
  if (name === 'run')
    return operands[1] ? [...specs, projectScript(cmd, 'npm run', operands[1], sub.word)] : specs;
  if (['test', 'start', 'stop', 'restart'].includes(name)) {
    return [...specs, codeSpec('script-file', 'npm', `npm ${name}`, sub.word, name)];
  }
  if (name === 'exec') return [...specs, ...npx(cmd, sub.index + 1, 'npm exec')];
  // `npm version` without a new version prints the versions it knows.
  if (LIFECYCLE.has(name) && !(name === 'version' && !operands[1]))
    return [...specs, codeSpec('script-file', 'npm', `npm ${name}`, sub.word)];
  if (name === 'explore') {
    const separator = cmd.argv.findIndex((word, index) => index > sub.index && is(word, '--'));
    const command = separator < 0 ? [] : cmd.argv.slice(separator + 1);
    return command.length ? [...specs, shellSpec(joinWords(command), 'npm explore')] : specs;
  }
  return specs;
}

export const NPM_CONFIG: ConfigCommand = {
  config: ['config', 'c'],
  set: ['set'],
  writes: ['set', 'delete', 'rm', 'edit', 'fix'],
  reads: ['get', 'list', 'ls'],
  files: (scope) => (scope === 'project' ? ['.npmrc'] : scope === 'global' ? [undefined] : ['~/.npmrc']),
  scopeOptions: ['--location', '-L'],
  scopeFlags: { '--global': 'global', '-g': 'global' },
  fileOptions: ['--userconfig', '--globalconfig'],
};

export const NPM_MODULE: ProgramModule = {
  names: ['npm'],
  spec,
  configEffects: (cmd) => configEffects(NPM_CONFIG, cmd),
  nested: npm,
  relocation: {
    values: [
      '--prefix',
      '-C',
      '--workspace',
      '-w',
      '--userconfig',
      '--globalconfig',
      '--script-shell',
      '--node-options',
    ],
    flags: ['--workspaces', '--ws'],
  },
  // The read commands ask the registry (view, outdated) or npm's update notifier does.
  network: (cmd) => {
    const sub = subcommandOf(spec, cmd);
    return (
      sub !== undefined && (Object.hasOwn(READS, sub) || Object.hasOwn(NESTED_READS, sub.split(' ')[0]!))
    );
  },
  oracle: {
    cases: [
      'npm find-dupes',
      'npm config set script-shell /tmp/x',
      'npm set script-shell=/tmp/x',
      'npm config set a=b --location project',
      'npm config set a=b --userconfig u.rc',
      'npm config delete a',
      'npm config get registry',
      'npm --script-shell /tmp/x run build',
      'npm explore pkg -- ls -l',
      'npm view react',
      'npm view react@18 version',
      'npm view @types/node dist-tags --json',
      'npm ls',
      'npm ls --all --json',
      'npm list --depth 0',
      'npm explain react',
      'npm root',
      'npm prefix -g',
      'npm help-search -l install',
      'npm pkg get name version',
      'npm pkg get --json scripts',
      'npm pkg set name=x',
      'npm query ":root > .prod"',
      'npm query --package-lock-only "*"',
      'npm fund --json',
      'npm run',
      'npm run-script --workspaces',
      'npm search lodash',
      'npm search --json -p --searchlimit 5 react',
      'npm audit --json',
      'npm audit signatures',
      'npm config list',
      'npm config ls -l',
      'npm get registry',
      'npm config get init-author-name cache',
      'npm help',
      'npm whoami',
      'npm ping',
      'npm version',
      'npm version --json',
      'npm sbom --sbom-format spdx',
      'npm dist-tag ls',
      'npm owner ls lodash',
      'npm cache ls',
      'npm stars',
    ],
  },
};
