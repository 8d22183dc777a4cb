import { describe, expect, it } from 'vitest';
import { parsePermissionRule } from '../../src/rules/permission/parse.js';

// Claude Code's tools reference (documentation as of v2.1.240): every name is one a rule may use.
const CLAUDE_CODE_TOOLS = [
  'Agent',
  'AskUserQuestion',
  'Bash',
  'CronCreate',
  'CronDelete',
  'CronList',
  'Edit',
  'EnterPlanMode',
  'EnterWorktree',
  'ExitPlanMode',
  'ExitWorktree',
  'Glob',
  'Grep',
  'ListMcpResourcesTool',
  'LSP',
  'Monitor',
  'NotebookEdit',
  'PowerShell',
  'Read',
  'ReadMcpResourceTool',
  'SendMessage',
  'Skill',
  'TaskCreate',
  'TaskGet',
  'TaskList',
  'TaskOutput',
  'TaskStop',
  'TaskUpdate',
  'TeamCreate',
  'TeamDelete',
  'TodoWrite',
  'ToolSearch',
  'WebFetch',
  'WebSearch',
  'Write',
];

describe("Claude Code's tool names", () => {
  it.each(CLAUDE_CODE_TOOLS)('a rule for %s names a known tool', (tool) => {
    for (const behavior of ['allow', 'ask', 'deny'] as const) {
      const { parsed, issues } = parsePermissionRule(tool, { behavior });
      expect(parsed).toEqual({ kind: 'tool', tool });
      expect(issues).toEqual([]);
    }
  });

  it('a misspelt Monitor is still reported, with the name meant', () => {
    expect(parsePermissionRule('Monitr', { behavior: 'deny' }).issues).toEqual([
      {
        severity: 'warning',
        code: 'unknown-tool',
        message: 'unknown tool "Monitr"; did you mean "Monitor"?',
      },
    ]);
  });
});
