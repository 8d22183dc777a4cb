import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { STAGE1_TOOL, STAGE2_TOOL } from '../../src/classifier/model-parts.js';
import { hookCommand } from '../hooks/helpers.js';
import { isolateCliEnv } from '../support/cli-env.js';
import {
  type MessagesServer,
  type RecordedRequest,
  reply,
  startMessagesServer,
} from '../support/messages-server.js';
import { removeDir, runCli, tempDir } from './helpers.js';

let dir: string;
let project: string;
let restore: () => void;
let server: MessagesServer | undefined;

beforeEach(async () => {
  dir = await tempDir();
  project = path.join(dir, 'project');
  await mkdir(path.join(project, '.claude'), { recursive: true });
  restore = isolateCliEnv(dir);
});

afterEach(async () => {
  await server?.close();
  server = undefined;
  restore();
  await removeDir(dir);
});

const isTool = (request: RecordedRequest, name: string) =>
  ((request.body?.tools ?? []) as { name: string }[])[0]?.name === name;

describe('automode agent: PostToolUse hook outputs end to end', () => {
  it('the agent model gets the replaced output; the classifier model gets the unverified note', async () => {
    await writeFile(
      path.join(project, '.claude', 'settings.json'),
      JSON.stringify({
        permissions: { allow: ['Bash(printf *)'] },
        hooks: {
          PostToolUse: [
            {
              matcher: 'Bash',
              hooks: [
                {
                  type: 'command',
                  command: hookCommand({
                    stdout: {
                      hookSpecificOutput: {
                        hookEventName: 'PostToolUse',
                        updatedToolOutput: { stdout: 'token=[redacted]', stderr: '', exitCode: 0 },
                        classifierContext: 'The output held a deploy token; it was redacted.',
                      },
                    },
                  }),
                },
              ],
            },
          ],
        },
      }),
    );
    const turns = [
      () => reply.toolUse({ name: 'Bash', input: { command: 'printf token=s3cr3t' }, id: 'toolu_secret' }),
      () => reply.toolUse({ name: 'Bash', input: { command: 'make deploy-docs' }, id: 'toolu_make' }),
      () => reply.text('Done.'),
    ];
    let turn = 0;
    server = await startMessagesServer((request) => {
      if (isTool(request, STAGE1_TOOL))
        return reply.toolUse({ name: STAGE1_TOOL, input: { flag: false, rule: '' } });
      if (isTool(request, STAGE2_TOOL)) throw new Error('stage 2 is not expected here');
      return turns[turn++]!();
    });
    process.env.ANTHROPIC_BASE_URL = server.url;
    process.env.ANTHROPIC_API_KEY = 'test';
    const r = await runCli(['agent', 'Publish the docs', '--cwd', project, '--mode', 'auto', '--json']);
    expect(r.code).toBe(0);

    const agent = server.messageRequests().filter((q) => !isTool(q, STAGE1_TOOL));
    expect(agent).toHaveLength(3);
    const messages = agent[1]!.body!.messages as { content: { type: string; content?: unknown }[] }[];
    const result = messages.at(-1)!.content.find((b) => b.type === 'tool_result');
    expect(result?.content).toBe('token=[redacted]');
    expect(JSON.stringify(messages)).not.toContain('deploy token');

    const judged = server.messageRequests().filter((q) => isTool(q, STAGE1_TOOL));
    expect(judged).toHaveLength(1);
    const prompt = JSON.stringify(judged[0]!.body!.messages);
    expect(prompt).toContain('make deploy-docs');
    expect(prompt).toMatch(
      /<hook_note tool=\\"Bash\\" note=\\"unverified: [^"]*\\">The output held a deploy token; it was redacted.<\/hook_note>/,
    );
  });
});
