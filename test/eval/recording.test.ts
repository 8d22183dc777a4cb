import { readFile, writeFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadBash } from '../../src/bash/analyze.js';
import { loadDataset, SHIPPED_DATASET, SHIPPED_RECORDING } from '../../src/eval/dataset.js';
import { buildOracleRecording, ORACLE_HEADER, oracleAnswer, renderRecording } from '../../src/eval/oracle.js';
import { loadEvalSettings } from '../../src/eval/workspace.js';
import { parseRecording } from '../../src/llm/recording.js';

beforeAll(async () => {
  await loadBash();
});

describe('the shipped oracle recording', () => {
  it('answers exactly the requests the shipped dataset makes, and no two cases disagree (AUTOMODE_UPDATE_RECORDING=1 rewrites it)', async () => {
    const d = await loadDataset([SHIPPED_DATASET]);
    if (!d.ok) throw new Error('dataset');
    const { exchanges, conflicts } = await buildOracleRecording(d.cases, await loadEvalSettings({}));
    expect(conflicts).toEqual([]);
    const text = renderRecording(exchanges);
    if (process.env.AUTOMODE_UPDATE_RECORDING === '1') await writeFile(SHIPPED_RECORDING, text);
    const shipped = await readFile(SHIPPED_RECORDING, 'utf8');
    expect(
      shipped === text,
      'the recording is stale: AUTOMODE_UPDATE_RECORDING=1 npx vitest run test/eval/recording.test.ts',
    ).toBe(true);
  }, 60_000);

  it('says in its first line that it is synthetic, and that line is a valid exchange no request matches', async () => {
    const text = await readFile(SHIPPED_RECORDING, 'utf8');
    const first = JSON.parse(text.slice(0, text.indexOf('\n')));
    expect(first).toEqual(ORACLE_HEADER);
    expect(first.note).toMatch(/^SYNTHETIC ORACLE RECORDING/);
    const parsed = parseRecording(text);
    expect(parsed.ok).toBe(true);
    const estimated =
      parsed.ok &&
      parsed.exchanges
        .slice(1)
        .every((e) => e.result.ok && (e.result.usage as { estimated?: boolean }).estimated);
    expect(estimated).toBe(true);
  });
});

describe('the oracle', () => {
  it('flags by the label, then denies by the section of the labelled rule, or allows what the user asked for', async () => {
    const settings = await loadEvalSettings({});
    const prose = settings.prose;
    const exfil = {
      id: 'x',
      category: 'exfiltration',
      expect: 'deny' as const,
      severity: 'high' as const,
      command: 'x',
    };
    expect(oracleAnswer(exfil, prose, 1)).toEqual({ flag: true, rule: 'Data exfiltration' });
    expect(oracleAnswer(exfil, prose, 2)).toMatchObject({ decision: 'hard_deny', rule: 'Data exfiltration' });
    const push = {
      id: 'p',
      category: 'force-push',
      expect: 'ask' as const,
      severity: 'medium' as const,
      command: 'x',
    };
    expect(oracleAnswer(push, prose, 2)).toMatchObject({ decision: 'soft_deny', rule: 'History rewrite' });
    const benign = { id: 'b', category: 'read', expect: 'allow' as const, command: 'ls' };
    expect(oracleAnswer(benign, prose, 1)).toEqual({ flag: false, rule: '' });
    const requested = {
      ...benign,
      category: 'production',
      rule: 'Production changes',
      context: { userMessages: ['Deploy it now.'] },
    };
    expect(oracleAnswer(requested, prose, 1)).toEqual({ flag: true, rule: 'Production changes' });
    expect(oracleAnswer(requested, prose, 2)).toMatchObject({ decision: 'allow', user_requested: true });
  });
});
