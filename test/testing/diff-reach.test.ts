import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeBash, loadBash } from '../../src/bash/index.js';
import { lookupNames } from '../../src/policy/index.js';
import type { Behavior, LoadedSettings, RuleEdit, ScopeFile } from '../../src/rules/index.js';
import { loadSettings, withRuleEdit } from '../../src/rules/index.js';
import { builtinOptions } from '../../src/rules/settings/builtin.js';
import { type TestCall, toCall } from '../../src/testing/call.js';
import { type CorpusEntry, readCorpus, SHIPPED_CORPUS } from '../../src/testing/corpus.js';
import { decider } from '../../src/testing/decide.js';
import { diffDecisions, reachedCalls } from '../../src/testing/diff.js';

/**
 * `automode rules add`, `remove` and `suggest` classify only the corpus calls a rule edit can reach. Every other
 * call must keep its decision, for any edit: rules of the corpus's own programs and words (so that they match),
 * of the programs wrappers and pipelines run, wildcards, other tools, several at once, added or removed.
 */
const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'automode-diff-reach-')));
const project = path.join(root, 'project');
const home = path.join(root, 'home');
let settings: LoadedSettings;
let corpus: CorpusEntry[];
let file: ScopeFile;
const words: string[][] = [];

beforeAll(async () => {
  mkdirSync(project);
  mkdirSync(home);
  await loadBash();
  settings = await loadSettings({
    cwd: project,
    home,
    managedPath: path.join(root, 'managed.json'),
    env: {},
    cli: { allow: ['Bash(npm run *)'], deny: ['Bash(git push --force *)'] },
    ...builtinOptions(),
  });
  corpus = (await readCorpus(SHIPPED_CORPUS)).entries;
  for (const e of corpus) {
    const command = e.call.command;
    if (typeof command === 'string')
      words.push(command.split(/\s+/).filter((w) => w !== '' && !/[()]/.test(w)));
  }
  file = {
    scope: 'local',
    source: 'localSettings',
    path: path.join(project, '.claude', 'settings.local.json'),
    root: project,
  };
  for (const [behavior, rule] of IN_FILE)
    settings = withRuleEdit(settings, { op: 'add', behavior, rule }, file);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const OTHER = ['Bash(* --version)', 'Bash', 'Read(./**)', 'Read(~/.ssh/**)', 'Edit(./src/**)', 'WebFetch'];

type Edit = typeof editArb extends fc.Arbitrary<infer T> ? T : never;

const editArb = fc.record({
  op: fc.constantFrom('add', 'add', 'add', 'remove'),
  behavior: fc.constantFrom<Behavior>('allow', 'ask', 'deny'),
  kind: fc.constantFrom('program', 'program', 'program', 'other'),
  line: fc.nat(),
  take: fc.integer({ min: 1, max: 4 }),
  from: fc.nat(3),
  tail: fc.constantFrom('', ' *', ':*'),
  other: fc.constantFrom(...OTHER),
});

/** Rules of the file the edits are made in, before them: what a removal removes. */
const IN_FILE = [
  ['allow', 'Bash(git commit *)'],
  ['allow', 'Bash(find *)'],
  ['ask', 'Bash(docker *)'],
  ['deny', 'Bash(rm -rf *)'],
  ['deny', 'Read(./.env)'],
] as const;

function editOf(e: Edit): RuleEdit {
  if (e.op === 'remove') {
    const [behavior, rule] = IN_FILE[e.line % IN_FILE.length]!;
    return { op: 'remove', behavior, rule };
  }
  return { op: 'add', behavior: e.behavior, rule: ruleOf(e) };
}

function ruleOf(e: Edit): string {
  if (e.kind === 'other') return e.other;
  const own = words[e.line % words.length]!;
  // A word further in stands for a program a wrapper or pipeline runs (`sudo git …`, `… | xargs rm`).
  const start = Math.min(e.from, Math.max(0, own.length - 1));
  const picked = own.slice(start, start + e.take);
  if (picked.length === 0 || picked[0]!.includes('*')) return 'Bash(ls *)';
  return `Bash(${picked.join(' ')}${e.tail})`;
}

describe('the calls a rule edit can reach', () => {
  it('are the only ones whose decision an edit of rules changes', { timeout: 120_000 }, async () => {
    const decideBase = decider(settings, undefined);
    const before = new Map<CorpusEntry, string>();
    for (const e of corpus) {
      const call = toCall(e.call, project);
      if (!('error' in call)) before.set(e, (await decideBase(call)).verdict.decision);
    }
    let narrowed = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(editArb, { minLength: 1, maxLength: 3 }), async (edits) => {
        let head = settings;
        for (const e of edits) head = withRuleEdit(head, editOf(e), file);
        const reached = new Set(
          await reachedCalls(corpus, { settings, project }, { settings: head, project }),
        );
        if (reached.size < corpus.length) narrowed++;
        const decideHead = decider(head, undefined);
        const changed: string[] = [];
        for (const [e, was] of before) {
          if (reached.has(e)) continue;
          const now = (await decideHead(toCall(e.call, project) as TestCall)).verdict.decision;
          if (now !== was) changed.push(`${e.id}: ${was} → ${now}`);
        }
        expect(changed).toEqual([]);
      }),
      { numRuns: 25 },
    );
    expect(narrowed).toBeGreaterThan(12);
  });

  it('give the diff the whole corpus gives', async () => {
    const base = { settings, project };
    for (const [behavior, rule] of [
      ['allow', 'Bash(git push *)'],
      ['deny', 'Bash(rm *)'],
      ['ask', 'Bash(find *)'],
    ] as const) {
      const head = { settings: withRuleEdit(settings, { op: 'add', behavior, rule }, file), project };
      // A copy of an object besides the rules: the sides no longer differ in rules only, so every call is decided.
      const everything = { settings: { ...head.settings, env: { ...head.settings.env } }, project };
      expect(await reachedCalls(corpus, base, everything)).toBe(corpus);
      const share = await diffDecisions(corpus, base, head);
      expect(share.changes.length, rule).toBeGreaterThan(0);
      expect(share).toEqual(await diffDecisions(corpus, base, everything));
    }
  });

  it('are the Bash calls that run the rule’s program, and every call for a rule of another kind', async () => {
    const edit = (rule: string) => withRuleEdit(settings, { op: 'add', behavior: 'allow', rule }, file);
    const sides = (rule: string) =>
      [
        { settings, project },
        { settings: edit(rule), project },
      ] as const;
    const git = await reachedCalls(corpus, ...sides('Bash(git push *)'));
    expect(git.length).toBeLessThan(corpus.length / 3);
    const commands = git.map((e) => e.call.command ?? '');
    expect(commands).toContain('git push origin main');
    // Besides git's: the calls whose rules may be any (a syntax error, a program known only at run time).
    for (const c of commands.filter((c) => !c.includes('git')))
      expect(lookupNames(await analyzeBash(c)), c).toBeUndefined();
    expect(git.every((e) => (e.call.tool ?? 'Bash') === 'Bash')).toBe(true);
    expect(await reachedCalls(corpus, ...sides('Read(./**)'))).toBe(corpus);
    expect(await reachedCalls(corpus, ...sides('Bash(* --help)'))).toBe(corpus);
    const auto = await reachedCalls(corpus, ...sides('Bash(git push *)'), { mode: 'auto' });
    expect(auto).toHaveLength(corpus.length);
  });
});
