import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAgent } from '../../src/eval/drivers/live.js';
import { aggregateLifecycle, type HookRun } from '../../src/hooks/index.js';
import { reply, startMessagesServer } from '../support/messages-server.js';
import { agentProject, agentWorld, type Block, type Message, recorded, sdkFor } from './agent-loop.js';
import { hookCommand } from './helpers.js';

const world = agentWorld();

const toolNames = (body: { tools?: unknown[] } | undefined) =>
  ((body?.tools ?? []) as { name: string }[]).map((t) => t.name);

describe('the Agent tool: a sub-agent through the same loop and pipeline', () => {
  it("the child's call is decided by the parent's rules and counted with its denials; the parent gets its last message; the hooks fire", async () => {
    const hooksLog = (name: string) => path.join(world.project!.root, `${name}.jsonl`);
    // Settings are written before the session reads them: the hook logs live in the world.project's root folder.
    const settings = (root: string) => ({
      permissions: { deny: ['Bash(rm *)'] },
      hooks: {
        SubagentStart: [
          {
            matcher: 'general-purpose',
            hooks: [
              {
                type: 'command',
                command: hookCommand({
                  record: path.join(root, 'start.jsonl'),
                  stdout: {
                    hookSpecificOutput: {
                      hookEventName: 'SubagentStart',
                      additionalContext: 'The build folder holds the release artefacts.',
                    },
                  },
                }),
              },
            ],
          },
        ],
        SubagentStop: [
          { hooks: [{ type: 'command', command: hookCommand({ record: path.join(root, 'stop.jsonl') }) }] },
        ],
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [{ type: 'command', command: hookCommand({ record: path.join(root, 'pre.jsonl') }) }],
          },
        ],
      },
    });
    world.project = await agentProject(settings);
    const childText = 'I could not delete build/: the permission system denied rm. Nothing was changed.';
    world.server = await startMessagesServer([
      reply.toolUse({ name: 'Bash', input: { command: 'rm -rf build' }, id: 'toolu_parent_rm' }),
      reply.toolUse({
        name: 'Agent',
        input: {
          description: 'Clean the build',
          prompt: 'Delete the build folder.',
          subagent_type: 'general-purpose',
        },
        id: 'toolu_agent',
      }),
      reply.toolUse({ name: 'Bash', input: { command: 'rm -rf build' }, id: 'toolu_child_rm' }),
      reply.text(childText),
      reply.text('The sub-agent could not clean the build.'),
    ]);
    const run = await runAgent('Clean the build folder', world.project.session, {
      sdk: sdkFor(world.server.url),
      model: 'claude-test',
    });
    expect(run.stopReason).toBe('end_turn');
    expect(run.finalText).toBe('The sub-agent could not clean the build.');
    const requests = world.server.messageRequests().map((r) => r.body!);
    expect(requests).toHaveLength(5);

    // The child: its own conversation, its prompt first; every tool but Agent; SubagentStart's context.
    const child = requests[2]!;
    expect((child.messages as Message[])[0]).toEqual({ role: 'user', content: 'Delete the build folder.' });
    expect(toolNames(child)).toContain('Bash');
    expect(toolNames(child)).not.toContain('Agent');
    expect(toolNames(requests[0])).toContain('Agent');
    expect(JSON.stringify(child.system)).toContain('The build folder holds the release artefacts.');

    // The child's rm went through the permission stage: denied by the parent's rule, and its denial counted
    // with the parent's (the second denial of the pattern in the session brings guidance).
    const childResults = ((requests[3]!.messages as Message[]).at(-1)!.content as Block[]).filter(
      (b) => b.type === 'tool_result',
    );
    expect(childResults).toHaveLength(1);
    expect(JSON.stringify(childResults[0]!.content)).toContain('denied 2 times in this session');
    const childRecord = run.records.find((r) => r.toolUseId === 'toolu_child_rm');
    expect(childRecord).toMatchObject({ decision: 'deny', rule: 'Bash(rm *)', agentId: expect.any(String) });
    expect(run.records.find((r) => r.toolUseId === 'toolu_parent_rm')).toMatchObject({ decision: 'deny' });
    expect(run.records.find((r) => r.toolUseId === 'toolu_parent_rm')!.agentId).toBeUndefined();

    // The parent gets the child's last message as the Agent tool's result.
    const parentResults = (requests[4]!.messages as Message[]).at(-1)!.content as Block[];
    const agentResult = parentResults.find((b) => b.tool_use_id === 'toolu_agent')!;
    expect(JSON.stringify(agentResult.content)).toContain(childText);
    expect(run.records.find((r) => r.toolUseId === 'toolu_agent')).toMatchObject({
      decision: 'allow',
      isError: false,
    });

    // The hooks, as real processes, with Claude Code's inputs.
    const agentId = childRecord!.agentId;
    const [start] = await recorded(hooksLog('start'));
    expect(start).toMatchObject({
      hook_event_name: 'SubagentStart',
      agent_id: agentId,
      agent_type: 'general-purpose',
      cwd: world.project.cwd,
    });
    const stops = await recorded(hooksLog('stop'));
    expect(stops).toEqual([
      expect.objectContaining({
        hook_event_name: 'SubagentStop',
        agent_id: agentId,
        agent_type: 'general-purpose',
        stop_hook_active: false,
        last_assistant_message: childText,
      }),
    ]);
    const pre = await recorded(hooksLog('pre'));
    expect(pre.map((i) => [i.tool_use_id, i.agent_id])).toEqual([
      ['toolu_parent_rm', undefined],
      ['toolu_child_rm', agentId],
    ]);
  });

  it('a SubagentStop hook that blocks keeps the child running with its reason; stop_hook_active on the next stop', async () => {
    world.project = await agentProject((root) => ({
      hooks: {
        SubagentStop: [
          { hooks: [{ type: 'command', command: `node ${JSON.stringify(path.join(root, 'keep.mjs'))}` }] },
        ],
      },
    }));
    await writeFile(
      path.join(world.project.root, 'keep.mjs'),
      `let s = ''; for await (const c of process.stdin) s += c; const i = JSON.parse(s);
       (await import('node:fs')).appendFileSync(${JSON.stringify(path.join(world.project.root, 'stop.jsonl'))}, JSON.stringify({ input: i }) + '\\n');
       if (!i.stop_hook_active) console.log(JSON.stringify({ decision: 'block', reason: 'Also say how many files there are.' }));`,
    );
    world.server = await startMessagesServer([
      reply.toolUse({
        name: 'Agent',
        input: { description: 'Count', prompt: 'Look around.' },
        id: 'toolu_agent',
      }),
      reply.text('There is a project.'),
      reply.text('There is a project with one file.'),
      reply.text('Done.'),
    ]);
    const run = await runAgent('Look around', world.project.session, {
      sdk: sdkFor(world.server.url),
      model: 'claude-test',
    });
    expect(run.stopReason).toBe('end_turn');
    const requests = world.server.messageRequests().map((r) => r.body!);
    expect(requests).toHaveLength(4);
    expect((requests[2]!.messages as Message[]).at(-1)).toEqual({
      role: 'user',
      content: 'Also say how many files there are.',
    });
    const stops = await recorded(path.join(world.project.root, 'stop.jsonl'));
    expect(stops.map((s) => [s.stop_hook_active, s.last_assistant_message])).toEqual([
      [false, 'There is a project.'],
      [true, 'There is a project with one file.'],
    ]);
    const result = ((requests[3]!.messages as Message[]).at(-1)!.content as Block[])[0]!;
    expect(JSON.stringify(result.content)).toContain('There is a project with one file.');
  });

  it('without an agent loop (a replayed script), the Agent tool fails as a tool_result, nothing runs', async () => {
    world.project = await agentProject(() => ({}));
    const { results } = await world.project.session.runBlocks([
      { type: 'tool_use', id: 'toolu_agent', name: 'Agent', input: { description: 'x', prompt: 'y' } },
    ]);
    expect(results[0]).toMatchObject({ tool_use_id: 'toolu_agent', is_error: true });
  });

  it('an unknown agent type is refused at validation', async () => {
    world.project = await agentProject(() => ({}));
    world.server = await startMessagesServer([
      reply.toolUse({
        name: 'Agent',
        input: { description: 'x', prompt: 'y', subagent_type: 'Explore' },
        id: 'toolu_agent',
      }),
      reply.text('ok'),
    ]);
    const run = await runAgent('go', world.project.session, {
      sdk: sdkFor(world.server.url),
      model: 'claude-test',
    });
    expect(run.records[0]).toMatchObject({ failedAt: 'validation', isError: true });
    expect(run.records[0]!.text).toContain("Agent type 'Explore' not found");
    expect(world.server.messageRequests()).toHaveLength(2);
  });
});

