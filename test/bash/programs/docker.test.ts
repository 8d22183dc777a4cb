import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { analyze, loadBash } from '../../../src/bash/analyze.js';
import { DOCKER_SPEC } from '../../../src/bash/programs/docker/spec.js';
import type { SubcommandSpec } from '../../../src/bash/programs/program.js';
import { optionLines, shown } from './support.js';

beforeAll(loadBash);

describe('docker: files it reads and writes on this machine', () => {
  test.each([
    ['docker cp c:/x .git/hooks/pre-commit', ['write .git/hooks/pre-commit']],
    ['docker container cp c:/x /tmp/out', ['write /tmp/out']],
    ['docker cp . c:/x', ['read .']],
    ['docker cp .env c:/tmp/', ['read .env']],
    ['docker cp ./a:b c:/x', ['read ./a:b']],
    ['docker cp - c:/x', []],
    ['docker save -o .git/config x', ['write .git/config']],
    ['docker image save --output=.git/config x', ['write .git/config']],
    ['docker save x', []],
    ['docker export -o .git/hooks/post-checkout c', ['write .git/hooks/post-checkout']],
    ['docker load -i .env', ['read .env']],
    ['docker image load --input=img.tar', ['read img.tar']],
    ['docker import .env img', ['read .env']],
    ['docker import https://example.com/x.tar img', []],
    ['docker build -t x .', ['read .']],
    ['docker build -f Dockerfile.dev ctx', ['read ctx', 'read Dockerfile.dev']],
    ['docker build https://github.com/a/b.git', []],
    ['docker build --secret id=s,src=.env .', ['read .', 'read .env']],
    ['docker build --ssh default .', ['read .', 'read ~/.ssh']],
    ['docker build -o type=local,dest=.git/hooks .', ['read .', 'write .git/hooks']],
    ['docker build -o out .', ['read .', 'write out']],
    ['docker build --iidfile .git/hooks/pre-commit .', ['read .', 'write .git/hooks/pre-commit']],
    ['docker build --build-context extra=../secrets .', ['read .', 'read ../secrets']],
    ['docker builder build --metadata-file m.json .', ['read .', 'write m.json']],
    ['docker run --rm -v .:/w alpine true', ['read .', 'write .']],
    ['docker run -v "$PWD":/w:ro alpine true', ['read ⟨$⟩']],
    ['docker run -v data:/w alpine true', []],
    ['docker run -v src/.env:/w alpine true', ['read src/.env', 'write src/.env']],
    ['docker run --mount type=bind,source=src,target=/w alpine true', ['read src', 'write src']],
    ['docker volume create -o type=none -o o=bind -o device=.git v', ['read .git', 'write .git']],
    ['docker volume create v', []],
    ['docker run --env-file .env alpine env', ['read .env']],
    ['docker run --mount type=bind,source=.git,target=/g alpine true', ['read .git', 'write .git']],
    ['docker run --mount type=bind,src=/etc,dst=/e,readonly alpine true', ['read /etc']],
    ['docker run --mount type=volume,source=v,target=/v alpine true', []],
    ['docker run --cidfile .git/hooks/pre-push alpine', ['write .git/hooks/pre-push']],
    ['docker create --label-file labels alpine', ['read labels']],
    ['docker exec --env-file .env c env', ['read .env']],
    ['docker --config ./cfg ps', ['read ./cfg']],
    ['docker --tlskey k.pem ps', ['read k.pem']],
    ['docker login -u u -p p', ['write ~/.docker/config.json']],
    ['docker --config cfg logout', ['read cfg', 'write cfg/config.json']],
    ['docker context export x .git/hooks/pre-commit', ['write .git/hooks/pre-commit']],
    ['docker context export x', ['write x.dockercontext']],
    ['docker context import x x.tar', ['read x.tar', 'write ~/.docker/contexts']],
    ['docker context create x --docker host=tcp://h,key=k.pem', ['write ~/.docker/contexts', 'read k.pem']],
    ['docker trust key generate k --dir .git/hooks', ['write .git/hooks/k.pub', 'write ~/.docker/trust']],
    ['docker secret create s .env', ['read .env']],
    ['docker config create c -', []],
    ['docker plugin create p ./rootfs', ['read ./rootfs']],
    ['docker swarm ca --ca-key key.pem', ['read key.pem']],
    ['docker ps', []],
    ['docker images -a', []],
    ['docker container ls --format json', []],
    ['docker logs -f c', []],
    ['docker compose ps', []],
    [
      'docker compose -f compose.yml -f compose.dev.yml --env-file .env.dev ps',
      ['read compose.yml', 'read compose.dev.yml', 'read .env.dev'],
    ],
    ['docker compose --project-directory ../app logs web', ['read ../app']],
    ['docker compose config --services -o .git/hooks/pre-commit', ['write .git/hooks/pre-commit']],
    ['docker buildx ls', []],
    ['docker-compose -f compose.yml --env-file .env ps', ['read compose.yml', 'read .env']],
    ['docker-compose config -o out.yml', ['write out.yml']],
    ['docker --help', []],
    ['docker run --help', []],
    ['docker volume rm v', []],
  ])('%s', (line, effects) => {
    expect(shown(line)).toMatchObject({ known: true, effects });
  });

  test.each([
    'docker ps --zz-unknown',
    'docker foo',
    'docker compose up',
    'docker buildx build .',
    'docker compose ps --zz',
    'docker-compose up',
    'docker run --privileged alpine true',
    'docker run --volumes-from other alpine true',
    'docker run --pid=host alpine true',
    'docker stack deploy -c compose.yml s',
    'docker plugin install x',
    'docker cp "$x" c:/y',
  ])('%s: files not all known', (line) => {
    expect(shown(line).known).toBe(false);
  });
});

