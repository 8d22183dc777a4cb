import { describe, expect, it } from 'vitest';
import { ModeSchema } from '../../src/rules/settings/schema.js';
import {
  isMode,
  MODE_SPELLINGS,
  MODES,
  parseCallLine,
  parseJsonObject,
  toMode,
  workflowCommand,
} from '../../src/shared/index.js';

describe('modes', () => {
  it('are the settings schema enum, less the older spelling `manual`', () => {
    expect(ModeSchema.options).toEqual([...MODE_SPELLINGS]);
    expect(ModeSchema.options.filter((m) => m !== 'manual')).toEqual([...MODES]);
  });

  it('isMode takes only the modes; toMode also reads `manual` as `default`', () => {
    for (const m of MODES) expect(isMode(m)).toBe(true);
    expect(isMode('manual')).toBe(false);
    expect(isMode('Auto')).toBe(false);
    expect(toMode('manual')).toBe('default');
    expect(toMode('plan')).toBe('plan');
    expect(toMode(3)).toBeUndefined();
  });
});

describe('call lines', () => {
  it('read a PreToolUse-shaped object', () => {
    const line = JSON.stringify({
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
      cwd: '/repo',
      permission_mode: 'manual',
    });
    expect(parseCallLine(line)).toEqual({
      tool: 'Bash',
      input: { command: 'ls' },
      cwd: '/repo',
      mode: 'default',
    });
    expect(parseCallLine('{"tool_name": "Read", "tool_input": {}, "permission_mode": "fast"}')).toEqual({
      tool: 'Read',
      input: {},
    });
  });

  it('say what is wrong with a line', () => {
    expect(parseCallLine('{')).toEqual({ error: expect.stringMatching(/JSON/) });
    expect(parseCallLine('[1]')).toEqual({ error: 'not an object' });
    expect(parseCallLine('{"tool_input": {}}')).toEqual({ error: 'tool_name must be a non-empty string' });
    expect(parseCallLine('{"tool_name": "", "tool_input": {}}')).toEqual({
      error: 'tool_name must be a non-empty string',
    });
    expect(parseCallLine('{"tool_name": "Bash", "tool_input": "ls"}')).toEqual({
      error: 'tool_input must be an object',
    });
    expect(parseJsonObject('{')).toMatchObject({ syntax: true });
    expect(parseJsonObject('null')).toEqual({ error: 'not an object', syntax: false });
  });
});

describe('GitHub workflow commands', () => {
  it('escape %, CR and LF in the message, and also : and , in properties', () => {
    expect(
      workflowCommand(
        'error',
        [
          ['file', 'a,b:c.yaml'],
          ['line', 2],
          ['title', '50%\r\nx'],
        ],
        'a: b, 100%\r\nc',
      ),
    ).toBe('::error file=a%2Cb%3Ac.yaml,line=2,title=50%25%0D%0Ax::a: b, 100%25%0D%0Ac');
  });
});
