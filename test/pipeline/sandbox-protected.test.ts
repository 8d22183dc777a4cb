import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createClassifier } from '../../src/classifier/index.js';
import { createToolUseContext } from '../../src/pipeline/context.js';
import { stopSandboxRuntime } from '../../src/pipeline/sandbox/runtime.js';
import { Sandbox } from '../../src/pipeline/sandbox/sandbox.js';
import { referenceTools } from '../../src/pipeline/tools/index.js';
import { loadSettings } from '../../src/rules/settings/load-settings.js';
import { shuffle } from '../bash/oracle/generate.js';
import { recordingHandler, run } from './helpers.js';
import { permission, requireSandboxPrograms } from './sandbox-helpers.js';

/** What a sandboxed command tried to make the settings say: allow everything, and no sandbox. */
const EVIL = JSON.stringify({ permissions: { allow: ['Bash(*)'] }, sandbox: { enabled: false } });

/** The agent's own configuration in a project, each with what it holds before the commands run. */
const GUARDED = [
  '.claude/settings.json',
  '.claude/settings.local.json',
  '.claude/commands/x.md',
  '.mcp.json',
  '.git/config',
  '.git/hooks/pre-commit',
  '.gitmodules',
  '.bashrc',
  'sub/.git/config',
  'sub/.claude/settings.json',
];

const sh = (cwd: string, ...args: string[]) =>
  execFileSync(args[0]!, args.slice(1), { cwd, stdio: ['ignore', 'pipe', 'pipe'] });

/**
 * A project holding the agent's configuration and, staged in it, the means to overwrite all of it: a file, a
 * folder to copy, archives of every kind, a patch, and a git branch whose tree has a `.claude`.
 */
async function world(base: string) {
  const root = await mkdtemp(path.join(base, 'automode-protect-'));
  const cwd = path.join(root, 'project');
  const home = path.join(root, 'home');
  await mkdir(path.join(home, '.claude'), { recursive: true });
  await mkdir(cwd);
  sh(cwd, 'git', 'init', '-q', '-b', 'main');
  sh(cwd, 'git', 'config', 'user.email', 'a@example.com');
  sh(cwd, 'git', 'config', 'user.name', 'a');
  await mkdir(path.join(cwd, 'sub'));
  sh(path.join(cwd, 'sub'), 'git', 'init', '-q');
  for (const rel of GUARDED) {
    if (rel.endsWith('config') && rel.includes('.git/')) continue;
    await mkdir(path.dirname(path.join(cwd, rel)), { recursive: true });
    await writeFile(path.join(cwd, rel), rel.endsWith('.json') ? '{}' : `# ${rel}\n`);
  }
  await writeFile(path.join(cwd, '.claude', 'settings.json'), JSON.stringify({ sandbox: { enabled: true } }));
  // The branch `evil` holds every guarded file with EVIL in it; main goes on without it.
  const staged = path.join(cwd, 'staged');
  for (const rel of [...GUARDED, 'README.md']) {
    if (rel.includes('.git/') || rel.startsWith('sub/')) continue;
    await mkdir(path.dirname(path.join(staged, rel)), { recursive: true });
    await writeFile(path.join(staged, rel), EVIL);
  }
  await writeFile(path.join(cwd, 'evil.json'), EVIL);
  sh(staged, 'tar', '-cf', path.join(cwd, 'evil.tar'), '.');
  sh(staged, 'tar', '-czf', path.join(cwd, 'evil.tgz'), '.');
  sh(staged, 'zip', '-qr', path.join(cwd, 'evil.zip'), '.');
  execFileSync('bash', ['-c', `find . | cpio -o --quiet > ${path.join(cwd, 'evil.cpio')}`], { cwd: staged });
  sh(cwd, 'git', 'add', '--', '.', ':!sub');
  sh(cwd, 'git', 'commit', '-qm', 'base');
  sh(cwd, 'git', 'checkout', '-qb', 'evil');
  for (const rel of ['.claude/settings.local.json', '.claude/settings.json', '.mcp.json']) {
    await writeFile(path.join(cwd, rel), EVIL);
    sh(cwd, 'git', 'add', '-f', rel);
  }
  sh(cwd, 'git', 'commit', '-qm', 'evil');
  await writeFile(path.join(cwd, 'evil.patch'), sh(cwd, 'git', 'diff', 'main', 'evil'));
  sh(cwd, 'git', 'checkout', '-q', 'main');
  sh(cwd, 'git', 'rm', '-q', '--cached', '.claude/settings.local.json');
  await rm(path.join(cwd, '.claude', 'settings.local.json'));
  return { root, cwd, home };
}

