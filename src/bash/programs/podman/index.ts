import type { CommandView, EffectsResult, NestedSpec } from '../../types.js';
import { asksHelp } from '../docker/spec.js';
import { UNKNOWN } from '../effect-helpers.js';
import type { ProgramModule } from '../module.js';
import { has, lastValue, operandWords } from '../options.js';
import { parsePflag } from '../pflag.js';
import type { ParsedCommand } from '../program.js';
import { argvSpec, codeIn, codeSpec, unresolved } from '../specs.js';
import { joinWords, leadingText } from '../words.js';
import { PODMAN_SPEC } from './spec.js';

function parsePodman(cmd: CommandView): ParsedCommand | undefined {
  return parsePflag(PODMAN_SPEC, cmd.argv);
}

/** `group command` (`container list`) of a parse, aliases resolved; '' for `podman` alone. */
function commandPath(parsed: ParsedCommand): string {
  return parsed.levels.at(-1)!.name.split(' ').slice(1).join(' ');
}

/** Commands that run code in a container: the command given after the image (or container), else its default. */
const RUNS = new Set(['run', 'create', 'exec', 'container run', 'container create', 'container exec']);

/**
 * Commands that run code the command line does not show: a Containerfile's RUN steps, a kube YAML's containers,
 * a healthcheck's command, an image label's command run on the host (`container runlabel`), containers restarted
 * from a newer image (`auto-update`), the machine's ssh.
 */
const HIDDEN = new Set([
  'build',
  'image build',
  'kube play',
  'auto-update',
  'healthcheck run',
  'container runlabel',
  'machine ssh',
]);

/**
 * Commands that reach a registry or another machine: a pull, a push, a build's base image, a search, a login, a
 * manifest fetched or pushed, a kube YAML's images, an auto-update's newer image, an image copied over ssh.
 */
const NETWORK = new Set([
  'pull',
  'image pull',
  'push',
  'image push',
  'build',
  'image build',
  'run',
  'container run',
  'create',
  'container create',
  'search',
  'image search',
  'login',
  'manifest inspect',
  'manifest add',
  'manifest create',
  'manifest push',
  'kube play',
  'auto-update',
  'container runlabel',
  'image scp',
  'pod create',
  'machine init',
]);

/** Options (global, or persistent after a command) naming a program podman runs. */
const HELPERS = ['--conmon', '--runtime', '--network-cmd-path', '--hooks-dir'];

