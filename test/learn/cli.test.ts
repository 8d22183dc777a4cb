import { copyFile, mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createColors } from 'picocolors';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { Io } from '../../src/cli/output.js';

const SHOP = path.resolve('fixtures/learn/projects/-home-dana-code-shop-api');
let root: string;
let project: string;
let savedHome: string | undefined;

beforeEach(async () => {
  root = await realpath(await mkdtemp(path.join(tmpdir(), 'automode-learn-cli-')));
  project = path.join(root, 'project');
  await mkdir(path.join(root, 'home'), { recursive: true });
  await mkdir(project, { recursive: true });
  savedHome = process.env.HOME;
  process.env.HOME = path.join(root, 'home');
});
afterEach(async () => {
  process.env.HOME = savedHome;
  await rm(root, { recursive: true, force: true });
});

async function run(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = {
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    colors: createColors(false),
    errColors: createColors(false),
  };
  const code = await main(argv, io);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const local = () => path.join(project, '.claude', 'settings.local.json');
const exists = (f: string) =>
  readFile(f).then(
    () => true,
    () => false,
  );

describe('automode rules learn', () => {
  it('reports the rules, the prompts they spare per project and what else they admit; writes nothing', async () => {
    const r = await run('rules', 'learn', SHOP, '--cwd', project);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/read 2 file\(s\): 83 calls/);
    expect(r.out).toContain('x-telemetry 1');
    expect(r.out).toMatch(/^ {2}Bash\(npm run lint\) {2}\d+ prompt\(s\) spared/m);
    expect(r.out).toContain('not Bash(npm run *)');
    expect(r.out).toMatch(/\/home\/dana\/code\/shop-api +\d+ +\d+ +\d+ +\d+ +\d+ +\d+%/);
    expect(r.out).toContain('nothing written: add --apply');
    expect(r.out).toContain('Bearer <redacted>');
    expect(r.out).not.toContain('R4nd0mT0ken');
    expect(await exists(local())).toBe(false);
  });

  it('--json: the rules with their evidence, the figures, no secret', async () => {
    const r = await run('rules', 'learn', SHOP, '--cwd', project, '--json');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out);
    expect(report.written).toBe(false);
    expect(report.read.unknown).toEqual({ 'x-telemetry': 1 });
    expect(report.rules.map((x: { rule: string }) => x.rule)).toContain('Bash(npm run build)');
    expect(report.total.sparedRepeated / report.total.repeated).toBeGreaterThanOrEqual(0.8);
    expect(report.after).toBeUndefined();
    expect(r.out).not.toContain('R4nd0mT0ken');
    expect(await exists(local())).toBe(false);
  });

  it('--apply writes with the settings editor, keeps the formatting, and the change shows in automode test and diff', async () => {
    await mkdir(path.dirname(local()), { recursive: true });
    const before =
      '{\n    "$schema": "https://json.schemastore.org/claude-code-settings.json",\n    "permissions": {\n        "allow": [\n            "Bash(ls *)"\n        ],\n        "deny": ["Read(./.env)"]\n    }\n}\n';
    await writeFile(local(), before);
    await copyFile(local(), path.join(root, 'before.json'));
    const tests = path.join(project, 'learned.automode-test.json');
    const dry = await run('rules', 'learn', SHOP, '--cwd', project, '--save-tests', tests);
    expect(dry.code).toBe(0);
    expect(await readFile(local(), 'utf8')).toBe(before);
    // The prompts the rules would spare fail as tests until the rules are written.
    const failing = await run('test', tests, '--cwd', project);
    expect(failing.code).toBe(1);

    const r = await run('rules', 'learn', SHOP, '--cwd', project, '--apply');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/wrote \d+ rule\(s\) to permissions.allow of/);
    expect(r.out).toMatch(/newly allowed \(\d+\)/);
    expect(r.out).toContain('ask → allow  Bash: npm run build');
    const after = await readFile(local(), 'utf8');
    expect(after.startsWith(before.slice(0, before.indexOf('"Bash(ls *)"')))).toBe(true);
    expect(after).toContain('            "Bash(ls *)",\n            "Bash(npm run');
    expect(after).toContain('        "deny": ["Read(./.env)"]');
    expect(JSON.parse(after).permissions.allow).toContain('Bash(npm run build)');

    const passing = await run('test', tests, '--cwd', project);
    expect(passing.out).toMatch(/passed/);
    expect(passing.code).toBe(0);
    const diff = await run(
      'diff',
      '--base',
      path.join(root, 'before.json'),
      '--head',
      local(),
      '--corpus',
      tests,
      '--cwd',
      project,
    );
    expect(diff.code).toBe(1);
    expect(diff.out).toMatch(/newly allowed \(\d+\)/);
    expect(diff.out).toContain('npm run build');
    // Learning again proposes nothing more.
    const again = await run('rules', 'learn', SHOP, '--cwd', project, '--json');
    expect(JSON.parse(again.out).rules).toEqual([]);
  }, 120_000);

  it('a missing path is a usage error; a line that is not JSON is located and skipped', async () => {
    const missing = await run('rules', 'learn', path.join(root, 'nope'), '--cwd', project);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain(`${path.join(root, 'nope')}: cannot read: ENOENT`);
    const bad = path.join(root, 'bad.jsonl');
    await writeFile(
      bad,
      '{"type":"user","message":{"role":"user","content":"hi"}}\n{"type": "assistant", \n',
    );
    const r = await run('rules', 'learn', bad, '--cwd', project);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(new RegExp(`${bad}:2:1: not JSON`));
    expect(r.out).toContain('no rule to propose');
  });

  it("reads this project's Claude Code sessions when no path is given", async () => {
    const none = await run('rules', 'learn', '--cwd', project);
    expect(none.code).toBe(2);
    expect(none.err).toContain('no sessions of this project at');
    const folder = path.join(root, 'home', '.claude', 'projects', project.replace(/[^A-Za-z0-9]/g, '-'));
    await mkdir(folder, { recursive: true });
    await copyFile(path.join(SHOP, 'shop-api-session-1.jsonl'), path.join(folder, 's.jsonl'));
    const r = await run('rules', 'learn', '--cwd', project, '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).rules.length).toBeGreaterThan(5);
  });

  it('--scope user: rules for ~/.claude/settings.json, files of the project left to the project', async () => {
    const r = await run('rules', 'learn', SHOP, '--cwd', project, '--scope', 'user', '--json');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out);
    expect(report.file).toBe(path.join(root, 'home', '.claude', 'settings.json'));
    expect(report.rules.some((x: { rule: string }) => x.rule.startsWith('Edit('))).toBe(false);
    expect(report.unlearned.map((u: { why: string }) => u.why)).toContainEqual(
      expect.stringMatching(/^a file of the project: a user-scope rule/),
    );
    expect(report.rules.map((x: { rule: string }) => x.rule)).toContain('Bash(npm run build)');
  });

  it('other actions take one argument', async () => {
    const r = await run('rules', 'suggest', 'git', 'status', '--cwd', project);
    expect(r.code).toBe(2);
    expect(r.err).toContain('quote it');
  });
});
