import { beforeAll, describe, expect, it } from 'vitest';
import { broadAllowWitness, loadRuleChecks } from '../../src/policy/index.js';
import { parsePermissionRule, type Rule } from '../../src/rules/index.js';

beforeAll(() => loadRuleChecks());

function allow(text: string): Rule {
  const { parsed } = parsePermissionRule(text, { behavior: 'allow' });
  if (!parsed) throw new Error(text);
  return {
    type: 'permission',
    behavior: 'allow',
    text,
    parsed,
    provenance: { source: 'cliArg', pointer: '', index: 0 },
  };
}

describe('what a broad allow admits is what its words show', () => {
  it.each([
    'Bash(git log*)',
    'Bash(git status*)',
    'Bash(git diff*)',
    'Bash(docker ps*)',
    'Bash(npm ls*)',
    'Bash(npm view*)',
    'Bash(kubectl top *)',
    'Bash(kubectl config *)',
    'Bash(xargs gr*)',
  ])('%s runs no code its wildcard chooses: not broad', (text) => {
    expect(broadAllowWitness(allow(text))).toBeUndefined();
  });

  it.each([
    // A glued wildcard completes its word into one that runs code, or follows it with the code.
    ['Bash(npm r*)', 'npm run CODE'],
    ['Bash(npm run*)', 'npm run CODE'],
    ['Bash(env FOO=1 pyth*)', 'env FOO=1 python CODE'],
    ['Bash(sudo py*)', 'sudo python CODE'],
    ['Bash(python3 -c*)', 'python3 -c CODE'],
    ['Bash(make t*)', 'make t CODE'],
    ['Bash(ssh host*)', 'ssh host CODE'],
    // Plugins: a command git, kubectl or docker lacks runs the program it names.
    ['Bash(git *)', 'git CODE'],
    ['Bash(kubectl *)', 'kubectl CODE'],
    ['Bash(kubectl create *)', 'kubectl create CODE'],
  ])('%s admits %s', (text, witness) => {
    expect(broadAllowWitness(allow(text))).toBe(witness);
  });
});
