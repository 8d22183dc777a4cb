import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

it("CI runs the README's test command, and that command sets up the system packages itself", () => {
  const readme = read('README.md');
  const block = /## Set-up on a fresh machine\s*```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
  const testCommand = block.trim().split('\n')[1];
  expect(testCommand).toBe('npm ci && npm test');
  expect(
    read('.ci/run')
      .split('\n')
      .map((line) => line.trim()),
  ).toContain(testCommand);
  const scripts = JSON.parse(read('package.json')).scripts as Record<string, string>;
  expect(scripts.pretest).toBe('bash scripts/setup-sandbox.sh');
});

it('CI runs the suite on the Node lines the README names, each pinned in scripts/node-line.sh; engines.node is the oldest supported', () => {
  const readme = read('README.md').replace(/\s+/g, ' ');
  const ciVersions = /^for version in ([\d. ]+); do$/m.exec(read('.ci/run'))?.[1]?.trim().split(' ') ?? [];
  expect(ciVersions.length).toBeGreaterThan(0);
  const tested = /CI runs it on Node ([\d.]+(?: and [\d.]+)*),/.exec(readme)?.[1];
  expect(tested?.split(' and ')).toEqual(ciVersions);
  const pinned = [
    ...read('scripts/node-line.sh').matchAll(/^ {2}\[([\d.]+)\]='sha512-[A-Za-z0-9+/]{86}=='$/gm),
  ];
  expect(pinned.map((m) => m[1])).toEqual(ciVersions);
  const supported = /Supported: Node\.js (\d+)\.(\d+) or newer on the \1 line, and Node\.js (\d+)\./.exec(
    readme,
  );
  expect(supported).not.toBeNull();
  const [, major, minor, next] = supported ?? [];
  expect(ciVersions.map((v) => v.split('.')[0])).toEqual([major, next]);
  expect(JSON.parse(read('package.json')).engines.node).toBe(`>=${major}.${minor}`);
});