describe('docker: code it runs', () => {
  test.each([
    ['docker --config ./cfg ps', ['environment --config']],
    ['docker -H ssh://host ps', ['program-option -H']],
    ['docker -H tcp://host:2376 ps', []],
    // A context is the user's own (~/.docker/contexts is protected), as a kubectl context is: no code of the
    // command's choosing; it only reaches that context's daemon (network, and a service read).
    ['docker --context remote ps', []],
    ['docker compose ps', []],
    ['docker compose -f compose.yml logs -f web', []],
    ['docker compose config', []],
    ['docker compose run web sh', ['program-option docker-compose']],
    ['docker compose exec web sh', ['program-option docker-compose']],
    ['docker compose --env-file .env up -d', ['program-option docker-compose']],
    ['docker buildx ls', []],
    ['docker buildx build .', ['program-option docker-buildx']],
    ['docker buildx bake', ['program-option docker-buildx']],
    ['docker buildx imagetools create -t x y', ['program-option docker-buildx']],
    ['docker-compose ps', []],
    ['docker-compose up -d', ['program-option docker-compose up']],
    ['docker-compose run --rm web pytest', ['program-option docker-compose run']],
    ['docker compose up', ['program-option docker-compose']],
    ['docker foo', ['program-option docker-foo']],
    ['docker build .', ['program-option docker build']],
    ['docker run --rm alpine sh -c x', ['program-option docker run']],
    ['docker container exec -it c bash', ['program-option docker exec']],
    ['docker plugin install x', ['program-option docker install']],
    ['docker cp c:/x y', []],
    ['docker network zz', []],
    ['docker ps', []],
  ])('%s', (line, code) => {
    expect(shown(line).code).toEqual(code);
  });

  test('the code a container runs is the command after the image, options included', () => {
    expect(analyze('docker run --rm -v /a:/b alpine sh -c x').commands[0]!.executes[0]!.code).toBe('sh -c x');
  });
});

/** Every option of every command, given a value where it takes one. */
/** Options whose value names a local file or folder, and what the command does with it. */
const FILE_OPTIONS: Record<string, string> = {
  'container run --env-file': 'read',
  'container run --label-file': 'read',
  'container run --cidfile': 'write',
  'container run --device': 'write',
  'container create --env-file': 'read',
  'container create --label-file': 'read',
  'container create --cidfile': 'write',
  'container create --device': 'write',
  'container exec --env-file': 'read',
  'container export o': 'write',
  'container start --checkpoint-dir': 'read',
  'checkpoint create --checkpoint-dir': 'write',
  'checkpoint ls --checkpoint-dir': 'read',
  'checkpoint rm --checkpoint-dir': 'write',
  'image load i': 'read',
  'image save o': 'write',
  'image build f': 'read',
  'image build --iidfile': 'write',
  'image build --metadata-file': 'write',
  'image build --build-context': 'read',
  'image build --secret': 'read',
  'image build o': 'write',
  'image build --cache-to': 'write',
  'trust signer add --key': 'read',
  'service create --env-file': 'read',
  'stack config c': 'read',
  'stack deploy c': 'read',
  'swarm ca --ca-cert': 'read',
  'swarm ca --ca-key': 'read',
  'compose config o': 'write',
};
for (const key of Object.keys(FILE_OPTIONS).filter((k) => k.startsWith('image build'))) {
  FILE_OPTIONS[key.replace('image build', 'builder build')] = FILE_OPTIONS[key]!;
}

