import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PreToolUseOutcome } from '../../src/hooks/run.js';
import { FileMailbox } from '../../src/pipeline/handlers/mailbox.js';
import { saveAllowRules } from '../../src/pipeline/handlers/save-rule.js';
import { decide, isSoftAsk } from '../../src/pipeline/permission/decide.js';
import { destructiveWarning, suggestRules } from '../../src/pipeline/permission/suggest.js';
import type { DecidedBy, Verdict } from '../../src/policy/verdict.js';

const verdict = (decision: Verdict['decision'], by: DecidedBy, rule = false): Verdict => ({
  decision,
  by,
  reason: `${decision} by ${by}`,
  tool: 'Bash',
  mode: 'default',
  parts: [
    {
      subject: 'x',
      decision,
      by,
      reason: 'r',
      ...(rule ? { rule: { text: 'Bash(x)', behavior: decision, source: 'userSettings', index: 0 } } : {}),
    },
  ],
  ...(rule
    ? { rule: { text: 'Bash(x)', behavior: decision, source: 'userSettings' as const, index: 0 } }
    : {}),
});

const hook = (decision?: 'allow' | 'ask' | 'deny', blocked = false): PreToolUseOutcome => ({
  runs: [],
  additionalContext: [],
  systemMessages: [],
  errors: [],
  blocked,
  ...(decision ? { decision } : {}),
});

describe('the permission decision', () => {
  const passthrough = { behavior: 'passthrough' as const };

  it("a hook's allow settles only asks that mean nobody decided", () => {
    for (const by of ['no-rule', 'no-model', 'file', 'model-error'] as const) {
      expect(decide({ hook: hook('allow'), tool: passthrough, verdict: verdict('ask', by) }).behavior).toBe(
        'allow',
      );
    }
    for (const by of [
      'opaque',
      'protected-path',
      'critical-path',
      'dynamic',
      'hidden-code',
      'size',
      'settings-error',
      'model',
    ] as const) {
      expect(
        decide({ hook: hook('allow'), tool: passthrough, verdict: verdict('ask', by) }),
        by,
      ).toMatchObject({ behavior: 'ask', by: 'classifier' });
    }
    expect(
      decide({ hook: hook('allow'), tool: passthrough, verdict: verdict('ask', 'rule', true) }).behavior,
    ).toBe('ask');
    expect(
      decide({ hook: hook('allow'), tool: passthrough, verdict: verdict('deny', 'rule', true) }).behavior,
    ).toBe('deny');
  });

  it('looks at every part, not only the one the verdict names', () => {
    const mixed: Verdict = {
      ...verdict('ask', 'no-rule'),
      parts: [
        { subject: 'a', decision: 'ask', by: 'no-rule', reason: 'r' },
        { subject: 'b', decision: 'ask', by: 'opaque', reason: 'r' },
      ],
    };
    expect(isSoftAsk(mixed)).toBe(false);
    expect(decide({ hook: hook('allow'), tool: passthrough, verdict: mixed }).behavior).toBe('ask');
  });

  it('denials first, then asks nothing automatic overrides', () => {
    expect(
      decide({ hook: hook('deny', true), tool: { behavior: 'allow' }, verdict: verdict('allow', 'rule') }),
    ).toMatchObject({ behavior: 'deny', by: 'hook' });
    expect(
      decide({
        hook: hook('allow'),
        tool: { behavior: 'deny', reason: 'no' },
        verdict: verdict('allow', 'rule'),
      }),
    ).toMatchObject({ behavior: 'deny', by: 'tool' });
    expect(
      decide({
        hook: hook('allow'),
        tool: { behavior: 'ask', reason: 'sure?' },
        verdict: verdict('allow', 'rule'),
      }),
    ).toMatchObject({ behavior: 'ask', by: 'tool' });
    expect(
      decide({
        hook: hook('allow'),
        tool: passthrough,
        validationAsk: 'hmm',
        verdict: verdict('allow', 'rule'),
      }),
    ).toMatchObject({ behavior: 'ask', by: 'validation' });
    expect(decide({ hook: hook('ask'), tool: passthrough, verdict: verdict('allow', 'rule') })).toMatchObject(
      { behavior: 'ask', by: 'hook' },
    );
    expect(decide({ tool: { behavior: 'allow' }, verdict: verdict('ask', 'no-rule') })).toMatchObject({
      behavior: 'allow',
      by: 'tool',
    });
    expect(decide({ tool: passthrough, verdict: verdict('ask', 'no-rule') })).toMatchObject({
      behavior: 'ask',
      by: 'classifier',
    });
  });
});

describe('suggestions and warnings', () => {
  it('suggests narrow rules per tool', () => {
    expect(suggestRules('Edit', { file_path: 'src/a.ts' }, '/p')).toEqual(['Edit(//p/src/a.ts)']);
    expect(suggestRules('Read', { file_path: '/etc/hosts' }, '/p')).toEqual(['Read(//etc/hosts)']);
    expect(suggestRules('Grep', { pattern: 'x' }, '/p')).toEqual(['Read(//p/**)']);
    expect(suggestRules('WebFetch', { url: 'https://docs.example.com/a' }, '/p')).toEqual([
      'WebFetch(domain:docs.example.com)',
    ]);
    expect(suggestRules('mcp__s__t', {}, '/p')).toEqual(['mcp__s__t']);
  });

  it('warns on destructive commands', () => {
    expect(destructiveWarning('Bash', { command: 'git push --force origin main' })).toMatch(
      /overwrites the remote history/,
    );
    expect(destructiveWarning('Bash', { command: 'git reset --hard HEAD~1' })).toMatch(
      /discards uncommitted changes/,
    );
    expect(destructiveWarning('Bash', { command: 'psql -c "DROP TABLE users"' })).toMatch(/database/);
    expect(destructiveWarning('Bash', { command: 'git push origin main' })).toBeUndefined();
  });
});

describe('files', () => {
  it('saveAllowRules leaves a file that is not a JSON object alone', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'automode-save-'));
    const file = path.join(dir, 'settings.json');
    await writeFile(file, '{ "permissions": ');
    await expect(saveAllowRules(file, ['Bash(ls)'])).rejects.toThrow();
    expect(await readFile(file, 'utf8')).toBe('{ "permissions": ');
    await writeFile(file, JSON.stringify({ permissions: { allow: 'Bash' } }));
    await expect(saveAllowRules(file, ['Bash(ls)'])).rejects.toThrow(/not a list/);
    const fresh = path.join(dir, 'new', 'settings.json');
    await saveAllowRules(fresh, ['Bash(ls)', 'Bash(ls)']);
    await saveAllowRules(fresh, ['Bash(ls)']);
    expect(JSON.parse(await readFile(fresh, 'utf8'))).toEqual({ permissions: { allow: ['Bash(ls)'] } });
  });

  it('the mailbox delivers whole messages in order and sets garbage aside', async () => {
    const mailbox = new FileMailbox(await mkdtemp(path.join(os.tmpdir(), 'automode-mail-')));
    await mailbox.send('a', { type: 'one' });
    await mailbox.send('a', { type: 'two' });
    await writeFile(path.join(mailbox.dir, 'a', '0-garbage.json'), '{"type":');
    expect((await mailbox.take('a', (m) => m.type === 'two')).map((m) => m.type)).toEqual(['two']);
    expect((await mailbox.take('a')).map((m) => m.type)).toEqual(['one']);
    expect(await readdir(path.join(mailbox.dir, 'a'))).toEqual(['0-garbage.json.bad']);
    await expect(mailbox.take('../etc')).rejects.toThrow(/invalid mailbox name/);
  });
});
