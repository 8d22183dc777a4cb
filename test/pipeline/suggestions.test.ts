import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadBash } from '../../src/bash/analyze.js';
import type { PermissionRequestedMessage } from '../../src/pipeline/messages.js';
import type { PermissionHandler, PermissionRequest } from '../../src/pipeline/permission/types.js';
import { type AnyTool, buildTool } from '../../src/pipeline/tool.js';
import { type Ran, run, type SetupOptions, setup } from './helpers.js';

beforeAll(async () => {
  await loadBash();
});

/** Says "always allow" to what it is offered (once for a call with no offer); records every request. */
function alwaysAllow() {
  const requests: PermissionRequest[] = [];
  const handler: PermissionHandler = async (request) => {
    requests.push(request);
    return {
      behavior: 'allow',
      by: 'test',
      reason: 'always',
      ...(request.suggestions.length > 0 ? { remember: { rules: request.suggestions } } : {}),
    };
  };
  return { handler, requests };
}

const asked = (r: Ran) =>
  r.messages.find((m) => m.type === 'permission_request') as PermissionRequestedMessage;

/** What the first call of `command` is offered, and whether the same call asks again once it is granted. */
async function offer(command: string, options: SetupOptions = {}) {
  const { handler, requests } = alwaysAllow();
  const { ctx } = await setup({ ...options, handler });
  const first = await run(ctx, 'Bash', { command });
  const request = requests[0]!;
  const again = await run(ctx, 'Bash', { command });
  return { request, message: asked(first), asksAgain: requests.length > 1, again };
}

describe('"always allow" suggestions are checked to let the same call through', () => {
  it('a command a shipped ask rule holds gets its own words, and granting them ends the asking', async () => {
    const o = await offer('rm -rf build');
    expect(o.request.reason).toMatch(/asked by Bash\(rm -r \*\)/);
    expect(o.request.suggestions).toEqual(['Bash(rm -rf build)']);
    expect(o.asksAgain).toBe(false);
    expect(o.again.messages.find((m) => m.type === 'permission')).toMatchObject({ decision: 'allow' });
  });

  it('a command inside xargs is not offered a rule its own words do not match, and the request says why', async () => {
    const o = await offer('xargs rm -rf < dirs.txt');
    expect(o.request.suggestions).toEqual([]);
    expect(o.request.noSuggestions).toMatch(
      /with Bash\(rm \*\) added it would still ask: asked by Bash\(rm -r \*\)/,
    );
    expect(o.message.suggestions).toEqual([]);
    expect(o.message.noSuggestions).toBe(o.request.noSuggestions);
    expect(o.asksAgain).toBe(true);
  });

  it('a compound command where another part still asks offers nothing', async () => {
    const o = await offer('mkdir -p out && touch out/a', {
      project: { permissions: { ask: ['Bash(touch *)'] } },
    });
    expect(o.request.suggestions).toEqual([]);
    expect(o.request.noSuggestions).toMatch(/would still ask: asked by Bash\(touch \*\)/);
  });

  it('a compound command whose parts rules can allow gets those it needs, the widest that work', async () => {
    const o = await offer('touch a && rm -rf build');
    expect(o.request.suggestions).toEqual(['Bash(touch *)', 'Bash(rm -rf build)']);
    expect(o.asksAgain).toBe(false);
  });

  it('a write to a protected path is not offered the program rule', async () => {
    const o = await offer('echo hi > .git/config');
    expect(o.request.reason).toMatch(/protected/);
    expect(o.request.suggestions).toEqual([]);
    expect(o.request.noSuggestions).toMatch(/would still ask: .*\.git is a protected folder/);
    expect(o.asksAgain).toBe(true);
  });

  it('a secret read by a command keeps asking, so the command rule is not offered', async () => {
    const o = await offer('cat .env');
    expect(o.request.suggestions).toEqual([]);
    expect(o.request.noSuggestions).toMatch(/with Bash\(cat \*\) added it would still ask: reads \.env/);
  });

  it('a program known only at run time gets no rule for the command inside it', async () => {
    const o = await offer('$(foo) bar');
    expect(o.request.suggestions).toEqual([]);
    expect(o.request.noSuggestions).toMatch(/\$\(foo\) is known only when the command runs/);
  });

  it("a tool whose own check asks is not offered its name: the rule would not change the tool's say", async () => {
    const asking = buildTool({
      name: 'Launch',
      description: 'asks itself',
      inputSchema: z.strictObject({}),
      checkPermissions: () => ({ behavior: 'ask', reason: 'launching needs a person' }),
      async *call() {
        yield { type: 'result', data: 'launched' };
      },
    }) as AnyTool;
    const { handler, requests } = alwaysAllow();
    const { ctx } = await setup({ handler, tools: [asking] });
    await run(ctx, 'Launch', {});
    expect(requests[0]!.suggestions).toEqual([]);
    expect(requests[0]!.noSuggestions).toBe('with Launch added it would still ask: launching needs a person');
  });

  it('a file tool gets its path rule when that rule allows it', async () => {
    const { handler, requests } = alwaysAllow();
    const { ctx, cwd } = await setup({ handler });
    await run(ctx, 'Write', { file_path: 'notes.txt', content: 'x' });
    expect(requests[0]!.suggestions).toEqual([`Edit(/${cwd}/notes.txt)`]);
    expect(requests[0]!.noSuggestions).toBeUndefined();
  });
});
