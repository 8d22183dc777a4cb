import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cli, git, gitInit, remove, tempFolder, writeTree } from './helpers.js';

let root: string;
beforeEach(async () => {
  root = await tempFolder();
});
afterEach(() => remove(root));

const CALLS = [
  { id: 'terraform', command: 'terraform plan' },
  { id: 'push', command: 'git push origin main' },
  { id: 'build', command: 'npm run build' },
  { id: 'curl', command: 'curl -s https://example.com' },
  { id: 'env', tool: 'Read', input: { file_path: '.env' } },
  { id: 'status', command: 'git status' },
]
  .map((c) => JSON.stringify(c))
  .join('\n');

const OLD = { permissions: { allow: ['Bash(npm run build)'], deny: ['Bash(git push *)'] } };
const NEW = {
  permissions: {
    allow: ['Bash(terraform plan)', 'Bash(git push *)'],
    deny: ['Read(./.env)', 'Bash(npm run build)'],
  },
};

describe('automode diff', () => {
  it('lists the calls whose decision changes, newly allowed first, and exits 1 when anything widens', async () => {
    await writeTree(root, { 'old.json': OLD, 'new.json': NEW, 'calls.jsonl': CALLS });
    const r = cli(['diff', '--base', 'old.json', '--head', 'new.json', '--corpus', 'calls.jsonl'], root);
    expect(r.err).toBe('');
    expect(r.code).toBe(1);
    const lines = r.out.split('\n');
    expect(lines[0]).toBe('automode diff  base old.json  →  head new.json');
    expect(lines[1]).toBe('6 calls: 2 newly allowed, 0 more permissive, 2 stricter, 2 unchanged');
    const order = lines
      .filter((l) => /^ {2}\w+ → \w+/.test(l))
      .map((l) => `${l.trim().split(/\s{2,}/)[0]} ${l.trim().split(/\s+/).at(-1)}`);
    expect(order).toEqual([
      'deny → allow push',
      'ask → allow terraform',
      'allow → deny build',
      'ask → deny env',
    ]);
    expect(r.out).toMatch(/head {2}allow by Bash\(git push \*\) {2}new\.json:\d+:\d+ \(flagSettings\)/);
    expect(r.out).toMatch(/base {2}deny {2}by Bash\(git push \*\) {2}old\.json:\d+:\d+ \(flagSettings\)/);
    expect(
      cli(
        ['diff', '--base', 'old.json', '--head', 'new.json', '--corpus', 'calls.jsonl', '--allow-widening'],
        root,
      ).code,
    ).toBe(0);
    expect(
      cli(['diff', '--base', 'new.json', '--head', 'new.json', '--corpus', 'calls.jsonl'], root).code,
    ).toBe(0);
  });

  it('--json prints the sides, the tally and every change', async () => {
    await writeTree(root, { 'old.json': OLD, 'new.json': NEW, 'calls.jsonl': CALLS });
    const r = cli(
      ['diff', '--json', '--base', 'old.json', '--head', 'new.json', '--corpus', 'calls.jsonl'],
      root,
    );
    expect(r.code).toBe(1);
    const j = JSON.parse(r.out);
    expect(j.summary).toEqual({
      calls: 6,
      changed: 4,
      newlyAllowed: 2,
      widened: 2,
      narrowed: 2,
      leftToModel: 0,
    });
    expect(j.base).toMatchObject({ spec: 'old.json', kind: 'path', files: [path.join(root, 'old.json')] });
    expect(j.changes[0]).toMatchObject({
      id: 'push',
      kind: 'newly-allowed',
      call: { tool: 'Bash', input: { command: 'git push origin main' } },
      base: { decision: 'deny', rule: { text: 'Bash(git push *)' } },
      head: { decision: 'allow', rule: { text: 'Bash(git push *)', file: path.join(root, 'new.json') } },
    });
    expect(j.changes.map((c: { kind: string }) => c.kind)).toEqual([
      'newly-allowed',
      'newly-allowed',
      'narrowed',
      'narrowed',
    ]);
  });

  it('--format markdown prints tables ready for a pull request comment, the stricter ones folded', async () => {
    await writeTree(root, {
      'old.json': OLD,
      'new.json': {
        permissions: { ...NEW.permissions, allow: [...NEW.permissions.allow, 'Bash(deploy *)'] },
      },
      'calls.jsonl': `${CALLS}\n${JSON.stringify({ command: "deploy 'a|b' '`x`'" })}`,
    });
    const r = cli(
      ['diff', '--format', 'markdown', '--base', 'old.json', '--head', 'new.json', '--corpus', 'calls.jsonl'],
      root,
    );
    expect(r.code).toBe(1);
    expect(r.out).toContain('### automode diff: 3 newly allowed, 0 more permissive');
    expect(r.out).toContain('#### Newly allowed (3)');
    expect(r.out).toContain('| ``git push origin main`` |'.replace(/``/g, '`'));
    expect(r.out).toContain("| ``deploy 'a\\|b' '`x`'`` | ask | **allow** | `Bash(deploy *)` new.json:");
    expect(r.out).toContain('<details><summary>Stricter (2)</summary>');
  });

  it('reads the base from a git revision in the shape of the head: a rule repository folder', async () => {
    await writeTree(root, {
      '.claude/settings.json': { permissions: { ask: ['Bash(git push *)'] } },
      'rules/team.automode-rules.yaml':
        'rules:\n  - tool: Bash\n    command_pattern: "^kubectl delete"\n    decision: deny\n    label: No deletes\n',
      'tests/t.automode-test.yaml':
        'settings: ..\ncases:\n  - name: wipe the cache\n    command: make clean-cache\n    expect: ask\n',
    });
    gitInit(root);
    await writeTree(root, {
      // The make targets are named: the `*` of `Bash(make *)` would not vouch for the Makefile code they run.
      '.claude/settings.json': {
        permissions: { allow: ['Bash(git push *)', 'Bash(make test)', 'Bash(make clean-cache)'] },
      },
      'rules/more.automode-rules.yaml':
        'rules:\n  - tool: Bash\n    command_pattern: "^helm "\n    decision: deny\n    label: No helm\n',
    });
    git(root, 'rm', '-q', 'rules/team.automode-rules.yaml');
    const r = cli(['diff', '--json', '--base', 'main'], root);
    expect(r.err).toBe('');
    expect(r.code).toBe(1);
    const j = JSON.parse(r.out);
    expect(j.base.kind).toBe('git');
    expect(j.base).toMatchObject({ project: 'main:.' });
    expect(j.base.files.sort()).toEqual([
      'main:.claude/settings.json',
      'main:rules/team.automode-rules.yaml',
    ]);
    expect(j.head).toMatchObject({ kind: 'path', project: root });
    const ids = (kind: string) =>
      j.changes
        .filter((c: { kind: string }) => c.kind === kind)
        .map((c: { call: { input: { command?: string } } }) => c.call.input.command);
    expect(ids('newly-allowed')).toEqual(
      expect.arrayContaining(['git push', 'git push origin feature/login', 'make test', 'make clean-cache']),
    );
    expect(ids('narrowed')).toEqual(expect.arrayContaining(['helm upgrade --install web ./chart']));
    expect(ids('newly-allowed')).not.toContain('kubectl delete namespace production');
    expect(j.changes.find((c: { id: string }) => c.id === 'wipe the cache')).toBeDefined();
  });

  it('reads one settings file from a git revision, and nothing else of the project', async () => {
    await writeTree(root, {
      '.claude/settings.json': { permissions: { deny: ['Bash(terraform *)'] } },
      'team/settings.json': { permissions: { ask: ['Bash(npm test)'] } },
    });
    gitInit(root);
    await writeTree(root, {
      'team/settings.json': { permissions: { allow: ['Bash(npm test)', 'Bash(terraform plan)'] } },
    });
    const r = cli(['diff', '--json', '--base', 'HEAD', '--head', 'team/settings.json'], root);
    expect(r.code).toBe(1);
    const j = JSON.parse(r.out);
    const changed = j.changes.map(
      (c: {
        call: { input: { command?: string } };
        base: { decision: string };
        head: { decision: string };
      }) => [c.call.input.command, c.base.decision, c.head.decision],
    );
    expect(changed).toContainEqual(['npm test', 'ask', 'allow']);
    // The project's deny is read on neither side: the file's own change shows.
    expect(changed).toContainEqual(['terraform plan', 'ask', 'allow']);
    expect(j.base.files).toEqual(['HEAD:team/settings.json']);
  });

  it("two files are those two configurations: the project's own settings are on neither side", async () => {
    const without = { permissions: { allow: ['Bash(npm test)'] } };
    // docker's read verbs are allowed by the shipped defaults: terraform plan is a call the head allows and the base asks.
    const withPlan = { permissions: { allow: ['Bash(npm test)', 'Bash(terraform plan)'] } };
    await writeTree(root, { '.claude/settings.json': without, 'base.json': without });
    gitInit(root);
    await writeTree(root, { '.claude/settings.json': withPlan, 'head.json': withPlan });
    const changed = (args: string[]) => {
      const r = cli(['diff', '--json', ...args], root);
      expect(r.err).toBe('');
      const j = JSON.parse(r.out);
      return j.changes.map(
        (c: {
          call: { input: { command: string } };
          base: { decision: string };
          head: { decision: string };
        }) => `${c.call.input.command}: ${c.base.decision} → ${c.head.decision}`,
      );
    };
    const files = changed(['--base', 'base.json', '--head', 'head.json']);
    expect(files).toContain('terraform plan: ask → allow');
    expect(files).toEqual(changed(['--base', 'HEAD', '--head', '.']));
  });

  it('compares two revisions, reading the rule repository of the current folder from each', async () => {
    await writeTree(root, { '.claude/settings.json': { permissions: { ask: ['Bash(npm test)'] } } });
    gitInit(root);
    await writeTree(root, { '.claude/settings.json': { permissions: { allow: ['Bash(npm test)'] } } });
    git(root, 'commit', '-q', '-am', 'allow npm test');
    await writeTree(root, { '.claude/settings.json': { permissions: { deny: ['Bash(npm test)'] } } });
    const r = cli(['diff', '--json', '--base', 'HEAD~1', '--head', 'HEAD'], root);
    expect(r.code).toBe(1);
    const j = JSON.parse(r.out);
    expect([j.base.kind, j.head.kind]).toEqual(['git', 'git']);
    expect(j.changes[0]).toMatchObject({
      id: 'everyday/npm-test',
      base: { decision: 'ask' },
      head: { decision: 'allow' },
    });
    for (const c of j.changes) expect(c.call.input.command).toContain('npm test');
  });

  it('exits 0 when the change only makes things stricter', async () => {
    await writeTree(root, { '.claude/settings.json': { permissions: {} } });
    gitInit(root);
    await writeTree(root, { '.claude/settings.json': { permissions: { deny: ['Bash(git status *)'] } } });
    const r = cli(['diff', '--base', 'HEAD', '--head', '.'], root);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/0 newly allowed, 0 more permissive, [1-9]\d* stricter/);
    expect(r.out).toContain('allow → deny  Bash: git status');
  });

  it('exits 2 on a configuration error', async () => {
    await writeTree(root, {
      'ok.json': { permissions: {} },
      'broken.json': '{"permissions": {"allow": [}}',
      'bad.jsonl': '{"command": "ls"}\n{"tool": "Read"}\n',
    });
    const nowhere = cli(['diff', '--base', 'no-such-thing', '--head', 'ok.json'], root);
    expect(nowhere.code).toBe(2);
    expect(nowhere.err).toContain('no-such-thing: neither a file, a folder nor a git revision');
    const broken = cli(['diff', '--base', 'ok.json', '--head', 'broken.json'], root);
    expect(broken.code).toBe(2);
    expect(broken.err).toMatch(/head: .*broken\.json:1:\d+: error invalid-json/);
    const corpus = cli(['diff', '--base', 'ok.json', '--head', 'ok.json', '--corpus', 'bad.jsonl'], root);
    expect(corpus.code).toBe(2);
    expect(corpus.err).toContain('bad.jsonl:2:1: give exactly one of command, input');
    expect(cli(['diff', '--head', 'ok.json'], root).code).toBe(2);
  });

  it('a base that cannot be read asks for everything: it is reported, and the diff goes on', async () => {
    await writeTree(root, {
      'ok.json': { permissions: {} },
      'broken.json': '{',
      'calls.txt': '# one a line\nls\n',
    });
    const r = cli(['diff', '--base', 'broken.json', '--head', 'ok.json', '--corpus', 'calls.txt'], root);
    expect(r.code).toBe(1);
    expect(r.err).toContain('the base could not be read in full');
    expect(r.out).toContain('1 calls: 1 newly allowed');
  });
});