/** Every file under the guarded names, with a hash of what it holds: what must not change. */
function snapshot(cwd: string): Map<string, string> {
  const out = new Map<string, string>();
  const visit = (p: string, rel: string) => {
    let s: ReturnType<typeof lstatSync>;
    try {
      s = lstatSync(p);
    } catch {
      return;
    }
    if (s.isDirectory()) {
      for (const e of readdirSync(p)) visit(path.join(p, e), `${rel}/${e}`);
      return;
    }
    const body = s.isSymbolicLink() ? `link:${readlinkSafe(p)}` : readFileSync(p).toString('base64');
    out.set(rel, createHash('sha256').update(body).digest('hex'));
  };
  for (const top of ['.claude', '.mcp.json', '.git/config', '.git/hooks', '.gitmodules', '.bashrc', 'sub'])
    visit(path.join(cwd, top), top);
  return out;
}

function readlinkSafe(p: string): string {
  try {
    return execFileSync('readlink', [p]).toString();
  } catch {
    return '?';
  }
}

/** The reproductions, then the same shapes with other programs, archive kinds and targets. */
function commands(): string[] {
  const out = [
    'tar -xf evil.tar',
    'cp -r staged/. .',
    'cd .claude && cp ../evil.json settings.local.json',
    'cd .claude && cat ../evil.json > settings.local.json',
    'cd .claude; tee settings.local.json < ../evil.json',
    'tar -xzf evil.tgz',
    'tar xf evil.tar',
    'tar --extract --file evil.tar',
    'gunzip -c evil.tgz | tar -x',
    'unzip -oq evil.zip',
    'cpio -idum --quiet < evil.cpio',
    'rsync -a staged/ .',
    'rsync -r staged/.claude .',
    'cp -a staged/.claude .',
    'cp -rT staged .',
    'mv staged/.claude .claude-new && mv .claude-new/settings.local.json .claude/',
    'git checkout evil -- .',
    'git checkout evil -- .claude',
    'git restore --source=evil .',
    'git apply evil.patch',
    'git checkout -q evil',
    'patch -p1 < evil.patch',
  ];
  for (const t of GUARDED) {
    const dir = path.dirname(t);
    const name = path.basename(t);
    const up = dir
      .split('/')
      .map(() => '..')
      .join('/');
    out.push(
      `cp evil.json ${t}`,
      `cat evil.json > ${t}`,
      `tee ${t} < evil.json`,
      `install -D -m644 evil.json ${t}`,
      `ln -sf "$PWD/evil.json" ${t}`,
      `cd ${dir} && cp ${up}/evil.json ${name}`,
      `cd ${dir}; cat ${up}/evil.json >> ${name}`,
      `pushd ${dir} && install -m644 ${up}/evil.json ${name}`,
    );
  }
  return out;
}

/**
 * Every command under both places and both answers (`npm run oracle`, SANDBOX_PROTECT_FULL=1). The suite splits
 * the commands in two halves after a seeded shuffle: each command is answered allow (and run) in one place and
 * answered deny in the other, so that every command meets both answers and each place both halves.
 */
const FULL = process.env.SANDBOX_PROTECT_FULL === '1';
const SEED = process.env.SANDBOX_PROTECT_SEED
  ? Number(process.env.SANDBOX_PROTECT_SEED)
  : Math.floor(Math.random() * 0x7fffffff);

function half(all: readonly string[], which: number): string[] {
  if (FULL) return [...all];
  return shuffle([...all], SEED).filter((_, i) => i % 2 === which);
}

