import { describe, expect, it } from 'vitest';
import { shippedOverrides } from '../../src/policy/index.js';
import { useSandboxClassifier } from './helpers.js';

describe('a user allow narrower than a shipped ask overrides it', () => {
  const sandbox = useSandboxClassifier(undefined, {
    permissions: {
      allow: [
        'Bash(rm -rf dist)',
        'Bash(git push --force origin feature-*)',
        'Bash(git push origin +wip)',
        'Bash(mkfs /dev/loop0)',
      ],
    },
  });

  it('allows the command, naming the user rule and the shipped ask it overrode', async () => {
    const v = await sandbox.bash('rm -rf dist');
    expect(v.decision).toBe('allow');
    expect(v.reason).toMatch(
      /^allowed by Bash\(rm -rf dist\), which overrides the shipped ask Bash\(rm -r \*\)/,
    );
    expect(v.rule).toMatchObject({ text: 'Bash(rm -rf dist)', source: 'projectSettings' });
    const part = v.parts.find((p) => p.rule?.text === 'Bash(rm -rf dist)');
    expect(part?.overrides?.map((r) => [r.text, r.source])).toContainEqual(['Bash(rm -r *)', 'defaults']);
  });

  it('overrides only where the user rule matches', async () => {
    expect((await sandbox.bash('rm -rf build')).decision).toBe('ask');
    expect((await sandbox.bash('git push --force origin feature-x')).decision).toBe('allow');
    expect((await sandbox.bash('git push --force origin main')).decision).toBe('ask');
  });

  it('overrides a shipped pattern ask rule too', async () => {
    const v = await sandbox.bash('git push origin +wip');
    expect(v.decision).toBe('allow');
    expect(v.reason).toContain('History rewrite');
  });

  it('never overrides a shipped deny', async () => {
    expect((await sandbox.bash('mkfs /dev/loop0')).decision).toBe('deny');
  });

  it('leaves the fail-closed checks alone', async () => {
    expect((await sandbox.bash('rm -rf $(cat list)')).decision).toBe('ask');
  });
});

describe('a broad user allow does not silence shipped asks', () => {
  const sandbox = useSandboxClassifier(undefined, { permissions: { allow: ['Bash(rm *)', 'Bash(git *)'] } });

  it('asks as the shipped rule says', async () => {
    const v = await sandbox.bash('rm -rf dist');
    expect(v.decision).toBe('ask');
    expect(v.reason).toBe('asked by Bash(rm -r *)');
    expect((await sandbox.bash('git rebase main')).decision).toBe('ask');
  });
});

describe('an ask the user wrote is not overridden', () => {
  const sandbox = useSandboxClassifier(undefined, {
    permissions: { allow: ['Bash(rm -rf dist)'], ask: ['Bash(rm -rf *)'] },
  });

  it('asks by the user ask', async () => {
    const v = await sandbox.bash('rm -rf dist');
    expect(v.decision).toBe('ask');
    expect(v.reason).toBe('asked by Bash(rm -rf *)');
  });
});

describe('a shipped rule turned off', () => {
  const sandbox = useSandboxClassifier(undefined, {
    permissions: { allow: ['Bash(git rebase *)'] },
    automode: { disableShippedRules: ['Bash(git rebase *)', 'Bash(mkfs *)'] },
  });

  it('no longer decides; a project cannot turn off a shipped deny', async () => {
    expect((await sandbox.bash('git rebase main')).decision).toBe('allow');
    expect((await sandbox.bash('mkfs /dev/sdb')).decision).toBe('deny');
  });
});

describe('a user allow naming the exact file overrides the shipped path asks', () => {
  const sandbox = useSandboxClassifier(
    async (box) => {
      const { writeFile } = await import('node:fs/promises');
      for (const name of ['.env.staging', '.env.local', '.env.test'])
        await writeFile(`${box.project}/${name}`, 'A=1\n');
    },
    {
      permissions: {
        allow: ['Read(./.env.staging)', 'Read(./.env.t*)', 'Read(./.env.local)'],
        ask: ['Read(./.env.local)'],
      },
    },
  );
  const read = (file: string) =>
    sandbox.classifier.classify({ tool: 'Read', input: { file_path: file }, cwd: sandbox.box.project });

  it('reads the named file, naming the user rule and the shipped ask it overrode', async () => {
    for (const v of [await read('.env.staging'), await sandbox.bash('cat .env.staging')]) {
      expect(v.decision).toBe('allow');
      expect(v.reason).toMatch(
        /allowed by Read\(\.\/\.env\.staging\), which overrides the shipped ask Read\(\.env\.\*\)/,
      );
      expect(v.parts.find((p) => p.overrides)?.overrides?.[0]).toMatchObject({ source: 'defaults' });
    }
  });

  it('keeps asking under a wildcard allow, under an ask the user wrote, and for other files', async () => {
    expect((await read('.env.test')).decision).toBe('ask');
    expect((await read('.env.local')).decision).toBe('ask');
    expect((await read('.env')).decision).toBe('ask');
  });
});

describe('config and critique pair path allows with the shipped asks they override', () => {
  const sandbox = useSandboxClassifier(undefined, {
    permissions: { allow: ['Read(./.env.staging)', 'Read(./.env.t*)', 'Edit(./config/.env.dev)'] },
  });

  it('pairs an allow naming one file, not a wildcard allow', async () => {
    const rules = sandbox.classifier.settings.rules;
    const pairs = await shippedOverrides(rules, rules, sandbox.box.home);
    const shown = pairs.map((o) => [o.allow.text, o.asks.map((a) => a.text)]);
    expect(shown).toContainEqual(['Read(./.env.staging)', expect.arrayContaining(['Read(.env.*)'])]);
    expect(shown.map(([allow]) => allow)).not.toContain('Read(./.env.t*)');
  });
});
