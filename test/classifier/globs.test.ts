import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { caseClassifier, useSandboxClassifier } from './helpers.js';

describe('a glob too large to check', () => {
  const sandbox = useSandboxClassifier(async (box) => {
    await Promise.all(
      Array.from({ length: 2100 }, (_, i) => writeFile(path.join(box.project, `f${i}.txt`), '')),
    );
    await mkdir(path.join(box.home, '.ssh'));
    await writeFile(path.join(box.home, '.ssh', 'id_rsa'), 'PRIVATE\n');
  });
  const classify = sandbox.bash;

  it('is asked, with the reason', async () => {
    const v = await classify('cat *.txt');
    expect(v.decision).toBe('ask');
    expect(v.reason).toMatch(/matches more than 2,000 entries, too many to check one by one/);
  });

  it('does not hide a deny that the same glob meets in another folder the command may be in', async () => {
    const v = await classify('cd ~/.ssh && cat *');
    expect(v.decision).toBe('deny');
    expect(v.reason).toMatch(/id_rsa.*denied by Read\(~\/\.ssh\/id_\*\)/);
  });
});

describe('a folder too large to look through', () => {
  const sandbox = useSandboxClassifier(async (box) => {
    const modules = path.join(box.project, 'node_modules');
    await mkdir(modules);
    await Promise.all(
      Array.from({ length: 10_050 }, (_, i) => writeFile(path.join(modules, `m${i}.js`), '')),
    );
    await mkdir(path.join(box.project, 'app'));
    await writeFile(path.join(box.project, 'app', '.env'), 'KEY=1\n');
  });
  const classify = sandbox.bash;

  it('still finds a file an ask rule covers near the top: the walk goes breadth first', async () => {
    const v = await classify('grep -rn TODO .');
    expect(v.decision).toBe('ask');
    expect(v.reason).toMatch(/reads app\/\.env, which Read\(\.env\) asks about/);
  });

  it('asks when a deny rule could match past the limit, but not for an ask rule alone', async () => {
    expect((await classify('grep -rn TODO node_modules')).decision).toBe('allow');
    const strict = await caseClassifier(sandbox.box, {
      permissions: { deny: ['Read(./node_modules/**/secret.key)'] },
    });
    const denied = await strict.classify({
      tool: 'Bash',
      input: { command: 'grep -rn TODO node_modules' },
      cwd: sandbox.box.project,
    });
    expect(denied.decision).toBe('ask');
    expect(denied.reason).toMatch(
      /too large to look through for files Read\(\.\/node_modules\/\*\*\/secret\.key\) covers/,
    );
  });

  it('does not ask rg about rules that only name hidden files', async () => {
    expect((await classify('rg TODO')).decision).toBe('allow');
    expect((await classify('rg --hidden TODO')).decision).toBe('ask');
  });
});