/** A service elsewhere: `--remote`, `--connection` or `--identity`, or a `--url` other than a local socket. */
function remoteService(cmd: CommandView, parsed: ParsedCommand): boolean {
  const global = parsed.levels[0]!.parsed;
  const url = lastValue(global, '--url');
  return (
    has(global, 'r') ||
    lastValue(global, 'c') !== undefined ||
    lastValue(global, '--identity') !== undefined ||
    (url !== undefined && (!url.static || !/^unix:\/\//.test(url.value))) ||
    cmd.assignments.some((a) => /^CONTAINER_(HOST|CONNECTION|SSHKEY)$/.test(a.name))
  );
}

/**
 * What podman runs besides itself: the code of a container, a Containerfile's or kube YAML's, the helpers its
 * global options name (`--conmon`, `--runtime`, `--network-cmd-path`, OCI hooks), a command `podman unshare`
 * runs on the host, and ssh or a connection's configuration for a remote service. Its configuration
 * (~/.config/containers, which names helpers too) is protected: automode asks before anything writes it.
 */
function podmanNested(cmd: CommandView): NestedSpec[] {
  const parsed = parsePodman(cmd);
  if (!parsed) return [unresolved('podman: options it cannot read', cmd.argv[0]!)];
  const specs: NestedSpec[] = [];
  for (const level of parsed.levels) {
    for (const name of HELPERS) {
      const value = lastValue(level.parsed, name);
      if (value) specs.push(codeIn('program-option', 'podman', name, value));
    }
  }
  const global = parsed.levels[0]!.parsed;
  const ssh = lastValue(global, '--ssh');
  if (ssh && !(ssh.static && ssh.value === 'golang'))
    specs.push(codeIn('program-option', 'podman', '--ssh', ssh));
  const connection = lastValue(global, 'c');
  if (connection) specs.push(codeIn('environment', 'podman', '--connection', connection));
  const unknown = parsed.unknownSubcommand;
  if (unknown) {
    // podman has no plugins: a command it does not know is an error.
    return unknown.word.static
      ? specs
      : [...specs, unresolved('podman subcommand only known at run time', unknown.word)];
  }
  const path = commandPath(parsed);
  const last = parsed.levels.at(-1)!;
  const at = cmd.argv[last.index]!;
  const via = `podman ${path.split(' ').at(-1)}`;
  if (path === 'unshare') {
    const words = operandWords(cmd.argv, last.parsed);
    return words.length > 0
      ? [...specs, argvSpec(words, via, { kind: 'option' })]
      : [...specs, codeSpec('program-option', 'podman', via, at)];
  }
  if (HIDDEN.has(path)) return [...specs, codeSpec('program-option', 'podman', via, at)];
  if (!RUNS.has(path)) return specs;
  if (last.parsed.unknown.length || last.parsed.suspects.length) {
    return [...specs, codeSpec('program-option', 'podman', via, at)];
  }
  const command = operandWords(cmd.argv, last.parsed).slice(1);
  const entrypoint = lastValue(last.parsed, '--entrypoint');
  const words = entrypoint && leadingText(entrypoint) !== '' ? [entrypoint, ...command] : command;
  if (words.length === 0) return [...specs, codeSpec('program-option', 'podman', via, at)];
  const text = joinWords(words);
  return [...specs, codeSpec('program-option', 'podman', via, text, text.static ? text.value : undefined)];
}

/**
 * The files a podman command touches, known for the commands that only read its state (every option of theirs
 * read-only), for `--help` and `--version`: none named on the command line. podman keeps its own state
 * (storage, locks, the rootless user namespace's pause process) in its own folders. Any other command's files
 * (bind mounts, archives, build contexts, `cp`) are not worked out here: unknown.
 */
function podmanEffects(cmd: CommandView): EffectsResult {
  const parsed = parsePodman(cmd);
  if (!parsed || parsed.unknownSubcommand) return UNKNOWN;
  const global = parsed.levels[0]!;
  const printsOnly = (level: number, name: string) =>
    name === '--help' || name === 'h' || (level === 0 && (name === '--version' || name === 'v'));
  const onlyReadOnly = parsed.levels.every(
    (level, k) =>
      level.parsed.unknown.length === 0 &&
      level.parsed.suspects.length === 0 &&
      level.parsed.options.every((o) => level.spec.readOnly?.options.has(o.name) || printsOnly(k, o.name)),
  );
  if (!onlyReadOnly) return UNKNOWN;
  const last = parsed.levels.at(-1)!;
  if (parsed.levels.length === 1) {
    const asked = asksHelp(global.parsed, PODMAN_SPEC.grammar) || has(global.parsed, 'v');
    return asked ? { effects: [], known: true } : UNKNOWN;
  }
  if (asksHelp(last.parsed, last.spec.grammar) || last.spec.readOnly) return { effects: [], known: true };
  return UNKNOWN;
}

function podmanNetwork(cmd: CommandView): boolean {
  const parsed = parsePodman(cmd);
  if (!parsed) return true;
  return remoteService(cmd, parsed) || NETWORK.has(commandPath(parsed));
}

export const PODMAN: ProgramModule = {
  names: ['podman'],
  spec: PODMAN_SPEC,
  effects: podmanEffects,
  nested: podmanNested,
  network: podmanNetwork,
  oracle: {
    cases: [
      'podman ps',
      'podman ps -a --format json',
      'podman container list --all',
      'podman images',
      'podman image ls -q',
      'podman inspect web',
      'podman logs web',
      'podman logs --tail 10 web',
      'podman version',
      'podman info',
      'podman pod ps',
      'podman network ls',
      'podman volume ls',
      'podman container exists web',
      'podman --log-level=debug ps',
      'podman ps --sync',
      'podman ps --root ./store',
      'podman --root .git/hooks ps',
      'podman --url tcp://127.0.0.1:9 ps',
      'podman --remote ps',
      'podman --connection prod ps',
      'podman ps --conmon automode-marker-interp',
      'podman unshare cat .env',
      'podman run --rm alpine true',
      'podman exec web sh',
      'podman cp c:/x .git/hooks/pre-commit',
      'podman foo',
    ],
    operands: ['web', 'c:/x', '.'],
  },
};