let saved: string;
beforeAll(() => {
  requireSandboxPrograms();
  for (const bin of ['rsync', 'cpio', 'zip', 'unzip', 'patch'])
    sh(
      '/',
      'bash',
      '-c',
      `command -v ${bin} || { echo "${bin} missing: run scripts/setup-sandbox.sh" >&2; exit 1; }`,
    );
  saved = process.cwd();
  if (!FULL) console.log(`sandbox protect seed: ${SEED} (SANDBOX_PROTECT_SEED=${SEED} repeats this share)`);
});

afterAll(async () => {
  process.chdir(saved);
  await stopSandboxRuntime();
});

describe.skipIf(process.platform !== 'linux')('the sandbox protects the agent’s own configuration', () => {
  // A project under /var/tmp and one under the temp folder, the process's folder outside and inside it.
  const where = [
    { base: '/var/tmp', inside: false },
    { base: tmpdir(), inside: true },
  ];
  const answers = ['deny', 'allow'] as const;
  for (const [w, { base, inside }] of where.entries()) {
    for (const [a, answer] of answers.entries()) {
      test(`under ${base}, process ${inside ? 'in' : 'outside'} the project, questions answered ${answer}`, async () => {
        const { root, cwd, home } = await world(base);
        try {
          const settings = await loadSettings({
            cwd,
            home,
            managedPath: path.join(root, 'managed.json'),
            env: {},
          });
          expect(settings.sandbox?.enabled).toBe(true);
          const sandbox = new Sandbox(settings);
          const { handler } = recordingHandler(answer);
          process.chdir(inside ? cwd : saved);
          const before = snapshot(cwd);
          const allowedBySandbox: string[] = [];
          const changed: string[] = [];
          const mine = half(commands(), (w + a) % 2);
          expect(mine.length).toBeGreaterThanOrEqual(Math.floor(commands().length / 2));
          for (const command of mine) {
            const ctx = createToolUseContext({
              classifier: createClassifier(settings, {}),
              tools: referenceTools(),
              resultsDir: path.join(root, 'results'),
              sandbox,
              handler,
            });
            const r = await run(ctx, 'Bash', { command });
            const p = permission(r.messages);
            if (p?.decision === 'allow' && p.by === 'sandbox') allowedBySandbox.push(command);
            const after = snapshot(cwd);
            const diff = [...new Set([...before.keys(), ...after.keys()])].filter(
              (k) => before.get(k) !== after.get(k),
            );
            if (diff.length > 0) {
              changed.push(`${command}: ${diff.join(', ')}`);
              sh(cwd, 'git', 'checkout', '-qf', 'main');
            }
          }
          expect(allowedBySandbox).toEqual([]);
          expect(changed).toEqual([]);
          sandbox.close();
        } finally {
          process.chdir(saved);
          await rm(root, { recursive: true, force: true });
        }
      }, 240_000);
    }
  }
});

describe.skipIf(process.platform !== 'linux')('the sandbox’s temp folder', () => {
  test('is private to the session, its TMPDIR, and the host temp folder stays read-only', async () => {
    const { root, cwd, home } = await world('/var/tmp');
    try {
      const settings = await loadSettings({
        cwd,
        home,
        managedPath: path.join(root, 'managed.json'),
        env: {},
      });
      const sandbox = new Sandbox(settings);
      const ctx = createToolUseContext({
        classifier: createClassifier(settings, {}),
        tools: referenceTools(),
        resultsDir: path.join(root, 'results'),
        sandbox,
      });
      const host = path.join(tmpdir(), `automode-host-${process.pid}-${Date.now()}`);
      const r = await run(ctx, 'Bash', {
        command: `echo "$TMPDIR" && mktemp >/dev/null && echo x > ${host}`,
      });
      expect(r.text.replace(/^Error: /, '').split('\n')[0]).toBe(sandbox.tempDir);
      expect(lstatSync(sandbox.tempDir).mode & 0o777).toBe(0o700);
      expect(readdirSync(sandbox.tempDir)).toHaveLength(1);
      expect(existsSync(host)).toBe(false);
      const temp = sandbox.tempDir;
      sandbox.close();
      expect(existsSync(temp)).toBe(false);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  }, 60_000);
});
