import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze, loadBash } from '../../src/bash/analyze.js';
import type { Word } from '../../src/bash/types.js';

const nl2bash = readFileSync(new URL('../../fixtures/nl2bash/commands.txt', import.meta.url), 'utf8').split(
  '\n',
);
const cases = readFileSync(new URL('../../fixtures/bash/bash-parse-cases.jsonl', import.meta.url), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l).src as string);

/** Static words whose value bash itself can print: no tilde (bash expands it, the analyzer keeps it). */
function sampleWords(lines: string[], limit: number): Word[] {
  const out: Word[] = [];
  const seen = new Set<string>();
  for (const line of lines) {
    const a = analyze(line);
    if (a.opaque) continue;
    for (const cmd of a.commands) {
      if (cmd.nested || cmd.innerSource !== undefined) continue;
      for (const w of cmd.argv) {
        if (!w.static || w.text.includes('~') || seen.has(w.text)) continue;
        seen.add(w.text);
        out.push(w);
        if (out.length >= limit) return out;
      }
    }
  }
  return out;
}

function bashValues(words: Word[]): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'automode-oracle-'));
  try {
    const script = words.map((w) => `printf '%s\\0' ${w.text}`).join('\n');
    const out = execFileSync('bash', ['--norc', '--noprofile', '-c', script], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C.UTF-8' },
      encoding: 'utf8',
    });
    return out.split('\0').slice(0, -1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

beforeAll(async () => {
  await loadBash();
});

describe('quote removal agrees with bash', () => {
  it('for static words from the NL2Bash corpus and the parse cases', () => {
    const step = 7;
    const spread = nl2bash.filter((_, i) => i % step === 0);
    const words = [...sampleWords(cases, 150), ...sampleWords(spread, 350)];
    expect(words.length).toBeGreaterThanOrEqual(300);
    const values = bashValues(words);
    expect(values.length).toBe(words.length);
    const mismatches = words
      .map((w, i) => ({ text: w.text, ours: w.value, bash: values[i] }))
      .filter((m) => m.ours !== m.bash);
    expect(mismatches).toEqual([]);
  });

  it('for quoting tricks on command names', () => {
    const tricky = [
      '\\rm',
      "'rm'",
      "r''m",
      'r"m"',
      'r\\m',
      "$'\\x72\\x6d'",
      "$'\\162\\155'",
      "$'\\u0072m'",
      '$"rm"',
    ];
    const words = tricky.map((t) => {
      const a = analyze(`${t} -rf /`);
      expect(a.opaque).toBe(false);
      return a.commands[0]!.argv[0]!;
    });
    expect(words.map((w) => w.value)).toEqual(tricky.map(() => 'rm'));
    expect(bashValues(words)).toEqual(tricky.map(() => 'rm'));
  });
});