describe('docker: every option of every command', () => {
  const lines = optionLines('docker', DOCKER_SPEC, true);
  test('the spec lists every command and option docker has', () => {
    expect(lines.length).toBeGreaterThan(700);
  });
  test.each(lines.map((entry) => [entry.line, entry]))('%s', (_, { line, path, option }) => {
    const result = shown(line);
    const onValue = result.effects.filter((e) => e.endsWith(' v.txt')).map((e) => e.split(' ')[0]);
    const expected = FILE_OPTIONS[`${path} ${option}`];
    if (expected) expect(onValue).toContain(expected);
    else expect(onValue).toEqual([]);
  });
});

describe('docker: the real client runs what its configuration names', () => {
  const docker = spawnSync('docker', ['--version']).status === 0;
  test.runIf(docker)('a --config folder holds CLI plugins that `docker NAME` runs', () => {
    const dir = mkdtempSync(join(tmpdir(), 'automode-docker-'));
    const plugins = join(dir, 'cfg', 'cli-plugins');
    mkdirSync(plugins, { recursive: true });
    const marker = join(dir, 'ran');
    writeFileSync(
      join(plugins, 'docker-probe'),
      `#!/bin/sh\nif [ "$1" = docker-cli-plugin-metadata ]; then echo '{"SchemaVersion":"0.1.0","Vendor":"t","Version":"1"}'; exit 0; fi\ntouch '${marker}'\n`,
    );
    chmodSync(join(plugins, 'docker-probe'), 0o755);
    spawnSync('docker', ['--config', join(dir, 'cfg'), 'probe'], { cwd: dir, timeout: 20_000 });
    expect(existsSync(marker)).toBe(true);
    expect(shown('docker --config ./cfg probe').code).toEqual([
      'environment --config',
      'program-option docker-probe',
    ]);
    expect(shown('docker --config ./cfg probe').known).toBe(false);
  });
});

describe("docker: the spec against each command's own --help", () => {
  const docker = spawnSync('docker', ['--version']).status === 0;
  const paths: { path: string; spec: SubcommandSpec }[] = [];
  const walk = (spec: SubcommandSpec, path: string[]) => {
    // The plugins' options come from their reference pages: neither plugin is installed here.
    if (path.length === 1 && (path[0] === 'compose' || path[0] === 'buildx')) return;
    paths.push({ path: path.join(' '), spec });
    for (const [name, sub] of Object.entries(spec.subcommands ?? {})) walk(sub, [...path, name]);
  };
  walk(DOCKER_SPEC, []);
  test.runIf(docker).each(paths.map((entry) => [entry.path || '(docker)', entry.spec]))(
    'docker %s',
    (path, spec) => {
      const words = path === '(docker)' ? [] : path.split(' ');
      const help = spawnSync('docker', [...words, '--help'], { encoding: 'utf8', timeout: 20_000 }).stdout;
      const listed = new Map<string, boolean>();
      for (const line of help.split('\n')) {
        const entry = /^\s+(?:-\w, )?--([\w.-]+)(?: (\S+))?(?:\s{2,}|$)/.exec(line);
        if (entry && entry[1] !== 'help') listed.set(entry[1]!, entry[2] !== undefined);
      }
      const own = new Map(
        [...spec.grammar.long]
          .filter(([name]) => name !== 'help')
          .map(([name, o]) => [name, o.arity === 'value']),
      );
      // `build` also holds buildx's options (buildx is not installed here); the hidden --net spellings are kept.
      const extra =
        path.endsWith(' build') || path.endsWith('container run') || path.endsWith('container create');
      for (const [name, value] of listed)
        expect(`${name}${own.get(name) ? '=' : ''}`).toBe(`${name}${value ? '=' : ''}`);
      if (!extra) expect([...own.keys()].sort()).toEqual([...listed.keys()].sort());
    },
  );
});
