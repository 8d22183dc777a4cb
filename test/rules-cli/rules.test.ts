import { chmod, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createColors } from 'picocolors';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { Io } from '../../src/cli/output.js';

let root: string;
let home: string;
let project: string;
let savedHome: string | undefined;

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'automode-rules-'));
  home = path.join(root, 'home');
  project = path.join(root, 'project');
  await mkdir(home, { recursive: true });
  await mkdir(project, { recursive: true });
  savedHome = process.env.HOME;
  process.env.HOME = home;
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
  const code = await main(['rules', ...argv, '--cwd', project], io);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const local = () => path.join(project, '.claude', 'settings.local.json');
const shared = () => path.join(project, '.claude', 'settings.json');

async function write(file: string, text: string) {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
}

describe('automode rules add', () => {
  it('creates .claude/settings.local.json and lists what the rule lets through', async () => {
    const r = await run('add', 'Bash(git push *)', '--allow');
    expect(r.code).toBe(0);
    expect(JSON.parse(await readFile(local(), 'utf8'))).toEqual({
      permissions: { allow: ['Bash(git push *)'] },
    });
    expect(r.out).toContain('a new file');
    expect(r.out).toMatch(/ask → allow +git push origin main/);
  });

  it('keeps comments, indentation and trailing commas byte for byte but for the new element', async () => {
    const before = [
      '{',
      "    // the team's rules",
      '    "permissions": {',
      '        "allow": [',
      '            "Bash(npm test)", // tests',
      '        ],',
      '        /* no deny yet */',
      '    },',
      '}',
      '',
    ].join('\n');
    await write(shared(), before);
    await chmod(shared(), 0o640);
    const r = await run('add', 'Bash(git commit *)', '--allow', '--scope', 'project');
    expect(r.code).toBe(0);
    const after = await readFile(shared(), 'utf8');
    const lines = before.split('\n');
    lines.splice(5, 0, '            "Bash(git commit *)",');
    expect(after).toBe(lines.join('\n'));
    expect((await stat(shared())).mode & 0o777).toBe(0o640);
  });

  it('reports the real change when the new rule comes after a broader one that does not vouch for the call', async () => {
    await write(shared(), '{"permissions": {"allow": ["Bash(npm *)"]}}');
    const r = await run('add', 'Bash(npm run build)', '--allow', '--scope', 'project');
    expect(r.code).toBe(0);
    expect(JSON.parse(await readFile(shared(), 'utf8')).permissions.allow).toEqual([
      'Bash(npm *)',
      'Bash(npm run build)',
    ]);
    expect(r.out).toMatch(/ask → allow +npm run build/);
  });

  it('does nothing, and says so, when the rule is there', async () => {
    const text = '{"permissions": {"allow": ["Bash(git push *)"]}}';
    await write(local(), text);
    const r = await run('add', 'Bash(git push *)', '--allow');
    expect(r.code).toBe(0);
    expect(r.out).toContain('nothing to do');
    expect(await readFile(local(), 'utf8')).toBe(text);
  });

  it('refuses a rule that does not parse, with exit 2, and writes nothing', async () => {
    const r = await run('add', 'Bash(git commit', '--allow');
    expect(r.code).toBe(2);
    expect(r.err).toContain('missing ")"');
    await expect(stat(local())).rejects.toThrow();
    const typo = await run('add', 'Bsh(ls)', '--allow');
    expect(typo.code).toBe(2);
    expect(typo.err).toContain('did you mean "Bash"');
  });

  it('refuses a file that is not JSON with comments, with its line and column', async () => {
    await write(local(), '{\n  "permissions": {\n    "allow": [\n}\n');
    const r = await run('add', 'Bash(ls)', '--allow');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/settings\.local\.json:4:1: not valid JSON with comments/);
    expect(await readFile(local(), 'utf8')).toBe('{\n  "permissions": {\n    "allow": [\n}\n');
  });

  it('--dry-run shows the edit and the effect and writes nothing; --json gives the changes as data', async () => {
    const r = await run('add', 'Bash(git push *)', '--allow', '--dry-run', '--json');
    expect(r.code).toBe(0);
    const data = JSON.parse(r.out);
    expect(data).toMatchObject({ status: 'added', written: false, created: true, line: 4 });
    expect(data.effect.changes).toContainEqual(
      expect.objectContaining({ command: 'git push origin main', from: 'ask', to: 'allow' }),
    );
    await expect(stat(local())).rejects.toThrow();
  });
});

