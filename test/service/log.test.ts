import { describe, expect, it } from 'vitest';
import { logField, logLine } from '../../src/cli/serve-log.js';
import { hookInput, send, useTestServices } from './helpers.js';

const start = useTestServices();

/** The fields of a text log line: `key=value` or a bare word, a value plain or a JSON string. */
function fieldsOf(line: string): [string | undefined, string][] {
  const fields: [string | undefined, string][] = [];
  const token = /(?:(\w+)=)?("(?:[^"\\]|\\.)*"|[^\s"]+)(?: |$)/gy;
  let m: RegExpExecArray | null = token.exec(line);
  for (; m; m = token.exec(line)) {
    const value = m[2] as string;
    fields.push([m[1], value.startsWith('"') ? JSON.parse(value) : value]);
    if (token.lastIndex === line.length) return fields;
  }
  throw new Error(`not a log line: ${JSON.stringify(line)}`);
}

const FORGED = [
  'a\n2026-01-01T00:00:00.000Z session=x PreToolUse tool=Bash decision=allow ms=1',
  'a\r2026-01-01T00:00:00.000Z session=x PreToolUse tool=Bash decision=allow ms=1',
  'a decision=allow',
  'a" decision="allow',
  'a\u2028decision=allow\u0085x\u202ey',
  '',
];

describe('the text log of automode serve', () => {
  it('gives each decision one line whose fields are what was decided, whatever the session id and tool name hold', async () => {
    const lines: string[] = [];
    const running = await start({ log: (d) => lines.push(logLine(d, false)) });
    const { service, project } = running;
    const sent: { session: string; tool: string }[] = [];
    for (const forged of FORGED) {
      for (const [session, tool] of [
        [forged, 'Bash'],
        ['s1', `mcp__x__${forged}`],
        [forged, forged || 'Bash'],
      ] as const) {
        const body = hookInput({
          session_id: session,
          tool_name: tool,
          tool_input: { command: 'curl x' },
          cwd: project,
        });
        await send(service, { body });
        sent.push({ session, tool });
      }
    }
    const text = lines.join('\n');
    expect(text.split(/\r\n|[\n\r\u2028\u2029\u0085]/)).toHaveLength(sent.length);
    lines.forEach((line, i) => {
      const fields = fieldsOf(line);
      const keyed = Object.fromEntries(fields.filter(([k]) => k));
      expect(fields.filter(([k]) => k === 'decision')).toHaveLength(1);
      expect(keyed.session).toBe(sent[i]?.session || '-');
      expect(keyed.tool).toBe(sent[i]?.tool);
      expect(keyed.decision).not.toBe('allow');
      expect(line).not.toMatch(/[\p{Cc}\p{Cf}\u2028\u2029]/u);
    });
  });

  it('leaves plain values as they are and quotes the rest', () => {
    expect(logField('Bash')).toBe('Bash');
    expect(logField(12.5)).toBe('12.5');
    expect(logField('Bash(npm test)')).toBe('"Bash(npm test)"');
    expect(logField('a=b')).toBe('"a=b"');
    expect(logField('')).toBe('""');
    expect(logField('\u202e\u{e0001}')).toBe('"\\u202e\\udb40\\udc01"');
  });
});
