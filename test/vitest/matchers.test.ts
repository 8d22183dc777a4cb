import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClassifier } from '../../src/classifier/index.js';
import type { LoadedSettings } from '../../src/rules/settings/types.js';
import { configurationOf, loadConfiguration } from '../../src/testing/configuration.js';
import { createAutomodeMatchers } from '../../src/vitest/index.js';
import { remove, tempFolder, writeTree } from '../testing/helpers.js';

let root: string;
let settings: LoadedSettings;

beforeAll(async () => {
  root = await tempFolder('automode-vitest-');
  await writeTree(root, {
    '.claude/settings.json': {
      permissions: { allow: ['Bash(npm test)'], ask: ['Bash(git push *)'], deny: ['Read(./.env)'] },
    },
    'team.automode-rules.yaml':
      'rules:\n  - tool: Bash\n    command_pattern: "^kubectl .*--context[= ]prod"\n    decision: deny\n    label: Production cluster\n',
  });
  const resolved = await configurationOf(['.'], root);
  if ('errors' in resolved) throw new Error(resolved.errors.join());
  settings = await loadConfiguration(resolved.config);
});
afterAll(() => remove(root));

describe('automode/vitest matchers', () => {
  it('decide calls with loaded settings, a classifier, or paths to the rules', async () => {
    await expect({ tool: 'Bash', command: 'rm -rf /' }).toBeDeniedBy(settings);
    await expect('npm test').toBeAllowedBy(settings);
    await expect({ command: 'git push origin main' }).toBeAskedBy(createClassifier(settings));
    await expect({ tool: 'Read', input: { file_path: '.env' } }).toBeDeniedBy(settings, {
      rule: 'Read(./.env)',
    });
    await expect('kubectl get pods --context prod').toBeDeniedBy(settings, { rule: 'Production cluster' });
    await expect('npm test').not.toBeDeniedBy(settings);
    const cwd = process.cwd();
    process.chdir(root);
    try {
      await expect('kubectl delete pod x --context=prod').toBeDeniedBy('.');
      await expect('npm test').toBeAllowedBy([path.join(root, '.claude/settings.json')]);
    } finally {
      process.chdir(cwd);
    }
  });

  it('fail with a message that names the deciding rule and where it is written', async () => {
    const failure = expect(expect('git push --force origin main').toBeAllowedBy(settings)).rejects;
    await failure.toThrow(
      /^expected git push --force origin main to be allowed, but it was asked: asked by Bash\(git push \*\)\ndeciding rule: Bash\(git push \*\) at /,
    );
    await expect(expect('git push origin main').toBeDeniedBy(settings)).rejects.toThrow(
      `deciding rule: Bash(git push *) at ${path.join(root, '.claude/settings.json')}:`,
    );
    await expect(expect('kubectl get pods --context prod').toBeAskedBy(settings)).rejects.toThrow(
      /deciding rule: Production cluster \(\^kubectl \.\*--context\[= \]prod\) at .*team\.automode-rules\.yaml:2:5 \(ruleFile\)/,
    );
    await expect(expect('npm test').not.toBeAllowedBy(settings)).rejects.toThrow(
      /not to be allowed, but it was allowed/,
    );
    await expect(
      expect('npm test && git push').toBeAskedBy(settings, { rule: 'Bash(npm test)' }),
    ).rejects.toThrow(/to be asked by Bash\(npm test\), but it was asked/);
    await expect(expect('ls').toBeAllowedBy(settings)).resolves.toBeUndefined();
    await expect(expect('make deploy').toBeAskedBy(settings)).resolves.toBeUndefined();
    await expect(expect('make deploy').toBeAllowedBy(settings)).rejects.toThrow(
      'decided by no-rule, no rule',
    );
  });

  it('refuse to judge a call the rules leave to the model when there is none', async () => {
    await expect(expect('terraform plan').toBeAskedBy(settings, { mode: 'auto' })).rejects.toThrow(
      /is left to the model .*no model configured and no recording/,
    );
    await expect(expect('rm -rf /').toBeDeniedBy(settings, { mode: 'auto' })).resolves.toBeUndefined();
  });

  it('take a model-backed classifier for what the rules leave open', async () => {
    const matchers = createAutomodeMatchers({
      model: async () => ({
        classify: async (call) => ({
          decision: 'allow',
          reason: `the model allows ${String(call.input.command)}`,
          by: 'rule',
          tool: call.tool,
          mode: 'auto',
          parts: [],
        }),
      }),
    });
    const result = await matchers.toBeAllowedBy.call({ isNot: false }, 'terraform plan', settings, {
      mode: 'auto',
    });
    expect(result.pass).toBe(true);
  });

  it('report a broken call or missing rules as errors', async () => {
    await expect(expect({ tool: 'Read', command: 'x' }).toBeAllowedBy(settings)).rejects.toThrow(
      /command is shorthand/,
    );
    await expect(expect('ls').toBeAllowedBy(path.join(root, 'missing.json'))).rejects.toThrow(/not found/);
  });
});
