import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeBash, loadBash } from '../../src/bash/index.js';
import { lookupNames } from '../../src/policy/index.js';
import type { Behavior, LoadedSettings, ScopeFile } from '../../src/rules/index.js';
import { loadSettings, withRuleEdit } from '../../src/rules/index.js';
import { builtinOptions } from '../../src/rules/settings/builtin.js';
import { type CorpusEntry, readCorpus, SHIPPED_CORPUS } from '../../src/testing/corpus.js';
import { diffDecisions, reachedCalls } from '../../src/testing/diff.js';

/**
 * `automode rules add`, `remove` and `suggest` classify only the corpus calls a rule edit can reach. The diff of
 * that share must be the diff of the whole corpus, for any edit: rules of the corpus's own programs and words
 * (so that they match), wrappers, wildcards, other tools, several at once.
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
    cli: { allow: ['Bash(git commit *)', 'Bash(npm run *)'], deny: ['Bash(rm -rf *)'] },
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
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const OTHER = ['Bash(* --version)', 'Bash', 'Read(./**)', 'Read(~/.ssh/**)', 'Edit(./src/**)', 'WebFetch'];

type Edit = typeof editArb extends fc.Arbitrary<infer T> ? T : never;

const editArb = fc.record({
  op: fc.constantFrom('add', 'add', 'remove'),
  behavior: fc.constantFrom<Behavior>('allow', 'ask', 'deny'),
  kind: fc.constantFrom('program', 'program', 'program', 'other'),
  line: fc.nat(),
  take: fc.integer({ min: 1, max: 4 }),
  from: fc.nat(3),
  tail: fc.constantFrom('', ' *', ':*'),
  other: fc.constantFrom(...OTHER),
});

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
  it('give the diff the whole corpus gives, for any edit of rules', { timeout: 120_000 }, async () => {
    let narrowed = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(editArb, { minLength: 1, maxLength: 3 }), async (edits) => {
        let head = settings;
        for (const e of edits)
          head = withRuleEdit(head, { op: e.op, behavior: e.behavior, rule: ruleOf(e) }, file);
        const sides = [
          { settings, project },
          { settings: head, project },
        ] as const;
        const reached = await reachedCalls(corpus, ...sides);
        if (reached.length < corpus.length) narrowed++;
        // A copy of an object besides the rules: the sides no longer differ in rules only, so every call is classified.
        const everything = { settings: { ...head, env: { ...head.env } }, project };
        expect(await reachedCalls(corpus, sides[0], everything)).toBe(corpus);
        const whole = await diffDecisions(corpus, sides[0], everything);
        const share = await diffDecisions(corpus, ...sides);
        expect(share).toEqual(whole);
      }),
      { numRuns: 12, seed: 7 },
    );
    expect(narrowed).toBeGreaterThan(6);
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
