import {
  type CommandView,
  DYN,
  type EffectsResult,
  type FileAccess,
  type FileEffect,
  type Word,
} from '../../types.js';
import { argument, option, treeWrite, UNKNOWN, underFolder } from '../effect-helpers.js';
import { has, lastValue, operandWords, optionsNamed, type Parsed } from '../options.js';
import { parsePflag } from '../pflag.js';
import type { ParsedCommand } from '../program.js';
import { is, leadingText, syntheticWord } from '../words.js';
import { asksHelp, DOCKER_SPEC } from './spec.js';

export function parseDocker(cmd: CommandView): ParsedCommand | undefined {
  return parsePflag(DOCKER_SPEC, cmd.argv);
}

/** `group command` (`container cp`) of a parse, aliases resolved; '' for `docker` alone. */
export function commandPath(parsed: ParsedCommand): string {
  return parsed.levels.at(-1)!.name.split(' ').slice(1).join(' ');
}

/** Part of a word's value, as a word of its own: static when that part holds nothing only known at run time. */
function piece(word: Word, value: string): Word {
  const fixed = !value.includes(DYN) && (word.static || !/[*?[]/.test(value));
  return {
    text: value,
    value,
    static: fixed,
    dynamic: fixed ? [] : [...word.dynamic],
    span: { ...word.span },
  };
}

/** `key=value,key=value` (mounts, build outputs, secrets): the value of the first of `keys` given. */
function field(word: Word, ...keys: string[]): Word | undefined {
  for (const part of word.value.split(',')) {
    const eq = part.indexOf('=');
    if (eq > 0 && keys.includes(part.slice(0, eq))) return piece(word, part.slice(eq + 1));
  }
  return undefined;
}

export interface Context {
  cmd: CommandView;
  parsed: Parsed;
  /** The client configuration folder: `--config`, else `~/.docker`. */
  config: Word;
  effects: FileEffect[];
  known: boolean;
}

function inConfig(ctx: Context, name: string): Word {
  return underFolder(ctx.config, syntheticWord(name, ctx.config.span));
}

function optionFiles(ctx: Context, files: Record<string, FileAccess>): void {
  for (const found of ctx.parsed.options) {
    const access = files[found.name];
    if (access && found.value && !is(found.value, '-')) ctx.effects.push(option(access, found.value));
  }
}

/** A URL or a git remote: the command fetches it, no local file is named. */
function remote(word: Word): boolean {
  return /^([a-z][a-z0-9+.-]*:\/\/|git@|github\.com\/)/i.test(leadingText(word));
}

/**
 * `docker cp`: `CONTAINER:PATH` is a path in a container; an absolute path, one without `:`, or one whose part
 * before the `:` starts with `.` (`./a:b`) is local.
 */
function localCopyPath(word: Word): boolean {
  const lead = leadingText(word);
  if (lead.startsWith('/')) return true;
  const colon = lead.indexOf(':');
  if (colon < 0) return true;
  return lead.slice(0, colon).startsWith('.');
}

function cp(ctx: Context): void {
  const [source, target] = operandWords(ctx.cmd.argv, ctx.parsed);
  if (!source || !target) return;
  if (localCopyPath(source) && !is(source, '-')) ctx.effects.push(argument('read', source));
  if (localCopyPath(target) && !is(target, '-')) {
    // What a container's folder holds is not known here: every name below the target may be written.
    ctx.effects.push(
      localCopyPath(source) || is(source, '-')
        ? argument('write', target)
        : treeWrite(target, 'argument', { kind: 'unknown', why: `${source.text} is a container's` }),
    );
  }
  if (!leadingText(source).includes(':') && !source.static) ctx.known = false;
  if (!leadingText(target).includes(':') && !target.static) ctx.known = false;
}

/** Options that give a container what the host has beyond its mounts: its files are then not all known. */
const HOST_ACCESS = [
  '--privileged',
  '--cap-add',
  '--pid',
  '--userns',
  '--uts',
  '--ipc',
  '--cgroupns',
  '--volumes-from',
  '--use-api-socket',
  '--device-cgroup-rule',
  '--security-opt',
];

/** A `-v` source that is a host path: a named volume has neither a slash nor a leading `.` or `~`. */
function hostPath(word: Word): boolean {
  return !word.static || /^[.~]|\//.test(word.value);
}

function bind(ctx: Context, source: Word, readOnly: boolean): void {
  ctx.effects.push(option('read', source));
  if (!readOnly) ctx.effects.push(option('write', source));
}

/** `-v SOURCE:TARGET[:OPTIONS]` and `--mount type=bind,source=…`: a host folder the container reads and writes. */
function mounts(ctx: Context, volumes: string[], mountOptions: string[]): void {
  for (const found of optionsNamed(ctx.parsed, ...volumes)) {
    const value = found.value!;
    const parts = value.value.split(':');
    if (parts.length < 2) {
      if (!value.static) ctx.known = false;
      continue;
    }
    const source = piece(value, parts[0]!);
    if (hostPath(source)) bind(ctx, source, /(^|,)ro($|,)/.test(parts[2] ?? ''));
  }
  for (const found of optionsNamed(ctx.parsed, ...mountOptions)) {
    const value = found.value!;
    const type = field(value, 'type')?.value ?? 'volume';
    const source = field(value, 'source', 'src');
    if (!value.static && (!source || type !== 'bind')) ctx.known = false;
    if (type !== 'bind' || !source) continue;
    bind(ctx, source, /(^|,)(readonly|ro)(=(true|1))?($|,)/.test(value.value));
  }
}

function container(ctx: Context): void {
  optionFiles(ctx, { '--env-file': 'read', '--label-file': 'read', '--cidfile': 'write' });
  mounts(ctx, ['v'], ['--mount']);
  for (const found of optionsNamed(ctx.parsed, '--security-opt')) {
    const profile = found.value && /^seccomp[=:]/.test(leadingText(found.value)) ? found.value : undefined;
    if (profile && !/^seccomp[=:]unconfined$/.test(profile.value)) {
      ctx.effects.push(option('read', piece(profile, profile.value.slice('seccomp='.length))));
    }
  }
  for (const found of optionsNamed(ctx.parsed, '--device')) {
    ctx.effects.push(option('write', piece(found.value!, found.value!.value.split(':')[0]!)));
  }
  const escapes = ctx.parsed.options.some(
    (found) =>
      HOST_ACCESS.includes(found.name) &&
      !(found.name === '--security-opt' && found.value && /^seccomp[=:]/.test(found.value.value)),
  );
  if (escapes) ctx.known = false;
}

/** The local paths a build reads besides its context, and the files it writes. */
function build(ctx: Context): void {
  const [context] = operandWords(ctx.cmd.argv, ctx.parsed);
  if (context && !is(context, '-') && !remote(context)) ctx.effects.push(argument('read', context));
  optionFiles(ctx, { f: 'read', '--iidfile': 'write', '--metadata-file': 'write' });
  for (const found of optionsNamed(ctx.parsed, '--build-context')) {
    const value = found.value!;
    const eq = value.value.indexOf('=');
    const path = piece(value, value.value.slice(eq + 1).replace(/^oci-layout:\/\//, ''));
    if (!remote(path) && !/^docker-image:/.test(path.value)) ctx.effects.push(option('read', path));
  }
  for (const found of optionsNamed(ctx.parsed, '--secret')) {
    const value = found.value!;
    const source = field(value, 'src', 'source');
    if (source) ctx.effects.push(option('read', source));
    else if (!field(value, 'env')) ctx.effects.push(option('read', field(value, 'id') ?? value));
  }
  for (const found of optionsNamed(ctx.parsed, '--ssh')) {
    const value = found.value!;
    const eq = value.value.indexOf('=');
    const paths = eq < 0 ? ['~/.ssh'] : value.value.slice(eq + 1).split(',');
    for (const path of paths) ctx.effects.push(option('read', piece(value, path)));
  }
  for (const found of optionsNamed(ctx.parsed, 'o', '--cache-to')) {
    const value = found.value!;
    if (is(value, '-')) continue;
    const dest = leadingText(value).includes('=') ? field(value, 'dest') : value;
    if (dest && !is(dest, '-')) ctx.effects.push(option('write', dest));
    if (!value.static && !dest) ctx.known = false;
  }
  for (const found of optionsNamed(ctx.parsed, '--cache-from')) {
    const source = field(found.value!, 'src');
    if (source) ctx.effects.push(option('read', source));
  }
  for (const found of optionsNamed(ctx.parsed, '--allow')) {
    const value = found.value!;
    const fs = /^fs(\.read|\.write)?=(.*)$/.exec(value.value);
    if (!fs) continue;
    const path = piece(value, fs[2]!);
    if (fs[1] !== '.write') ctx.effects.push(option('read', path));
    if (fs[1] !== '.read') ctx.effects.push(option('write', path));
  }
}

/** The client configuration: logins, contexts, trust keys and manifests are kept in its folder. */
function writesConfig(name: string): (ctx: Context) => void {
  return (ctx) => {
    ctx.effects.push(option('write', inConfig(ctx, name)));
  };
}

/** `docker context create|update --docker host=…,ca=FILE,cert=FILE,key=FILE`. */
function contextFiles(ctx: Context): void {
  writesConfig('contexts')(ctx);
  for (const found of optionsNamed(ctx.parsed, '--docker')) {
    for (const key of ['ca', 'cert', 'key']) {
      const file = field(found.value!, key);
      if (file) ctx.effects.push(option('read', file));
    }
  }
}

/** The n-th operand, read as a file unless it is `-` (stdin) or a URL. */
function operandFile(n: number, access: FileAccess): (ctx: Context) => void {
  return (ctx) => {
    const word = operandWords(ctx.cmd.argv, ctx.parsed)[n];
    if (word && !is(word, '-') && !remote(word)) ctx.effects.push(argument(access, word));
  };
}

function unknown(ctx: Context): void {
  ctx.known = false;
}

function all(...steps: ((ctx: Context) => void)[]): (ctx: Context) => void {
  return (ctx) => {
    for (const step of steps) step(ctx);
  };
}

/**
 * compose's own options name the files it reads: the compose files, env files and the project folder (its
 * compose files and .env). A command of compose not listed in the spec is the plugin's code: unknown.
 */
export function composeFiles(ctx: Context): void {
  optionFiles(ctx, { f: 'read', '--env-file': 'read', '--project-directory': 'read' });
}

/** What each command does to local files; a command not listed touches none (it talks to the daemon only). */
const COMMAND_EFFECTS: Readonly<Record<string, (ctx: Context) => void>> = {
  'container cp': cp,
  'container run': container,
  'container create': container,
  'container exec': (ctx) => {
    optionFiles(ctx, { '--env-file': 'read' });
    if (has(ctx.parsed, '--privileged')) ctx.known = false;
  },
  'container export': (ctx) => optionFiles(ctx, { o: 'write' }),
  'container start': (ctx) => optionFiles(ctx, { '--checkpoint-dir': 'read' }),
  'checkpoint create': (ctx) => optionFiles(ctx, { '--checkpoint-dir': 'write' }),
  'checkpoint ls': (ctx) => optionFiles(ctx, { '--checkpoint-dir': 'read' }),
  'checkpoint rm': (ctx) => optionFiles(ctx, { '--checkpoint-dir': 'write' }),
  'image build': build,
  'builder build': build,
  'image import': operandFile(0, 'read'),
  'image load': (ctx) => optionFiles(ctx, { i: 'read' }),
  'image save': (ctx) => optionFiles(ctx, { o: 'write' }),
  login: writesConfig('config.json'),
  logout: writesConfig('config.json'),
  'context create': contextFiles,
  'context update': contextFiles,
  'context export': (ctx) => {
    const [name, file] = operandWords(ctx.cmd.argv, ctx.parsed);
    const target = file ?? (name ? piece(name, `${name.value}.dockercontext`) : undefined);
    if (target && !is(target, '-')) ctx.effects.push(argument('write', target));
  },
  'context import': all(operandFile(1, 'read'), writesConfig('contexts')),
  'context rm': writesConfig('contexts'),
  'context use': writesConfig('config.json'),
  'manifest annotate': writesConfig('manifests'),
  'manifest create': writesConfig('manifests'),
  'manifest push': writesConfig('manifests'),
  'manifest rm': writesConfig('manifests'),
  'plugin create': operandFile(1, 'read'),
  'plugin install': unknown,
  'plugin upgrade': unknown,
  'trust key generate': (ctx) => {
    const [name] = operandWords(ctx.cmd.argv, ctx.parsed);
    const folder = lastValue(ctx.parsed, '--dir');
    if (name) {
      const key = piece(name, `${name.value}.pub`);
      ctx.effects.push(argument('write', folder ? underFolder(folder, key) : key));
    }
    writesConfig('trust')(ctx);
  },
  'trust key load': all(operandFile(0, 'read'), writesConfig('trust')),
  'trust signer add': all((ctx) => optionFiles(ctx, { '--key': 'read' }), writesConfig('trust')),
  'trust signer remove': writesConfig('trust'),
  'trust revoke': writesConfig('trust'),
  // Inspecting fetches the repository's trust data from its notary server into the trust folder.
  'trust inspect': writesConfig('trust'),
  'trust sign': writesConfig('trust'),
  'config create': operandFile(1, 'read'),
  'secret create': operandFile(1, 'read'),
  'service create': (ctx) => {
    optionFiles(ctx, { '--env-file': 'read' });
    mounts(ctx, [], ['--mount']);
  },
  'service update': (ctx) => mounts(ctx, [], ['--mount-add']),
  // `--opt device=PATH --opt o=bind`: a named volume that is a host folder.
  'volume create': (ctx) => {
    for (const found of optionsNamed(ctx.parsed, 'o')) {
      const device = /^device=(.*)$/.exec(found.value!.value);
      if (device) bind(ctx, piece(found.value!, device[1]!), false);
      else if (!found.value!.static) ctx.known = false;
    }
  },
  // A compose file names more files (env files, bind mounts, build contexts).
  'stack config': all((ctx) => optionFiles(ctx, { c: 'read' }), unknown),
  'stack deploy': all((ctx) => optionFiles(ctx, { c: 'read' }), unknown),
  'compose config': (ctx) => optionFiles(ctx, { o: 'write' }),
  'swarm ca': (ctx) => optionFiles(ctx, { '--ca-cert': 'read', '--ca-key': 'read' }),
};

/**
 * Commands that reach a registry: the client itself (`manifest`, `trust`; podman for all of them) or the daemon on
 * its behalf (a pull, a push, a base image, a plugin); either way what they send or fetch crosses the network.
 */
export const REGISTRY = new Set([
  'image pull',
  'image push',
  'image build',
  'builder build',
  'search',
  'login',
  'container run',
  'container create',
  'manifest inspect',
  'manifest create',
  'manifest push',
  'plugin install',
  'plugin upgrade',
  'plugin push',
  'service create',
  'service update',
  'stack deploy',
]);

/**
 * The files a docker command touches on this machine. The daemon is taken to be local: a bind mount, a build
 * context and `docker cp` reach the host's files. A command the spec does not know (a CLI plugin such as
 * compose or buildx) has unknown effects.
 */
export function dockerEffects(cmd: CommandView): EffectsResult {
  if (cmd.program !== 'docker') return UNKNOWN;
  const parsed = parseDocker(cmd);
  if (!parsed || parsed.unknownSubcommand) return UNKNOWN;
  const global = parsed.levels[0]!.parsed;
  const last = parsed.levels.at(-1)!;
  const configDir = lastValue(global, '--config');
  const ctx: Context = {
    cmd,
    parsed: last.parsed,
    config: configDir ?? syntheticWord('~/.docker', cmd.argv[0]!.span),
    effects: [],
    known: parsed.levels.every(
      (level) => level.parsed.unknown.length === 0 && level.parsed.suspects.length === 0,
    ),
  };
  if (configDir) ctx.effects.push(option('read', configDir));
  for (const found of optionsNamed(global, '--tlscacert', '--tlscert', '--tlskey')) {
    ctx.effects.push(option('read', found.value!));
  }
  if (asksHelp(global, DOCKER_SPEC.grammar) || has(global, 'v'))
    return { effects: ctx.effects, known: ctx.known };
  const path = commandPath(parsed);
  // A daemon elsewhere (`-H tcp://…`, `ssh://…`) is sent the registry credentials of a pull, push or build.
  const host = lastValue(global, 'H');
  if (host && (!host.static || !/^(unix|npipe|fd):\/\//.test(host.value)) && REGISTRY.has(path))
    ctx.effects.push(option('read', underFolder(ctx.config, syntheticWord('config.json', host.span))));
  if (path === '' || asksHelp(last.parsed, last.spec.grammar))
    return { effects: ctx.effects, known: ctx.known };
  const plugin = parsed.levels[1];
  if (plugin?.name === 'docker compose') composeFiles({ ...ctx, parsed: plugin.parsed });
  if (last.spec.subcommands) return { effects: ctx.effects, known: ctx.known };
  COMMAND_EFFECTS[path]?.(ctx);
  return { effects: ctx.effects, known: ctx.known };
}
