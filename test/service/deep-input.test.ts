import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MAX_HOOK_INPUT_DEPTH } from '../../src/service/index.js';
import { hookInput, send, useTestServices } from './helpers.js';

const bin = fileURLToPath(new URL('../../bin/automode.js', import.meta.url));
const start = useTestServices();

/** What `automode hook` prints for a hook input on its stdin (forwarded to the service of a folder), and how long it took. */
function hook(input: string, forwardTo?: string) {
  const home = mkdtempSync(join(tmpdir(), 'automode-deep-'));
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: home,
    AUTOMODE_MANAGED_SETTINGS: join(home, 'none.json'),
    ...(forwardTo ? { AUTOMODE_SERVICE_DIR: forwardTo } : {}),
  };
  const args = ['hook', '--no-llm', ...(forwardTo ? ['--forward'] : [])];
  return new Promise<{ out: string; ms: number }>((resolve, reject) => {
    const t0 = performance.now();
    const c = spawn(process.execPath, [bin, ...args], { cwd: home, env });
    let out = '';
    c.stdout.on('data', (d) => {
      out += d;
    });
    c.on('error', reject);
    c.on('close', () => resolve({ out: out.trim(), ms: performance.now() - t0 }));
    c.stdin.on('error', () => undefined);
    c.stdin.end(input);
  });
}

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const DEEP = nested(4_000_000);
const DEEP_IN_INPUT = `{"hook_event_name":"PreToolUse","tool_name":"mcp__x__y","tool_input":{"a":${nested(MAX_HOOK_INPUT_DEPTH)}}}`;
const REFUSED = JSON.stringify({
  hookSpecificOutput: {
    hookEventName: 'PreToolUse',
    permissionDecision: 'ask',
    permissionDecisionReason: `automode could not read the hook input: it nests deeper than ${MAX_HOOK_INPUT_DEPTH} levels`,
  },
});

describe('a hook input nested too deep is refused before it is parsed', () => {
  it('the service asks at once, and answers others meanwhile', async () => {
    const running = await start();
    const { service, project } = running;
    const t0 = performance.now();
    const [deep, other] = await Promise.all([
      send(service, { body: DEEP }),
      send(service, {
        body: hookInput({ tool_name: 'Bash', tool_input: { command: 'git status' }, cwd: project }),
      }),
    ]);
    expect(performance.now() - t0).toBeLessThan(1_500);
    expect(deep).toEqual({ status: 400, body: REFUSED });
    expect(JSON.parse(other.body).hookSpecificOutput.permissionDecision).toBe('allow');
    expect(await send(service, { body: DEEP_IN_INPUT })).toEqual({ status: 400, body: REFUSED });
    const brackets = `{"tool_name":"Bash","tool_input":{"command":"echo '${'['.repeat(1000)}'"},"cwd":${JSON.stringify(project)}}`;
    expect(
      JSON.parse((await send(service, { body: brackets })).body).hookSpecificOutput.permissionDecision,
    ).toBe('allow');
    const within = `{"tool_name":"mcp__x__y","tool_input":{"a":${nested(MAX_HOOK_INPUT_DEPTH - 2)}}}`;
    expect((await send(service, { body: within })).status).toBe(200);
  });

  it('automode hook prints the same answer, at once', async () => {
    const deep = await hook(DEEP);
    expect(deep.out).toBe(REFUSED);
    expect(deep.ms).toBeLessThan(2_500);
    expect((await hook(DEEP_IN_INPUT)).out).toBe(REFUSED);
  });

  it('automode hook --forward prints the answer of the service, the same', async () => {
    const running = await start();
    expect((await hook(DEEP, running.dir)).out).toBe(REFUSED);
    expect((await hook(DEEP_IN_INPUT, running.dir)).out).toBe(REFUSED);
    expect((await hook('not json', running.dir)).out).toBe((await hook('not json')).out);
  });
});
