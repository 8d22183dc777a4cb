import { spawnSync } from 'node:child_process';
import { cp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { BIN, git, REPO, remove, tempFolder } from './helpers.js';

/**
 * fixtures/ci-example is a rule repository with a GitHub Actions workflow. These tests run the workflow's own
 * automode commands (read from the workflow file, `./node_modules/.bin/automode` replaced by the built CLI) in a copy of it that is
 * a git repository with an `origin`, as a pull request from a branch would see it.
 */
const EXAMPLE = path.join(REPO, 'fixtures/ci-example');
let root: string;
let repo: string;
let steps: { name?: string; run?: string; if?: string; with?: Record<string, unknown>; uses?: string }[];

function step(name: string): string {
  const found = steps.find((s) => s.name === name);
  if (!found?.run) throw new Error(`no step "${name}" with a run command`);
  return found.run;
}

/** Runs a workflow command as GitHub's `shell: bash` does (`-eo pipefail`), for a pull request into main. */
function sh(command: string) {
  const local = command.replaceAll('./node_modules/.bin/automode', `"${process.execPath}" "${BIN}"`);
  const r = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', local], {
    cwd: repo,
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH ?? '',
      HOME: '/nonexistent/automode-ci-home',
      GITHUB_BASE_REF: 'main',
      GITHUB_STEP_SUMMARY: path.join(root, 'summary.md'),
    },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

beforeAll(async () => {
  root = await tempFolder('automode-ci-');
  repo = path.join(root, 'repo');
  await cp(EXAMPLE, repo, { recursive: true });
  const workflow = parse(await readFile(path.join(repo, '.github/workflows/automode.yml'), 'utf8'));
  steps = workflow.jobs.rules.steps;
  git(root, 'init', '-q', '--bare', '-b', 'main', 'origin.git');
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'Team rules');
  git(repo, 'remote', 'add', 'origin', path.join(root, 'origin.git'));
  git(repo, 'push', '-q', 'origin', 'main');
  git(repo, 'checkout', '-q', '-b', 'allow-pushes');
});
afterAll(() => remove(root));

describe('fixtures/ci-example', () => {
  it('runs on a Node the package supports: one of the versions CI tests, within engines.node', async () => {
    const setup = steps.find((s) => s.uses?.startsWith('actions/setup-node'));
    const version = String(setup?.with?.['node-version'] ?? '');
    const pinned = [
      ...(await readFile(path.join(REPO, 'scripts/node-line.sh'), 'utf8')).matchAll(/^ {2}\[([\d.]+)\]=/gm),
    ].map((m) => m[1]);
    expect(pinned).toContain(version);
    const engines = JSON.parse(await readFile(path.join(REPO, 'package.json'), 'utf8')).engines
      .node as string;
    const [major, minor] = version.split('.').map(Number) as [number, number];
    const [, wantMajor, wantMinor] = (/^>=(\d+)\.(\d+)$/.exec(engines) ?? []).map(Number);
    expect(major > wantMajor! || (major === wantMajor && minor >= wantMinor!)).toBe(true);
  });

  it('has a workflow that tests the rules, critiques them and diffs them against the base branch', () => {
    expect(step('Test the rules')).toBe(
      './node_modules/.bin/automode test --format junit > automode-junit.xml',
    );
    expect(step('Critique the rules')).toMatch(
      /^\.\/node_modules\/\.bin\/automode critique .*--format sarif > automode\.sarif$/,
    );
    expect(step('What this pull request lets through')).toMatch(
      /^\.\/node_modules\/\.bin\/automode diff --base "origin\/\$GITHUB_BASE_REF" --head \. --format markdown/,
    );
    // The registry's "automode" is not this project: the workflow installs a pinned commit the team chooses.
    expect(steps.find((s) => s.run?.startsWith('npm install'))?.run).toBe(
      'npm install --no-save "git+https://github.com/OWNER/automode.git#COMMIT"',
    );
    expect(steps.find((s) => s.uses?.startsWith('github/codeql-action/upload-sarif'))?.with).toMatchObject({
      sarif_file: 'automode.sarif',
    });
    expect(steps.find((s) => s.uses?.startsWith('actions/checkout'))?.with).toMatchObject({
      'fetch-depth': 0,
    });
  });

  it('the tests pass and write a JUnit report, the case left to the model skipped', async () => {
    const r = sh(step('Test the rules'));
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const junit = await readFile(path.join(repo, 'automode-junit.xml'), 'utf8');
    expect(junit).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="automode" tests="\d+" failures="0" errors="0" skipped="1"/,
    );
    expect(junit).toContain('<testsuite name="team policy" file="tests/policy.automode-test.yaml"');
    expect(junit).toContain('<skipped message="needs the model');
  });

  it('the critique writes SARIF for code scanning', async () => {
    const r = sh(step('Critique the rules'));
    expect([0, 1]).toContain(r.code);
    const sarif = JSON.parse(await readFile(path.join(repo, 'automode.sarif'), 'utf8'));
    expect(sarif.version).toBe('2.1.0');
    expect(Array.isArray(sarif.runs)).toBe(true);
  });

  it('the diff passes a pull request that lets nothing more through, and fails one that does', async () => {
    const same = sh(step('What this pull request lets through'));
    expect(same.code).toBe(0);
    expect(same.out).toContain('### automode diff: nothing becomes more permissive');
    expect(await readFile(path.join(root, 'summary.md'), 'utf8')).toBe(same.out);

    const settingsFile = path.join(repo, '.claude/settings.json');
    const settings = JSON.parse(await readFile(settingsFile, 'utf8'));
    settings.permissions.ask = settings.permissions.ask.filter((r: string) => r !== 'Bash(git push *)');
    settings.permissions.allow.push('Bash(git push *)');
    await writeFile(settingsFile, JSON.stringify(settings, null, 2));
    git(repo, 'commit', '-q', '-am', 'Allow pushes');

    const wider = sh(step('What this pull request lets through'));
    expect(wider.code).toBe(1);
    expect(wider.out).toMatch(/### automode diff: [1-9]\d* newly allowed/);
    expect(wider.out).toContain(
      '| `git push origin main` | ask | **allow** | `Bash(git push *)` .claude/settings.json:',
    );
    expect(wider.out).toContain('#### Newly allowed');
    expect(await readFile(path.join(root, 'summary.md'), 'utf8')).toContain(wider.out);
  });
});
