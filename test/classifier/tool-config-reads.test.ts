import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useSandboxClassifier } from './helpers.js';

const CHECKS = [
  'ruff check',
  'ruff check src/',
  'ruff check --select E501 .',
  'ruff check --output-format=json',
  'ruff check --statistics',
  'ruff check --diff',
];

describe("ruff check and the project's configuration", () => {
  const plain = useSandboxClassifier(async (box) => {
    await mkdir(join(box.project, 'src', 'pkg'), { recursive: true });
    await writeFile(
      join(box.project, 'pyproject.toml'),
      '[project]\nname = "x"\n\n[tool.ruff]\nline-length = 100\nfix = false\n\n[tool.ruff.lint]\nselect = ["E", "F"]\n',
    );
    await writeFile(join(box.project, 'src', 'pkg', 'ruff.toml'), '[lint]\nignore = ["E501"]\n');
  });
  it.each(CHECKS)('%s only reads where no configuration fixes or moves the cache', async (command) => {
    const verdict = await plain.bash(command);
    expect(verdict.decision, verdict.reason).toBe('allow');
  });

  const fixes = useSandboxClassifier(async (box) => {
    await writeFile(join(box.project, 'pyproject.toml'), '[tool.ruff]\nfix = true\n');
  });
  it.each(CHECKS.filter((c) => c !== 'ruff check --diff'))(
    '%s asks where pyproject.toml says fix = true',
    async (command) => {
      const verdict = await fixes.bash(command);
      expect(verdict.decision, verdict.reason).toBe('ask');
      expect(verdict.reason).toContain('sets fix');
    },
  );
  it('files handed over at run time ask too', async () => {
    for (const command of [
      "find . -name '*.py' | xargs ruff check",
      "git ls-files '*.py' | xargs ruff check",
    ]) {
      const verdict = await fixes.bash(command);
      expect(verdict.decision, `${command}: ${verdict.reason}`).toBe('ask');
    }
  });
  it('--diff, --no-fix and --isolated rule the configuration out', async () => {
    for (const command of ['ruff check --diff', 'ruff check --no-fix', 'ruff check --isolated .']) {
      const verdict = await fixes.bash(command);
      expect(verdict.decision, `${command}: ${verdict.reason}`).toBe('allow');
    }
  });

  const nested = useSandboxClassifier(async (box) => {
    await mkdir(join(box.project, 'src', 'pkg'), { recursive: true });
    await writeFile(join(box.project, 'src', 'pkg', '.ruff.toml'), 'fix = true\n');
  });
  it('a ruff.toml in a folder below the one checked counts', async () => {
    const verdict = await nested.bash('ruff check src/');
    expect(verdict.decision, verdict.reason).toBe('ask');
    expect(verdict.reason).toContain('.ruff.toml sets fix');
  });

  const extended = useSandboxClassifier(async (box) => {
    await mkdir(join(box.project, 'config'), { recursive: true });
    await writeFile(join(box.project, 'ruff.toml'), 'extend = "config/base.toml"\nline-length = 88\n');
    await writeFile(join(box.project, 'config', 'base.toml'), 'cache-dir = "/tmp/elsewhere"\n');
  });
  it('a file the configuration extends counts; --no-cache rules its cache-dir out', async () => {
    const verdict = await extended.bash('ruff check');
    expect(verdict.decision, verdict.reason).toBe('ask');
    expect(verdict.reason).toContain('base.toml sets cache-dir');
    const noCache = await extended.bash('ruff check -n');
    expect(noCache.decision, noCache.reason).toBe('allow');
  });

  const dotted = useSandboxClassifier(async (box) => {
    await writeFile(join(box.project, 'pyproject.toml'), '[tool]\nruff.fix = true\n');
  });
  it('a ruff table written as dotted keys asks', async () => {
    const verdict = await dotted.bash('ruff check .');
    expect(verdict.decision, verdict.reason).toBe('ask');
  });
});

const YARN_READS = [
  'yarn list',
  'yarn list --depth=0',
  'yarn info react',
  'yarn info react --json',
  'yarn why lodash',
  'yarn outdated',
  'yarn licenses list',
  'yarn help',
  'yarn audit --level high',
  'yarn workspaces list --json',
  'yarn workspaces info',
  'yarn npm info react --json',
  'yarn npm audit --severity high',
  'yarn bin',
  'yarn cache dir',
];

