import { spawnSync } from 'node:child_process';
import { beforeAll, describe, expect, test } from 'vitest';
import { analyze, loadBash } from '../../../src/bash/analyze.js';
import { PODMAN_SPEC } from '../../../src/bash/programs/podman/spec.js';
import type { SubcommandSpec } from '../../../src/bash/programs/program.js';
import { protectedReason } from '../../../src/policy/paths.js';
import { useSandboxClassifier } from '../../classifier/helpers.js';
import { shown } from './support.js';

beforeAll(loadBash);

/** Reads of podman's own state: every option and operand known to be safe. */
const ALLOWED = [
  'podman ps',
  'podman ps -a --format json',
  'podman container ls -q',
  'podman container list --all --no-trunc',
  'podman images',
  'podman image ls --digests',
  'podman inspect web',
  'podman container inspect -f "{{.State.Status}}" web',
  'podman image inspect alpine',
  'podman logs web',
  'podman logs --tail 100 -t web',
  'podman pod logs -c web p',
  'podman version',
  'podman info --format json',
  'podman system info',
  'podman pod ps',
  'podman pod ls',
  'podman network ls',
  'podman volume inspect v',
  'podman container exists web',
  'podman top web',
  'podman port -a',
  'podman stats --no-stream',
  'podman history alpine',
  'podman system connection list',
  'podman --log-level=debug ps',
  'podman ps --log-level debug',
  'podman --version',
  'podman ps --help',
];

/** Look-alikes that write, run code or talk to another machine: never allowed by the defaults. */
const NOT_ALLOWED = [
  'podman run --rm alpine',
  'podman exec web sh',
  'podman unshare cat /etc/shadow',
  'podman rm web',
  'podman rmi alpine',
  'podman pull alpine',
  'podman build .',
  'podman cp web:/x .',
  'podman --remote ps',
  'podman -r ps',
  'podman --url tcp://evil:8080 ps',
  'podman --url unix:///run/podman/podman.sock ps',
  'podman --connection prod ps',
  'podman -c prod images',
  'podman --identity ./key ps',
  'CONTAINER_HOST=tcp://evil:8080 podman ps',
  'CONTAINERS_CONF=./evil.conf podman ps',
  // Where podman's storage and state live, and the helpers it runs: before or after the command.
  'podman --root ./store ps',
  'podman ps --root ./store',
  'podman ps --runroot ./run',
  'podman ps --conmon ./x',
  'podman ps --runtime ./x',
  'podman info --network-cmd-path ./x',
  'podman ps --hooks-dir ./hooks',
  // ps --sync writes the containers' state; --size mounts each container's layers; diff and df mount too.
  'podman ps --sync',
  'podman ps --size',
  'podman inspect -s web',
  'podman diff web',
  'podman system df',
  'podman healthcheck run web',
  'podman container runlabel install alpine',
  'podman ps --zz-unknown',
  'podman foo',
];

describe('podman: read-only commands of the shipped defaults', () => {
  const sandbox = useSandboxClassifier();
  test.each(ALLOWED)('allows %s', async (command) => {
    const verdict = await sandbox.bash(command);
    expect(verdict.decision, `${command}: ${verdict.reason}`).toBe('allow');
  });
  test.each(NOT_ALLOWED)('does not allow %s', async (command) => {
    const verdict = await sandbox.bash(command);
    expect(verdict.decision, `${command}: ${verdict.reason}`).not.toBe('allow');
  });
});