describe('automode rules remove', () => {
  it('removes the element and its line only, and shows what a removed deny lets through', async () => {
    const before =
      '{\n  "permissions": {\n    "deny": [\n      "Bash(git status)",\n      "Bash(rm -rf *)"\n    ]\n  }\n}\n';
    await write(shared(), before);
    const r = await run('remove', 'Bash(git status)', '--deny', '--scope', 'project');
    expect(r.code).toBe(0);
    expect(await readFile(shared(), 'utf8')).toBe(before.replace('      "Bash(git status)",\n', ''));
    expect(r.out).toMatch(/deny → allow +git status/);
  });

  it('exits 1 when the rule is not in that file', async () => {
    await write(local(), '{"permissions": {"allow": ["Bash(ls)"]}}');
    const r = await run('remove', 'Bash(ls)', '--deny');
    expect(r.code).toBe(1);
    expect(r.err).toContain('is not in permissions.deny');
  });

  it('needs one behaviour', async () => {
    expect((await run('remove', 'Bash(ls)')).code).toBe(2);
    expect((await run('remove', 'Bash(ls)', '--allow', '--deny')).code).toBe(2);
  });
});

describe('automode rules list', () => {
  it('shows each rule with its file, line and column, and a rule a stricter one shadows', async () => {
    await write(
      shared(),
      '{\n  "permissions": {\n    "deny": ["Bash(git push *)"],\n    "allow": ["Bash(git push origin main)"]\n  }\n}\n',
    );
    const r = await run('list', '--json');
    expect(r.code).toBe(0);
    const rules = JSON.parse(r.out).rules as {
      rule: string;
      status: string;
      line?: number;
      column?: number;
      file?: string;
      tier: string;
    }[];
    const allow = rules.find((x) => x.rule === 'Bash(git push origin main)')!;
    expect(allow).toMatchObject({
      file: shared(),
      line: 4,
      column: 15,
      status: 'shadowed',
      tier: 'user-written',
    });
    const deny = rules.find((x) => x.rule === 'Bash(git push *)')!;
    expect(deny).toMatchObject({ line: 3, column: 14, status: 'active' });
    expect(rules.some((x) => x.tier === 'shipped')).toBe(true);
    const text = await run('list', '--behavior', 'allow', '--no-defaults');
    expect(text.out).toContain(`Bash(git push origin main)  ${shared()}:4:15`);
    expect(text.out).toContain('shadowed: allow rule Bash(git push origin main) never fires');
    expect(text.out).not.toContain('deny (');
  });
});

