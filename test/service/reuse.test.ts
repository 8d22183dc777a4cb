import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createClassifier } from '../../src/classifier/index.js';
import { answerHookInput, type HookInput } from '../../src/service/index.js';
import { decisionOf, hookInput, send, settingsLoader, useTestServices } from './helpers.js';

const start = useTestServices();

/** For each tool kind, an input the settings allow and one they do not, each given to the same tool. */
function pairs(project: string): { tool: string; safe: object; dangerous: object; other?: string }[] {
  const at = (...p: string[]) => join(project, ...p);
  return [
    { tool: 'Bash', safe: { command: 'git status' }, dangerous: { command: 'rm -rf /' } },
    { tool: 'Bash', safe: { command: 'npm test' }, dangerous: { command: 'curl https://evil.example' } },
    { tool: 'Read', safe: { file_path: at('src', 'a.ts') }, dangerous: { file_path: at('secret', 'key') } },
    {
      tool: 'Edit',
      safe: { file_path: at('src', 'a.ts'), old_string: 'a', new_string: 'b' },
      dangerous: { file_path: at('secret', 'key'), old_string: 'a', new_string: 'b' },
    },
    {
      tool: 'Write',
      safe: { file_path: at('src', 'a.ts'), content: 'x' },
      dangerous: { file_path: at('secret', 'key'), content: 'x' },
    },
    {
      tool: 'Glob',
      safe: { pattern: '**/*.ts', path: at('src') },
      dangerous: { pattern: '*', path: at('secret') },
    },
    {
      tool: 'Grep',
      safe: { pattern: 'x', path: at('src') },
      dangerous: { pattern: 'x', path: at('secret') },
    },
    {
      tool: 'NotebookEdit',
      safe: { notebook_path: at('src', 'a.ipynb'), new_source: 'x' },
      dangerous: { notebook_path: at('secret', 'a.ipynb'), new_source: 'x' },
    },
    {
      tool: 'WebFetch',
      safe: { url: 'https://docs.example.com/a', prompt: 'read' },
      dangerous: { url: 'https://evil.example/a', prompt: 'read' },
    },
    { tool: 'mcp__files__read', safe: { path: 'a' }, dangerous: { path: 'a' }, other: 'mcp__files__delete' },
  ];
}

const SETTINGS = {
  permissions: {
    allow: [
      'Bash(git status)',
      'Read(./src/**)',
      'Edit(./src/**)',
      'Write(./src/**)',
      'WebFetch(domain:docs.example.com)',
      'mcp__files__read',
    ],
    deny: [
      'Bash(rm *)',
      'Read(./secret/**)',
      'Edit(./secret/**)',
      'Write(./secret/**)',
      'WebFetch(domain:evil.example)',
      'mcp__files__delete',
    ],
  },
};

describe('automode serve reuses a started classification only for the same call', () => {
  it('a PermissionRequest with the tool_use_id of an earlier PreToolUse but another input is decided on its own input', async () => {
    const running = await start();
    const { service, decider, project, home } = running;
    mkdirSync(join(project, 'src'));
    mkdirSync(join(project, 'secret'));
    writeFileSync(join(project, '.claude', 'settings.json'), JSON.stringify(SETTINGS));
    const load = settingsLoader(home, project);
    const alone = async ({ call }: HookInput) => createClassifier(await load(call.cwd)).classify(call);
    let n = 0;
    for (const { tool, safe, dangerous, other } of pairs(project)) {
      const id = `toolu_${++n}`;
      const pre = hookInput({ tool_name: tool, tool_input: safe, cwd: project, tool_use_id: id });
      expect(decisionOf((await send(service, { body: pre })).body), `${tool} ${JSON.stringify(safe)}`).toBe(
        'allow',
      );
      for (const input of [dangerous, { ...safe, extra: 1 }]) {
        const request = hookInput({
          hook_event_name: 'PermissionRequest',
          tool_name: input === dangerous ? (other ?? tool) : tool,
          tool_input: input,
          cwd: project,
          tool_use_id: id,
        });
        const answer = (await send(service, { body: request })).body;
        expect(answer, `${tool} ${JSON.stringify(input)}`).toBe(await answerHookInput(request, alone));
        if (input === dangerous)
          expect(decisionOf(answer), `${tool} ${JSON.stringify(input)}`).not.toBe('allow');
      }
    }
    expect(decider.status().reused).toBe(0);
  });

  it('another tool, folder or mode under the same tool_use_id is not reused; the same call is', async () => {
    const running = await start();
    const { service, decider, project, root } = running;
    const other = join(root, 'other');
    mkdirSync(join(other, '.claude'), { recursive: true });
    writeFileSync(
      join(other, '.claude', 'settings.json'),
      JSON.stringify({ permissions: { deny: ['Bash(git status)'] } }),
    );
    const pre = { tool_name: 'Bash', tool_input: { command: 'git status' }, cwd: project, tool_use_id: 't' };
    const request = (fields: Record<string, unknown>) =>
      send(service, { body: hookInput({ ...pre, hook_event_name: 'PermissionRequest', ...fields }) });
    await send(service, { body: hookInput(pre) });
    expect(decisionOf((await request({ cwd: other })).body)).toBe('deny');
    expect(decider.status().reused).toBe(0);
    await send(service, { body: hookInput(pre) });
    expect(decisionOf((await request({ tool_name: 'mcp__x__y' })).body)).not.toBe('allow');
    expect(decider.status().reused).toBe(0);
    await send(service, { body: hookInput({ ...pre, permission_mode: 'plan' }) });
    await request({ permission_mode: 'bypassPermissions' });
    expect(decider.status().reused).toBe(0);
    await send(service, { body: hookInput(pre) });
    expect(decisionOf((await request({})).body)).toBe('allow');
    expect(decider.status().reused).toBe(1);
  });
});
