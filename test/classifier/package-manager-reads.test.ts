import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeDecisions, useSandboxClassifier } from './helpers.js';

/** Reads of package managers and Python and JavaScript tools the shipped defaults allow. */
const ALLOWED = [
  'npm view react version',
  'npm ls',
  'npm outdated --json',
  'pnpm list',
  'pnpm ls --depth 0 --json',
  'pnpm la --prod',
  'pnpm why lodash',
  'pnpm list --filter web -r',
  'pnpm root',
  'pnpm root -g',
  'pnpm outdated --long',
  'pnpm audit --audit-level high --json',
  'pnpm help',
  'pnpm info react',
  'pnpm view react@18 version --json',
  'pnpm show lodash',
  'pnpm licenses list',
  'pnpm licenses ls --json --prod',
  'npm find-dupes',
  'npm find-dupes --omit dev -w web',
  'pre-commit --version',
  'pre-commit help run',
  'pre-commit validate-config',
  'pre-commit validate-manifest --color never .pre-commit-hooks.yaml',
  'pre-commit sample-config',
  'cargo info serde',
  'cargo info tokio@1 --verbose',
  'cargo tree --locked',
];

/** Their look-alikes that write, run code, print a secret or send a credential elsewhere. */
const NOT_ALLOWED = [
  'npm --registry https://registry.example view react',
  'npm view react --userconfig ./x.npmrc',
  'npm_config_registry=https://registry.example npm view react',
  'pnpm list --pnpmfile ./x.cjs',
  'pnpm audit --fix',
  "pnpm ls -r --filter '[origin/main]'",
  'pnpm list --dir /etc',
  'pnpm ls --global-dir /x',
  'pnpm ls --dep 0',
  'pnpm -r list',
  'pnpm outdated --registry https://registry.example',
  'pnpm install',
  'pnpm licenses',
  'pnpm test',
  'pnpm start',
  'pnpm info react --registry https://registry.example',
  'npm find-dupes --install-links',
  'npm find-dupes react',
  'pre-commit',
  'pre-commit run --all-files',
  'pre-commit try-repo ../hooks',
  'pre-commit install',
  'pre-commit autoupdate',
  'pre-commit validate-config ~/.ssh/id_rsa',
  'cargo info https://host.example/index#serde',
  'cargo info path+file:///etc#x',
  'cargo info serde --index https://host.example/index',
  'cargo info serde --registry private',
  'cargo info --config build.rustc=./x serde',
  'cargo info serde tokio',
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

describe("a project's pnpm files", () => {
  const pnpmfile = useSandboxClassifier(async (box) => {
    await writeFile(join(box.project, '.pnpmfile.cjs'), 'module.exports = { hooks: {} };\n');
  });
  it('a .pnpmfile.cjs, which every pnpm command loads, keeps pnpm list asked', async () => {
    const verdict = await pnpmfile.bash('pnpm list');
    expect(verdict.decision, verdict.reason).toBe('ask');
    expect(verdict.reason).toContain('.pnpmfile.cjs');
  });

  const manager = useSandboxClassifier(async (box) => {
    await writeFile(
      join(box.project, 'package.json'),
      '{"packageManager": "pnpm@https://host.example/p.tgz"}\n',
    );
  });
  it('a packageManager pnpm would fetch from elsewhere keeps pnpm why asked', async () => {
    const verdict = await manager.bash('pnpm why react');
    expect(verdict.decision, verdict.reason).toBe('ask');
    expect(verdict.reason).toContain('names the package manager');
  });

  const settings = useSandboxClassifier(async (box) => {
    await writeFile(join(box.project, 'pnpm-workspace.yaml'), 'packages:\n  - web\npnpmfile: x.cjs\n');
  });
  it('pnpm-workspace.yaml settings beyond the package list keep pnpm ls asked', async () => {
    const verdict = await settings.bash('pnpm ls');
    expect(verdict.decision, verdict.reason).toBe('ask');
    expect(verdict.reason).toContain('sets pnpmfile');
  });

  const release = useSandboxClassifier(async (box) => {
    await writeFile(join(box.project, 'package.json'), '{"packageManager": "pnpm@9.15.0+sha512.abc"}\n');
    await writeFile(join(box.project, 'pnpm-workspace.yaml'), 'packages:\n  - web\ncatalog:\n  react: ^18\n');
  });
  it('a registry release of pnpm and a plain workspace keep pnpm list allowed', async () => {
    const verdict = await release.bash('pnpm list');
    expect(verdict.decision, verdict.reason).toBe('allow');
  });
});

describe("a project's .cargo/config.toml", () => {
  const wrapper = useSandboxClassifier(async (box) => {
    await mkdir(join(box.project, '.cargo'));
    await writeFile(join(box.project, '.cargo', 'config.toml'), '[build]\nrustc = "./tools/rustc.sh"\n');
  });
  it.each(['cargo tree --locked', 'cargo info serde'])(
    'naming a rustc keeps %s asked (cargo runs it to learn the target)',
    async (command) => {
      const verdict = await wrapper.bash(command);
      expect(verdict.decision, verdict.reason).toBe('ask');
      expect(verdict.reason).toContain('sets [build]');
    },
  );

  const dotted = useSandboxClassifier(async (box) => {
    await mkdir(join(box.project, '.cargo'));
    await writeFile(join(box.project, '.cargo', 'config.toml'), 'source.crates-io.replace-with = "mirror"\n');
  });
  it('replacing the source in a dotted key keeps cargo info asked', async () => {
    const verdict = await dotted.bash('cargo info serde');
    expect(verdict.decision, verdict.reason).toBe('ask');
  });

  const aliases = useSandboxClassifier(async (box) => {
    await mkdir(join(box.project, '.cargo'));
    await writeFile(
      join(box.project, '.cargo', 'config.toml'),
      '[alias]\nb2 = "build"\n[term]\ncolor = "never"\n',
    );
  });
  it('of aliases and terminal settings keeps cargo tree --locked allowed', async () => {
    const verdict = await aliases.bash('cargo tree --locked');
    expect(verdict.decision, verdict.reason).toBe('allow');
  });
});
