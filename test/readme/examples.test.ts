import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { DOC_FILES, readDoc } from '../support/docs.js';

/**
 * The console examples of the README and docs/, run: each `$ automode …` line runs through bash with `automode` on the PATH, in
 * the folder its block names, and every output line the README shows must appear in what it printed, in order.
 * `…` in a shown line stands for any text (an abridgement); `~/project` is the example project; `…/automode/`
 * is this checkout.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface Block {
  /** The page (README.md, docs/….md). */
  doc: string;
  line: number;
  steps: { command: string; shown: string[] }[];
}

function consoleBlocks(doc: string, text: string): Block[] {
  const blocks: Block[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] !== '```console') continue;
    const block: Block = { doc, line: i + 1, steps: [] };
    for (i++; i < lines.length && lines[i] !== '```'; i++) {
      const l = lines[i]!;
      if (l.startsWith('$ ')) block.steps.push({ command: l.slice(2), shown: [] });
      else block.steps.at(-1)?.shown.push(l);
    }
    blocks.push(block);
  }
  return blocks;
}

/** Blocks whose output depends on what this checkout cannot give a test: said here, each with its reason. */
const NOT_RUN: Record<string, string> = {
  'automode classify --mode auto --json "npm install left-pad"':
    'a live model answers it (tokens, latency and cost vary)',
  'automode eval --replay shipped                  # the shipped dataset, offline':
    'a list of commands without output; the next block runs the first of them',
};

/**
 * The team repository of the `automode test` example: fixtures/ci-example, where someone has dropped the deny
 * rule for force pushes.
 */
function teamProject(): string {
  const team = path.join(home, 'team');
  cpSync(path.join(ROOT, 'fixtures/ci-example'), team, { recursive: true });
  const file = path.join(team, '.claude/settings.json');
  const settings = readFileSync(file, 'utf8');
  const without = settings.replace(/,\n\s*"Bash\(git push --force \*\)"/, '');
  if (without === settings) throw new Error('fixtures/ci-example no longer denies force pushes');
  writeFileSync(file, without);
  return team;
}

/**
 * The pull request of the `automode diff` example: fixtures/ci-example committed and pushed to an origin, then
 * `Bash(git push *)` moved from ask to allow and `Bash(npm run build)` from allow to ask in the work tree.
 */
function pullRequest(): string {
  const repo = path.join(home, 'pull-request');
  const origin = path.join(home, 'origin.git');
  cpSync(path.join(ROOT, 'fixtures/ci-example'), repo, { recursive: true });
  const git = (cwd: string, ...args: string[]) => {
    const r = spawnSync('git', ['-c', 'user.email=ci@example.com', '-c', 'user.name=ci', ...args], {
      cwd,
      encoding: 'utf8',
    });
    if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  };
  git(home, 'init', '-q', '--bare', origin);
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-qm', 'base');
  git(repo, 'remote', 'add', 'origin', origin);
  git(repo, 'push', '-q', 'origin', 'main');
  const file = path.join(repo, '.claude/settings.json');
  const edited = readFileSync(file, 'utf8')
    .replace('      "Bash(npm run build)",\n', '')
    .replace('      "Bash(git commit *)",\n', '      "Bash(git commit *)",\n      "Bash(git push *)",\n')
    .replace(
      '    "ask": [\n      "Bash(git push *)"\n    ],',
      '    "ask": [\n      "Bash(npm run build)",\n      "Bash(git push --force-with-lease *)"\n    ],',
    );
  writeFileSync(file, edited);
  return repo;
}

/** The project of the `automode rules learn` example: shop-api's sessions where Claude Code keeps them. */
function learningProject(): string {
  const project = path.join(home, 'shop-api');
  const sessions = path.join(home, '.claude', 'projects', project.replace(/[^A-Za-z0-9]/g, '-'));
  mkdirSync(project, { recursive: true });
  cpSync(path.join(ROOT, 'fixtures/learn/projects/-home-dana-code-shop-api'), sessions, { recursive: true });
  return project;
}

