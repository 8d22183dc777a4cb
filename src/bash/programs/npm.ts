import type { CommandView, NestedSpec, Word } from '../types.js';
import { type ProgramModule, subcommandOf } from './module.js';
import { npx } from './npx.js';
import { grammar, has, optionsNamed, type Parsed } from './options.js';
import { type ConfigCommand, configEffects } from './package-managers.js';
import { everyOption, type ProgramSpec, readOnly, type SubcommandSpec } from './program.js';
import { dynamicSub, projectScript, subcommand } from './runners.js';
import { codeSpec, shellSpec } from './specs.js';
import { is, joinWords } from './words.js';

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

const CHECKS: Record<string, NonNullable<SubcommandSpec['readOnly']>['check']> = {
  view: registrySpec,
  pkg: pkgGet,
  fund: noOperands,
  'run-script': noOperands,
};

for (const [name, [flags, long]] of Object.entries(READS)) {
  const g = grammar({ flags, values: 'w', long, abbreviate: false });
  const check = CHECKS[name] ? { check: CHECKS[name] } : {};
  subcommands[name] = { grammar: g, readOnly: readOnly(() => everyOption(g), 'inert', check) };
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
  if (LIFECYCLE.has(name)) return [...specs, codeSpec('script-file', 'npm', `npm ${name}`, sub.word)];
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
    return sub !== undefined && Object.hasOwn(READS, sub);
  },
  oracle: {
    cases: [
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
    ],
  },
};
