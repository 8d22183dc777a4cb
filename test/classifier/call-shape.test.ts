import { describe, expect, it } from 'vitest';
import type { HookToolCall, ToolCall } from '../../src/classifier/index.js';
import { useSandboxClassifier } from './helpers.js';

const s = useSandboxClassifier();

describe('classify takes a call in either shape', () => {
  it('a Claude Code hook input is read as the call it carries, its permission mode and folder included', async () => {
    const hook: HookToolCall = {
      tool_name: 'Bash',
      tool_input: { command: 'rm -rf /' },
      cwd: s.box.project,
      permission_mode: 'plan',
    };
    const v = await s.classifier.classify(hook);
    expect(v).toMatchObject({
      decision: 'deny',
      tool: 'Bash',
      mode: 'plan',
      rule: { text: 'Bash(rm -rf /)' },
    });
    const status = await s.classifier.classify({ ...hook, tool_input: { command: 'git status' } });
    expect(status.decision).toBe('allow');
  });

  it('a hook input and the same tool call get the same verdict, speculated or not', async () => {
    const call: ToolCall = {
      tool: 'Read',
      input: { file_path: '.env' },
      cwd: s.box.project,
      mode: 'default',
    };
    const hook: HookToolCall = { tool_name: 'Read', tool_input: { file_path: '.env' }, cwd: s.box.project };
    const a = await s.classifier.classify(call);
    const b = await s.classifier.speculate(hook).promise;
    expect(b).toEqual(a);
    expect(a).toMatchObject({ decision: 'ask', rule: { text: 'Read(.env)' } });
  });

  it('anything else asks, failing closed, and names the shapes it takes', async () => {
    const wrong = [
      { command: 'ls' },
      { tool: 'Bash' },
      { tool_name: 'Bash', tool_input: 'ls' },
      { tool_name: '', tool_input: {} },
      null,
      'Bash(ls)',
    ] as unknown as ToolCall[];
    for (const call of wrong) {
      const v = await s.classifier.classify(call);
      expect(v, JSON.stringify(call)).toMatchObject({ decision: 'ask', by: 'opaque' });
      expect(v.reason).toContain('{tool, input, cwd?, mode?}');
      expect(v.reason).toContain('{tool_name, tool_input, cwd?, permission_mode?}');
      expect(v.reason).not.toContain('Cannot read properties');
    }
    const v = await s.classifier.classify({ tool_name: 'Bash', tool_input: 'ls' } as unknown as ToolCall);
    expect(v.reason).toMatch(/tool_input must be an object$/);
  });
});