/** The folder a block runs in: the example project by default. */
const CWD: Record<string, () => string> = {
  'automode test': teamProject,
  'automode diff --base origin/main': pullRequest,
  'automode critique --no-llm settings.json rules.yaml': () => path.join(ROOT, 'fixtures/critique/example'),
  'automode eval --replay shipped': () => ROOT,
  'automode rules learn': learningProject,
};

const home = mkdtempSync(path.join(tmpdir(), 'automode-readme-'));
const project = path.join(home, 'project');
const bin = path.join(home, 'bin');
mkdirSync(project, { recursive: true });
mkdirSync(bin);
writeFileSync(
  path.join(bin, 'automode'),
  `#!/bin/sh\nexec "${process.execPath}" "${path.join(ROOT, 'bin/automode.js')}" "$@"\n`,
);
chmodSync(path.join(bin, 'automode'), 0o755);
afterAll(() => rmSync(home, { recursive: true, force: true }));

function run(command: string, cwd: string): string {
  const r = spawnSync(
    'bash',
    [
      '--noprofile',
      '--norc',
      '-c',
      `{ ${command}
} 2>&1`,
    ],
    {
      cwd,
      encoding: 'utf8',
      env: {
        PATH: `${bin}:${process.env.PATH ?? ''}`,
        HOME: home,
        AUTOMODE_MANAGED_SETTINGS: path.join(home, 'managed.json'),
        AUTOMODE_SERVICE_DIR: path.join(home, '.automode'),
      },
    },
  );
  return r.stdout.replaceAll(project, '~/project').replaceAll(ROOT.replace(/\/$/, ''), '…/automode');
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A shown line as a pattern: `…` is any text, runs of spaces are spaces. */
function pattern(shown: string): RegExp {
  const parts = shown
    .trim()
    .replace(/^\/…\/automode/, '…/automode')
    .split(/\.\.\.|…/)
    .map((p) => escapeRegex(p).replace(/ +/g, ' +'));
  return new RegExp(parts.join('.*'));
}

/** The shown lines missing from the output, taken in order. */
function missing(shown: readonly string[], output: string): string[] {
  const lines = output.split('\n').map((l) => l.replace(/\/…\/automode/g, '…/automode'));
  const absent: string[] = [];
  let at = 0;
  for (const s of shown) {
    if (s.trim() === '' || /^\s*(\.\.\.|…)\s*$/.test(s)) continue;
    const re = pattern(s.replace(/\/…\/automode/g, '…/automode'));
    const found = lines.findIndex((l, i) => i >= at && re.test(l));
    if (found === -1) absent.push(s);
    else at = found + 1;
  }
  return absent;
}

const blocks = DOC_FILES.flatMap((doc) => consoleBlocks(doc, readDoc(doc)));

describe('the documentation console examples', () => {
  it('are each run below, or named with the reason they cannot be', () => {
    const first = blocks.map((b) => b.steps[0]?.command.replace(/\s+#.*$/, '') ?? '');
    for (const name of Object.keys(NOT_RUN))
      expect(first.concat(blocks.map((b) => b.steps[0]?.command ?? ''))).toContain(name);
    expect(blocks.length).toBeGreaterThan(8);
  });

  for (const block of blocks) {
    const first = block.steps[0]?.command ?? '';
    const key = NOT_RUN[first] !== undefined ? first : first.replace(/\s+#.*$/, '');
    if (NOT_RUN[key] !== undefined) continue;
    it(`${block.doc}:${block.line}: ${first}`, { timeout: 300_000 }, () => {
      const cwd = CWD[key]?.() ?? project;
      for (const step of block.steps) {
        const output = run(step.command, cwd);
        expect(missing(step.shown, output), `${step.command}\n--- printed:\n${output}`).toEqual([]);
      }
    });
  }
});