describe('automode rules suggest', () => {
  it('suggests the subcommand level: git commit -m "x" → Bash(git commit *)', async () => {
    const r = await run('suggest', 'git commit -m "x"', '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).suggestions[0]).toMatchObject({
      rule: 'Bash(git commit *)',
      command: 'git commit -m x',
    });
  });

  it('never a broad rule: python3 script.py is allowed as written', async () => {
    const r = await run('suggest', 'python3 script.py');
    expect(r.code).toBe(0);
    expect(r.out).toContain('Bash(python3 script.py)');
    expect(r.out).toContain('not Bash(python3 *)');
    expect(r.out).toMatch(/python3 script\.py: ask now; allow with the rules below/);
  });

  it('one rule per simple command of a compound line, with what else it lets through', async () => {
    const r = await run('suggest', 'git push origin main && git log --oneline -5', '--json');
    const report = JSON.parse(r.out);
    expect(report.suggestions.map((s: { rule: string }) => s.rule)).toEqual([
      'Bash(git push *)',
      'Bash(git log *)',
    ]);
    expect(report.suggestions[0].admits).toContainEqual({ command: 'git push', from: 'ask', to: 'allow' });
    expect(report.withRules).toBe('allow');
  });

  it('each suggested rule is checked to change the decision it claims: added, it lets the command through', async () => {
    const cases = [
      'rm -rf build',
      'git checkout -- src',
      'git commit -m wip',
      'find . -type d | xargs rm -rf',
    ];
    for (const command of cases) {
      const report = JSON.parse((await run('suggest', command, '--json')).out);
      for (const s of report.suggestions.filter((x: { rule?: string }) => x.rule)) {
        expect([s.decision, s.withRule], `${command}: ${s.rule}`).toEqual([s.decision, 'allow']);
        expect((await run('add', s.rule, '--allow')).code).toBe(0);
        const out: string[] = [];
        const io: Io = {
          out: (t) => out.push(t),
          err: () => {},
          colors: createColors(false),
          errColors: createColors(false),
        };
        await main(['classify', s.command, '--json', '--no-llm', '--cwd', project], io);
        expect(JSON.parse(out.join('\n')).decision, `${s.command} with ${s.rule}`).toBe('allow');
        expect((await run('remove', s.rule, '--allow')).code).toBe(0);
      }
    }
    // A shipped ask yields to a rule naming the command; between that and the program's rule, none is offered.
    const rm = JSON.parse((await run('suggest', 'rm -rf build', '--json')).out);
    expect(rm.suggestions[0].rule).toBe('Bash(rm -rf build)');
  }, 180_000);

  it('no rule when none changes the decision: xargs appends paths no rule can name', async () => {
    for (const command of ['xargs rm -rf < dirs.txt', 'find . -type d | xargs rm -rf']) {
      const r = await run('suggest', command, '--json');
      const report = JSON.parse(r.out);
      const xargs = report.suggestions.find((s: { command: string }) => s.command === 'xargs rm -rf');
      expect(xargs.rule, command).toBeUndefined();
      expect(xargs.why).toBe(
        'no allow rule changes its decision: with Bash(xargs rm -rf) it is still ask (asked by Bash(rm -r *))',
      );
      expect(report.withRules).toBe('ask');
    }
    const text = await run('suggest', 'xargs rm -rf < dirs.txt');
    expect(text.code).toBe(1);
    expect(text.out).not.toMatch(/ask → ask/);
  }, 120_000);

  it('--deny, and no rule for words known only at run time', async () => {
    const deny = await run('suggest', 'git push --force', '--deny', '--json');
    expect(JSON.parse(deny.out).suggestions[0]).toMatchObject({ rule: 'Bash(git push *)', withRule: 'deny' });
    const dynamic = await run('suggest', 'ls $HOME');
    expect(dynamic.code).toBe(1);
    expect(dynamic.out).toContain('$HOME is known only when the command runs');
  });

  it('offers automode.readServices beside the rule where the program’s own service reads allow the command, and only there', async () => {
    const text = await run('suggest', 'kubectl get pods -n web');
    expect(text.out).toMatch(
      /or "automode": \{"readServices": \["kubectl"\]\} in .*\(kubectl get pods -n web: ask → allow/,
    );
    // The same verb with a token-printing verbosity, and a program with no service reads: no entry offered.
    for (const command of ['kubectl get pods -v=9', 'git push']) {
      const report = JSON.parse((await run('suggest', command, '--json')).out);
      expect(report.suggestions[0].readService, command).toBeUndefined();
    }
    // Once the entry is written, it is not offered again (the command is allowed already).
    await mkdir(path.join(project, '.claude'), { recursive: true });
    await writeFile(
      path.join(project, '.claude', 'settings.local.json'),
      JSON.stringify({ automode: { readServices: ['kubectl'] } }),
    );
    const after = JSON.parse((await run('suggest', 'kubectl get pods -n web', '--json')).out);
    expect(after.decision).toBe('allow');
    expect(after.suggestions[0].readService).toBeUndefined();
  });
});
