import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeDecisions, useSandboxClassifier } from './helpers.js';

/** Reads of developer tools' local state the shipped defaults allow: every option and operand known to be safe. */
const ALLOWED = [
  // docker: the daemon's state, a swarm's as its manager reports it, an image or container as a tar on stdout
  'docker events --since 10m --filter type=container',
  'docker system events --until 5s',
  'docker context inspect',
  'docker context inspect --format "{{.Name}}" default',
  'docker service ls -q',
  'docker service inspect --pretty web',
  'docker service ps --no-trunc web',
  'docker service logs --tail 20 -t web',
  'docker secret ls',
  'docker secret inspect key',
  'docker config inspect --pretty app',
  'docker stack ls',
  'docker stack ps app',
  'docker stack services app',
  'docker node ls',
  'docker node inspect self',
  'docker node ps self',
  'docker plugin ls',
  'docker plugin inspect vieux/sshfs',
  'docker save app:1 | tar -t',
  'docker container export web | tar -tv',
  // pip: what is installed, its cache, its own help
  'pip inspect --local',
  'pip list --path . --format=json',
  'pip hash -a sha512 setup.py',
  'pip cache dir',
  'pip cache list --format=abspath',
  'pip debug --verbose',
  'pip help install',
  'pip --help',
  'pip3 -V',
  // npm: package.json's fields, the installed tree, the scripts it lists, its own docs
  'npm pkg get name version',
  'npm pkg get --json scripts',
  'npm query ":root > .prod"',
  'npm query --package-lock-only "*"',
  'npm fund --json',
  'npm run',
  'npm run-script --workspaces',
  'npm help-search -l install',
  // git: who wrote a line
  'git annotate -L 10,20 README.md',
  // cargo: the manifest, the lock file as it is, its own help; uv: what an environment holds, its own folders
  'cargo help tree',
  'cargo build --help',
  'cargo locate-project --workspace',
  'cargo metadata --no-deps --format-version 1',
  'cargo tree --locked -e normal',
  'cargo search serde --limit 5',
  'uv pip list',
  'uv pip show requests',
  'uv tree --frozen',
  'uv cache dir',
  'uv help sync',
];

/** Look-alikes that write, run code, print secrets or reach another server: never allowed by the defaults. */
const NOT_ALLOWED = [
  'docker save -o app.tar app:1',
  'docker image save --output=.git/hooks/pre-commit app:1',
  'docker export -o out.tar web',
  'docker service rm web',
  'docker service update --image x web',
  'docker secret create key ./key.pem',
  'docker node rm n1',
  'docker plugin install vieux/sshfs',
  'docker stack deploy -c compose.yml app',
  'docker --config ./cfg service ls',
  'docker -H ssh://host events',
  'docker --context prod node ls',
  'docker events --zz',
  'pip cache purge',
  'pip cache remove "*"',
  'pip hash .env',
  'pip --help install x',
  'pip --python ./venv/bin/python inspect',
  'pip debug --cert ./ca.pem',
  'pip config list',
  'pip index versions requests',
  'npm pkg set name=x',
  'npm pkg delete scripts.test',
  'npm pkg fix',
  'npm pkg get -f name',
  'npm fund lodash',
  'npm fund --browser ./x.sh',
  'npm run build',
  'npm run --script-shell ./x.sh',
  'git annotate .env',
  'cargo tree',
  'cargo --config build.rustc-wrapper=./x.sh tree --locked',
  'RUSTC_WRAPPER=./x.sh cargo tree --locked',
  'CARGO_BUILD_RUSTC_WRAPPER=./x.sh cargo tree --locked',
  'RUSTC=./x.sh cargo metadata --locked',
  'cargo help zzz',
  'uv tree',
  'uv pip list --python ./x.sh',
  'uv pip list --outdated',
  'uv version --bump patch',
  'uv auth token',
];

describeDecisions("developer tools' reads in the shipped defaults", ALLOWED, NOT_ALLOWED);

describe("uv reads an environment by running the interpreter of the project's .venv", () => {
  const own = useSandboxClassifier(async (box) => {
    mkdirSync(join(box.project, 'app/.venv/bin'), { recursive: true });
    writeFileSync(join(box.project, 'app/.venv/bin/python'), '#!/bin/sh\n', { mode: 0o755 });
  });
  const linked = useSandboxClassifier(async (box) => {
    mkdirSync(join(box.project, '.venv/bin'), { recursive: true });
    symlinkSync('/usr/bin/env', join(box.project, '.venv/bin/python'));
  });
  it('asks where .venv/bin/python is a program of the project', async () => {
    for (const command of ['cd app && uv pip list', 'cd app/.venv && uv tree --frozen']) {
      const verdict = await own.bash(command);
      expect(verdict.decision, command).toBe('ask');
      expect(verdict.reason).toContain('.venv/bin/python');
    }
    expect((await own.bash('uv pip list')).decision).toBe('allow');
  });
  it('allows where it is a link to an interpreter outside', async () => {
    const verdict = await linked.bash('uv pip list');
    expect(verdict.decision, verdict.reason).toBe('allow');
  });
});
