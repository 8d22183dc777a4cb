import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeDecisions, useSandboxClassifier } from './helpers.js';

/** Reads of package managers and Python and JavaScript tools the shipped defaults allow. */
const ALLOWED = ['npm view react version', 'npm ls', 'npm outdated --json'];

/** Their look-alikes that write, run code, print a secret or send a credential elsewhere. */
const NOT_ALLOWED = [
  'npm --registry https://registry.example view react',
  'npm view react --userconfig ./x.npmrc',
  'npm_config_registry=https://registry.example npm view react',
];

describeDecisions('package managers and Python and JavaScript tools', ALLOWED, NOT_ALLOWED);

describe("a project's .npmrc", () => {
  const redirected = useSandboxClassifier(async (box) => {
    await writeFile(join(box.project, 'package.json'), '{}\n');
    await writeFile(
      join(box.project, '.npmrc'),
      `registry=https://registry.example/\n//registry.example/:_authToken=\${NPM_TOKEN}\n`,
    );
  });
  it.each(['npm view react', 'npm ls', 'npm whoami', 'npm outdated'])(
    'naming another registry keeps %s asked',
    async (command) => {
      const verdict = await redirected.bash(command);
      expect(verdict.decision, verdict.reason).toBe('ask');
      expect(verdict.reason).toContain('.npmrc sets registry');
    },
  );

  const moved = useSandboxClassifier(async (box) => {
    await writeFile(join(box.project, '.npmrc'), 'save-exact=true\ncache=/tmp/elsewhere\n');
  });
  it('moving the cache keeps registry reads asked', async () => {
    const verdict = await moved.bash('npm view react');
    expect(verdict.decision, verdict.reason).toBe('ask');
    expect(verdict.reason).toContain('sets cache');
  });

  const plain = useSandboxClassifier(async (box) => {
    await writeFile(
      join(box.project, '.npmrc'),
      '; project settings\nsave-exact=true\nengine-strict = true\n',
    );
  });
  it.each(['npm view react', 'npm ls --all'])('of output settings only keeps %s allowed', async (command) => {
    const verdict = await plain.bash(command);
    expect(verdict.decision, verdict.reason).toBe('allow');
  });
});
