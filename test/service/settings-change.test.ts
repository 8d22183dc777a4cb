import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decisionOf, hookInput, send, useTestServices } from './helpers.js';

const start = useTestServices();

// The same size, so that an in-place write changes neither the inode nor the size.
const WIDTH = 64;
const CONTENTS = {
  allow: JSON.stringify({ permissions: { allow: ['Bash(npm install *)'] } }).padEnd(WIDTH),
  deny: JSON.stringify({ permissions: { deny: ['Bash(npm install *)'] } }).padEnd(WIDTH),
  invalid: '{"permissions": {"allow": ["Bash(npm install *)"'.padEnd(WIDTH),
};

/** Lets the service's load run for a while: `n` turns of the event loop, each letting file reads finish. */
async function turns(n: number) {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
}

describe('automode serve never answers from settings older than the file', () => {
  for (const how of ['renamed over', 'rewritten in place'] as const)
    it(`a settings file ${how} while a call is loading it is read again for the next call`, async () => {
      const running = await start();
      const { service, project } = running;
      const local = join(project, '.claude', 'settings.local.json');
      const write = (text: string) => {
        if (how === 'rewritten in place') return writeFileSync(local, text);
        writeFileSync(`${local}.tmp`, text);
        renameSync(`${local}.tmp`, local);
      };
      const body = hookInput({
        tool_name: 'Bash',
        tool_input: { command: 'npm install left-pad' },
        cwd: project,
      });
      const decision = async () => decisionOf((await send(service, { body })).body);
      for (let i = 0; i < 200; i++) {
        const next = i % 2 === 0 ? 'deny' : 'invalid';
        write(CONTENTS.allow);
        const inFlight = decision();
        await turns(i % 100);
        write(CONTENTS[next]);
        await inFlight;
        const after = await decision();
        if (next === 'deny') expect(after, `turn ${i}`).toBe('deny');
        else expect(after, `turn ${i}`).toBe('ask');
      }
    });

  it('a managed drop-in file added to its folder, or the folder created, is read for the next call', async () => {
    const running = await start();
    const { service, project, home } = running;
    const body = hookInput({ tool_name: 'Bash', tool_input: { command: 'npm test' }, cwd: project });
    const decision = async () => decisionOf((await send(service, { body })).body);
    expect(await decision()).toBe('allow');
    const folder = join(home, 'none.d');
    mkdirSync(folder);
    writeFileSync(
      join(folder, '10-deny.json'),
      JSON.stringify({ permissions: { deny: ['Bash(npm test)'] } }),
    );
    expect(await decision()).toBe('deny');
    writeFileSync(join(folder, '20-broken.json'), '{');
    expect(await decision()).toBe('deny');
    renameSync(join(folder, '10-deny.json'), join(folder, '.10-deny.json'));
    expect(await decision()).toBe('ask');
  });
});
