import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Sandbox, useSandboxClassifier } from './helpers.js';

/** A project with a denied `.env`, a git folder, and links to a denied key outside it. */
async function plant(box: Sandbox): Promise<void> {
  const file = async (at: string, text: string) => {
    await mkdir(path.dirname(at), { recursive: true });
    await writeFile(at, text);
  };
  await file(path.join(box.home, '.ssh/id_rsa'), 'key\n');
  await file(path.join(box.project, '.env'), 'SECRET=1\n');
  await file(path.join(box.project, '.git/HEAD'), 'ref: refs/heads/main\n');
  await file(path.join(box.project, 'README.md'), 'readme\n');
  await file(path.join(box.project, 'src/a.ts'), '\n');
  await mkdir(path.join(box.project, 'docs'), { recursive: true });
  await symlink(path.join(box.home, '.ssh/id_rsa'), path.join(box.project, 'docs/key'));
  await symlink(path.join(box.home, '.ssh'), path.join(box.project, 'docs/sshdir'));
}

const permissions = {
  allow: ['Bash(grep *)', 'Bash(rg *)', 'Bash(tree *)', 'Bash(cp *)', 'Read(./**)'],
  deny: ['Read(./.env)', 'Read(~/.ssh/**)'],
};

describe('grep, rg, tree and cp under rules that allow them', () => {
  const sandbox = useSandboxClassifier(plant, { permissions });
  const decision = async (command: string) => (await sandbox.bash(command)).decision;

  it('a recursive grep reads the folder whole, however recursion is asked for', async () => {
    for (const command of [
      'grep -d recurse SECRET',
      'grep --directories=recurse SECRET',
      'grep --dir=rec SECRET',
      'grep -drecurse SECRET .',
      'grep -r SECRET',
      'egrep -r SECRET',
      'grep --recursive -l SECRET',
    ])
      expect(await decision(command), command).toBe('deny');
    expect(await decision('grep -d skip SECRET README.md')).toBe('allow');
    expect(await decision('grep -r SECRET src')).toBe('allow');
  });

  it('grep -R and rg -L read what the links below lead to', async () => {
    for (const command of ['grep -R SECRET docs', 'grep --dereference-recursive key docs', 'rg -L key docs'])
      expect(await decision(command), command).not.toBe('allow');
  });

  it('rg reads hidden and ignored files when an option or a glob brings them in', async () => {
    for (const command of [
      'rg -g .env SECRET',
      'rg --glob .env SECRET',
      "rg --iglob '.ENV' SECRET",
      'rg --unrestricted --unrestricted SECRET',
      'rg -uu SECRET',
      'rg -. SECRET',
      'rg --hidden SECRET',
      "rg --type-add 'x:*.env' -tx SECRET",
      "rg --type-add 'x:.env' --type x SECRET",
      'rg --frobnicate SECRET',
    ])
      expect(await decision(command), command).toBe('deny');
    expect(await decision('rg SECRET')).toBe('allow');
    expect(await decision("rg -g '!*.md' -n SECRET")).toBe('allow');
    // A glob re-includes only the hidden names it matches.
    expect(await decision("rg -g '*.ts' SECRET")).toBe('allow');
    expect(await decision("rg -g 'src/**/*.ts' SECRET")).toBe('allow');
    for (const glob of ['*.env', '.e*', '*', '**', '{.env,x}', 'sub/.env'])
      expect(await decision(`rg -g '${glob}' SECRET`), glob).toBe('deny');
    // One -u reads what ignore files leave out, never a hidden entry.
    expect(await decision('rg -u SECRET')).toBe('allow');
    expect(await decision('rg --no-ignore-vcs SECRET')).toBe('allow');
  });

  it('rg with a configuration file may read hidden files', async () => {
    const saved = process.env.RIPGREP_CONFIG_PATH;
    process.env.RIPGREP_CONFIG_PATH = path.join(sandbox.box.home, 'rgrc');
    try {
      expect(await decision('rg SECRET')).toBe('deny');
    } finally {
      if (saved === undefined) delete process.env.RIPGREP_CONFIG_PATH;
      else process.env.RIPGREP_CONFIG_PATH = saved;
    }
  });

  it('tree asks before it writes, and reads the files options name', async () => {
    for (const command of ['tree -a -H . -R -L 3', 'tree -R -L 1 docs'])
      expect(await decision(command), command).toBe('ask');
    // -l follows the links below docs into the denied ~/.ssh: the listing is decided on the folders it reaches.
    expect(await decision('tree -l docs')).toBe('deny');
    expect(await decision('tree --fromfile .env')).toBe('deny');
    expect(await decision('tree -H . --hintro .env')).toBe('deny');
    expect(await decision('tree -o out.txt')).not.toBe('allow');
    expect(await decision('tree -a -L 2')).toBe('allow');
  });

  it('cp that follows links below a folder reads what they lead to', async () => {
    for (const command of [
      'cp -rL docs x',
      'cp -RL docs x',
      'cp -aL docs x',
      'cp -r --dereference docs x',
      'cp -rl docs x',
    ])
      expect(await decision(command), command).not.toBe('allow');
    expect(await decision('cp -rH docs/sshdir x')).toBe('deny');
    expect(await decision('cp docs/key x')).toBe('deny');
    expect(await decision('cp -r src x')).toBe('allow');
  });
});

describe('cp in acceptEdits mode', () => {
  const sandbox = useSandboxClassifier(plant, { permissions: { defaultMode: 'acceptEdits' } });
  const decision = async (command: string) => (await sandbox.bash(command)).decision;

  it('allows a plain copy, not one whose written names cannot be seen', async () => {
    expect(await decision('cp README.md notes.md')).toBe('allow');
    for (const command of [
      'cp -rL docs x',
      'cp -r docs/. .',
      'cp -rT docs .',
      'cp -r src x',
      'cp -l .git/HEAD h',
    ])
      expect(await decision(command), command).not.toBe('allow');
  });
});

describe('rg and ignore files that re-include hidden entries', () => {
  for (const [where, ignore] of [
    ['the project', '.gitignore'],
    ['a folder below it', 'sub/.gitignore'],
    ['a folder below it', 'sub/.ignore'],
  ] as const) {
    describe(`${ignore} in ${where}`, () => {
      const sandbox = useSandboxClassifier(
        async (box) => {
          await plant(box);
          await mkdir(path.join(box.project, 'sub'), { recursive: true });
          await writeFile(path.join(box.project, 'sub/.env'), 'SECRET=2\n');
          await writeFile(path.join(box.project, ignore), 'build\n!.env\n');
        },
        { permissions: { deny: ['Read(**/.env)'] } },
      );
      it('reads the hidden file the ! line names', async () => {
        expect((await sandbox.bash('rg SECRET')).decision).toBe('deny');
        expect((await sandbox.bash('rg -n SECRET sub')).decision).toBe('deny');
      });
    });
  }
  describe('without one', () => {
    const sandbox = useSandboxClassifier(
      async (box) => {
        await plant(box);
        await mkdir(path.join(box.project, 'sub'), { recursive: true });
        await writeFile(path.join(box.project, 'sub/.env'), 'SECRET=2\n');
        await writeFile(path.join(box.project, 'sub/.gitignore'), 'build\n');
      },
      { permissions: { deny: ['Read(**/.env)'] } },
    );
    it('skips hidden entries', async () => {
      expect((await sandbox.bash('rg SECRET')).decision).toBe('allow');
    });
  });
});