describe("yarn's read commands and the project's configuration", () => {
  const plain = useSandboxClassifier(async (box) => {
    await writeFile(join(box.project, 'package.json'), '{"name":"x","scripts":{"build":"tsc"}}\n');
    await writeFile(join(box.project, '.yarnrc.yml'), 'nodeLinker: node-modules\nenableTelemetry: false\n');
  });
  it.each(YARN_READS)('%s only reads', async (command) => {
    const verdict = await plain.bash(command);
    expect(verdict.decision, verdict.reason).toBe('allow');
  });
  it.each([
    'yarn version',
    'yarn',
    'yarn install',
    'yarn --cwd ../other list',
    'yarn info ./local-dir',
    'yarn info git+ssh://git@host.example/x.git',
    'yarn licenses',
    'yarn audit fix',
    'yarn build',
    'yarn workspaces list --since',
    'yarn workspaces foreach run build',
    'yarn workspace web build',
    'yarn npm publish',
    'yarn cache clean',
  ])('%s is not allowed', async (command) => {
    const verdict = await plain.bash(command);
    expect(verdict.decision, verdict.reason).not.toBe('allow');
  });

  const yarnPath = useSandboxClassifier(async (box) => {
    await writeFile(join(box.project, '.yarnrc.yml'), 'yarnPath: .yarn/releases/yarn-4.1.0.cjs\n');
  });
  it.each(YARN_READS)('%s asks where .yarnrc.yml names a yarnPath', async (command) => {
    const verdict = await yarnPath.bash(command);
    expect(verdict.decision, verdict.reason).toBe('ask');
    expect(verdict.reason).toContain('sets yarnPath');
  });

  const plugins = useSandboxClassifier(async (box) => {
    await writeFile(join(box.project, '.yarnrc.yml'), 'plugins:\n  - path: .yarn/plugins/x.cjs\n');
  });
  it('plugins in .yarnrc.yml ask', async () => {
    const verdict = await plugins.bash('yarn why react');
    expect(verdict.decision, verdict.reason).toBe('ask');
  });

  const classic = useSandboxClassifier(async (box) => {
    await writeFile(join(box.project, '.yarnrc'), 'yarn-path "./bin/yarn.js"\n');
  });
  it("classic .yarnrc's yarn-path asks", async () => {
    const verdict = await classic.bash('yarn list');
    expect(verdict.decision, verdict.reason).toBe('ask');
  });

  const registry = useSandboxClassifier(async (box) => {
    await writeFile(
      join(box.project, '.yarnrc.yml'),
      `npmRegistryServer: "https://registry.example"\nnpmAuthToken: "\${NPM_TOKEN}"\n`,
    );
  });
  it('another registry in .yarnrc.yml asks', async () => {
    const verdict = await registry.bash('yarn info react');
    expect(verdict.decision, verdict.reason).toBe('ask');
  });

  const script = useSandboxClassifier(async (box) => {
    await writeFile(join(box.project, 'package.json'), '{"scripts":{"outdated":"node x.js"}}\n');
  });
  const npmScript = useSandboxClassifier(async (box) => {
    await writeFile(join(box.project, 'package.json'), '{"scripts":{"npm":"node x.js"}}\n');
  });
  it("a script named like yarn 2's command asks (yarn 1 runs it)", async () => {
    const verdict = await npmScript.bash('yarn npm info react');
    expect(verdict.decision, verdict.reason).toBe('ask');
  });
  it("a script named like classic's command asks (yarn 2 and later run it)", async () => {
    const verdict = await script.bash('yarn outdated');
    expect(verdict.decision, verdict.reason).toBe('ask');
    expect(verdict.reason).toContain('has a script outdated');
    const why = await script.bash('yarn why react');
    expect(why.decision, why.reason).toBe('allow');
  });

  const manager = useSandboxClassifier(async (box) => {
    await mkdir(box.project, { recursive: true });
    await writeFile(
      join(box.project, 'package.json'),
      '{"packageManager":"yarn@https://host.example/y.tgz"}\n',
    );
  });
  it('a packageManager that is not a registry release asks', async () => {
    const verdict = await manager.bash('yarn list');
    expect(verdict.decision, verdict.reason).toBe('ask');
  });
});