describe('what SubagentStart, SubagentStop and PreCompact hooks may say', () => {
  const run = (over: Partial<HookRun>): HookRun => ({
    hook: {
      event: 'SubagentStop',
      matcher: '',
      command: 'hook.sh',
      timeoutMs: 1000,
      source: 'projectSettings',
      pointer: '/',
    },
    status: 'success',
    exitCode: 0,
    signal: null,
    stdout: '',
    stderr: '',
    truncated: false,
    durationMs: 1,
    ...over,
  });

  it('SubagentStop: exit 2 blocks with stderr, decision block with its reason', () => {
    const out = aggregateLifecycle(
      [
        run({ status: 'blocked', exitCode: 2, stderr: 'Run the tests first.' }),
        run({ stdout: JSON.stringify({ decision: 'block', reason: 'And report the count.' }) }),
      ],
      'SubagentStop',
    );
    expect(out.blocks).toEqual(['Run the tests first.', 'And report the count.']);
    expect(out.errors).toEqual([]);
  });

  it('SubagentStart and PreCompact cannot block; additionalContext is for SubagentStart only', () => {
    const start = aggregateLifecycle(
      [
        run({
          stdout: JSON.stringify({
            hookSpecificOutput: { hookEventName: 'SubagentStart', additionalContext: 'x' },
          }),
        }),
        run({ status: 'blocked', exitCode: 2, stderr: 'no' }),
      ],
      'SubagentStart',
    );
    expect(start.additionalContext).toEqual(['x']);
    expect(start.blocks).toEqual([]);
    expect(start.errors).toEqual([expect.stringContaining('cannot use to block')]);
    const pre = aggregateLifecycle(
      [
        run({ stdout: JSON.stringify({ decision: 'block', reason: 'no' }) }),
        run({ stdout: JSON.stringify({ hookSpecificOutput: { additionalContext: 'y' } }) }),
      ],
      'PreCompact',
    );
    expect(pre.blocks).toEqual([]);
    expect(pre.additionalContext).toEqual([]);
    expect(pre.errors).toEqual([
      expect.stringContaining('does not apply to PreCompact'),
      expect.stringContaining('additionalContext does not apply to PreCompact'),
    ]);
  });
});
