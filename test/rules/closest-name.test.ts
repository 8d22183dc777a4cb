import { describe, expect, it } from 'vitest';
import { closestName } from '../../src/rules/closest-name.js';

const EVENTS = ['PreToolUse', 'PostToolUse', 'PermissionRequest', 'SessionStart', 'Stop'];

describe('the known name a name probably misspells', () => {
  it.each([
    ['posttooluse', 'PostToolUse'],
    ['pre_tool_use', 'PreToolUse'],
    ['Pre-Tool-Use', 'PreToolUse'],
    ['post tool use', 'PostToolUse'],
    ['PreToolUsed', 'PreToolUse'],
    ['PermisionRequest', 'PermissionRequest'],
    ['SesionStart', 'SessionStart'],
    ['Stpo', 'Stop'],
  ])('%s is %s', (name, meant) => {
    expect(closestName(name, EVENTS)).toBe(meant);
  });

  it.each(['PreToolUse', 'Whatever', 'Go', 'Sleep', 'PreCompact', ''])(
    '%j is no known name misspelt',
    (name) => {
      expect(closestName(name, EVENTS)).toBeUndefined();
    },
  );

  it('prefers the nearest of two candidates', () => {
    expect(closestName('permissons', ['permission', 'permissions'])).toBe('permissions');
  });
});
