import { describe, expect, it } from 'vitest';
import { exampleCommand, isShipped, overridesShipped, shippedOverrides } from '../../src/policy/index.js';
import { builtinOptions, loadSettingsFiles, type Rule } from '../../src/rules/index.js';

async function rules(allow: string[], ask: string[] = []): Promise<Rule[]> {
  const settings = await loadSettingsFiles({
    cwd: '/nonexistent/automode-tiers',
    home: '/nonexistent/automode-tiers',
    managedPath: '/nonexistent/automode-tiers/managed.json',
    env: {},
    cli: { allow, ask },
    ...builtinOptions(),
  });
  return settings.rules;
}

const find = (all: Rule[], text: string) =>
  all.find((r) => r.text === text || (r.type === 'pattern' && r.label === text))!;

describe('exampleCommand', () => {
  it('drops the wildcards and a legacy :* of a Bash rule; other rules have none', async () => {
    const all = await rules(['Bash(rm -rf dist/*)', 'Bash(npm run test:*)', 'Bash(*)', 'Read(./x)']);
    expect(exampleCommand(find(all, 'Bash(rm -rf dist/*)'))).toBe('rm -rf dist/');
    expect(exampleCommand(find(all, 'Bash(npm run test:*)'))).toBe('npm run test');
    expect(exampleCommand(find(all, 'Bash(*)'))).toBeUndefined();
    expect(exampleCommand(find(all, 'Read(./x)'))).toBeUndefined();
  });
});

describe('overridesShipped', () => {
  it('pairs a narrow allow with the shipped asks that match its text, and nothing else', async () => {
    const all = await rules(
      ['Bash(rm -rf dist)', 'Bash(rm *)', 'Bash(sudo rm -rf dist)', 'Bash(git push origin +wip)'],
      ['Bash(git rebase *)'],
    );
    const rmR = find(all, 'Bash(rm -r *)');
    expect(isShipped(rmR)).toBe(true);
    expect(overridesShipped(find(all, 'Bash(rm -rf dist)'), rmR)).toBe(true);
    expect(overridesShipped(find(all, 'Bash(rm *)'), rmR)).toBe(false);
    // broad by isBroadAllow: sudo runs anything
    expect(overridesShipped(find(all, 'Bash(sudo rm -rf dist)'), rmR)).toBe(false);
    const history = find(all, 'History rewrite: force push or remote delete by refspec');
    expect(overridesShipped(find(all, 'Bash(git push origin +wip)'), history)).toBe(true);
    // an ask that is not shipped is never overridden
    const userAsk = all.find((r) => r.text === 'Bash(git rebase *)' && !isShipped(r))!;
    expect(overridesShipped(find(all, 'Bash(rm -rf dist)'), userAsk)).toBe(false);
  });

  it('lists every override, with all the shipped asks of each allow', async () => {
    const all = await rules(['Bash(rm -rf dist)', 'Bash(ls)']);
    const pairs = await shippedOverrides(all, all);
    expect(pairs.map((p) => [p.allow.text, p.asks.map((a) => a.text)])).toEqual([
      ['Bash(rm -rf dist)', ['Bash(rm -r *)', 'Bash(rm -f *)']],
    ]);
  });
});
