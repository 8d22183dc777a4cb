import { describe, expect, it } from 'vitest';
import { builtinProse } from '../../src/rules/settings/builtin.js';

// The shipped prose rules follow Claude Code's current defaults (block categories added in 2.1.195-2.1.211;
// reference as of v2.1.240).
const label = (text: string) => text.slice(0, text.indexOf(':'));

describe('the shipped prose rules', () => {
  it('block the categories Claude Code added', () => {
    const soft = builtinProse().soft_deny?.map(label) ?? [];
    expect(soft).toEqual(
      expect.arrayContaining([
        "Amending others' commits",
        'Unresolved variable deletion',
        'Temp sweeps',
        'Registry bypass',
        'Automation comments',
        'Production feature flags',
        'Cluster-wide workloads',
        'Interactive shells into sensitive targets',
      ]),
    );
  });

  it('allow pushing to any branch of the working repository, without force', () => {
    const push = builtinProse().allow?.find((t) => label(t) === 'Pushing work');
    expect(push).toMatch(/any branch of the working repository/);
    const merges = builtinProse().soft_deny?.find((t) => label(t) === 'Unreviewed merges');
    expect(merges).not.toMatch(/push to protected or default branches without review/);
  });
});