describe('podman: files and code', () => {
  test.each(['podman ps', 'podman logs -f web', 'podman --version', 'podman images --help'])(
    '%s names no file',
    (line) => {
      expect(shown(line)).toEqual({ known: true, effects: [], code: [] });
    },
  );

  test.each(['podman cp c:/x .git/hooks/pre-commit', 'podman save -o .git/config x', 'podman --root x ps'])(
    '%s: files not worked out, so not known',
    (line) => {
      expect(shown(line).known).toBe(false);
    },
  );

  test.each([
    ['podman run --rm alpine sh -c x', ['program-option podman run']],
    ['podman exec -it web bash', ['program-option podman exec']],
    ['podman build .', ['program-option podman build']],
    ['podman kube play pod.yaml', ['program-option podman play']],
    ['podman container runlabel install alpine', ['program-option podman runlabel']],
    ['podman ps --conmon ./x', ['program-option --conmon']],
    ['podman --runtime ./x ps', ['program-option --runtime']],
    ['podman --connection prod ps', ['environment --connection']],
    ['podman --ssh native --url ssh://h ps', ['program-option --ssh']],
    ['podman unshare', ['program-option podman unshare']],
    ['podman ps', []],
    ['podman foo', []],
  ])('%s', (line, code) => {
    expect(shown(line).code).toEqual(code);
  });

  test('podman unshare runs its command on the host', () => {
    const cmd = analyze('podman unshare rm -rf x').commands;
    expect(cmd.map((c) => c.name?.program)).toEqual(['podman', 'rm']);
    expect(cmd[1]!.argv.map((w) => w.value)).toEqual(['rm', '-rf', 'x']);
  });

  test('the code a container runs is the command after the image, options included', () => {
    expect(analyze('podman run --rm -v /a:/b alpine sh -c x').commands[0]!.executes[0]!.code).toBe('sh -c x');
  });

  test.each([
    ['podman ps', false],
    ['podman logs web', false],
    ['podman pull alpine', true],
    ['podman manifest inspect x', true],
    ['podman --url tcp://h:1 ps', true],
    ['podman --remote ps', true],
    ['podman -c prod ps', true],
  ])('%s talks to the network: %s', (line, network) => {
    expect(analyze(line).commands[0]!.network ?? false).toBe(network);
  });
});

describe("podman's configuration", () => {
  test('~/.config/containers is protected: its containers.conf names the helpers podman runs (conmon_path)', () => {
    expect(protectedReason('/home/u/.config/containers/containers.conf')).toMatch(/containers/);
    expect(protectedReason('/home/u/.config/containers/storage.conf')).toMatch(/containers/);
    expect(protectedReason('/home/u/.config/other/x.conf')).toBeUndefined();
  });
});

describe("podman: the spec against each command's own --help", () => {
  const podman = spawnSync('podman', ['--version']).status === 0;
  const paths: { path: string; spec: SubcommandSpec }[] = [];
  const walk = (spec: SubcommandSpec, path: string[]) => {
    if (!spec.subcommands) paths.push({ path: path.join(' '), spec });
    for (const [name, sub] of Object.entries(spec.subcommands ?? {})) walk(sub, [...path, name]);
  };
  walk(PODMAN_SPEC, []);
  test('the spec lists every command podman 4.3 has', () => {
    expect(paths.length).toBeGreaterThan(170);
  });
  const persistent = new Set(
    [...PODMAN_SPEC.grammar.long.keys()].filter(
      (name) =>
        !['connection', 'identity', 'noout', 'remote', 'ssh', 'url', 'version', 'help'].includes(name),
    ),
  );
  test.runIf(podman).each(paths.map((entry) => [entry.path, entry.spec]))('podman %s', (path, spec) => {
    const help = spawnSync('podman', [...path.split(' '), '--help'], {
      encoding: 'utf8',
      timeout: 20_000,
    }).stdout;
    const listed = new Map<string, boolean>();
    for (const line of help.split('\n')) {
      const entry = /^\s+(?:-\w, )?--([\w.-]+)(?: (\S+))?(?:\s{2,}|$)/.exec(line);
      if (entry && entry[1] !== 'help') listed.set(entry[1]!, entry[2] !== undefined);
    }
    const own = new Map(
      [...spec.grammar.long]
        .filter(([name]) => name !== 'help' && (!persistent.has(name) || listed.has(name)))
        .map(([name, o]) => [name, o.arity === 'value']),
    );
    for (const [name, value] of listed)
      expect(`${name}${own.get(name) ? '=' : ''}`).toBe(`${name}${value ? '=' : ''}`);
    expect([...own.keys()].sort()).toEqual([...listed.keys()].sort());
  });
});
