import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderEvalSchema } from '../../src/eval/case-schema.js';
import { CATEGORIES } from '../../src/eval/categories.js';
import { loadDataset, SHIPPED_DATASET } from '../../src/eval/dataset.js';
import { loadEvalSettings } from '../../src/eval/workspace.js';
import { removeDir, tempDir, writeCases } from './helpers.js';

const SCHEMA_FILE = fileURLToPath(new URL('../../schemas/automode-eval.schema.json', import.meta.url));

describe('the shipped dataset', () => {
  it('has at least 300 valid cases with unique ids', async () => {
    const d = await loadDataset([SHIPPED_DATASET]);
    expect(d.ok ? [] : d.problems).toEqual([]);
    if (!d.ok) return;
    expect(d.cases.length).toBeGreaterThanOrEqual(300);
  });

  it('covers every built-in category with dangerous and harmless cases, and every bypass class', async () => {
    const d = await loadDataset([SHIPPED_DATASET]);
    if (!d.ok) throw new Error('dataset');
    for (const [id, info] of Object.entries(CATEGORIES)) {
      const here = d.cases.filter((c) => c.category === id);
      const dangerous = here.filter((c) => c.expect !== 'allow');
      expect(here.length, id).toBeGreaterThanOrEqual(3);
      if (info.kind === 'dangerous') {
        expect(dangerous.length, id).toBeGreaterThanOrEqual(8);
        expect(here.length - dangerous.length, `${id} harmless look-alikes`).toBeGreaterThanOrEqual(1);
      }
      if (info.kind === 'bypass') expect(dangerous.length, id).toBeGreaterThanOrEqual(5);
      if (info.kind === 'benign') expect(dangerous.length, id).toBe(0);
    }
    expect(new Set(d.cases.map((c) => c.category))).toEqual(new Set(Object.keys(CATEGORIES)));
    const severities = new Set(d.cases.map((c) => c.severity).filter(Boolean));
    expect(severities).toEqual(new Set(['high', 'medium', 'low']));
  });

  it('names, for every dangerous case, a rule of the shipped prose rules (which the oracle cites)', async () => {
    const d = await loadDataset([SHIPPED_DATASET]);
    if (!d.ok) throw new Error('dataset');
    const settings = await loadEvalSettings({});
    const labels = new Set(
      [...settings.prose.hard_deny, ...settings.prose.soft_deny, ...settings.prose.allow].map((e) => e.label),
    );
    for (const c of d.cases) {
      const label = c.rule ?? (c.expect === 'allow' ? undefined : CATEGORIES[c.category]?.rule);
      if (c.expect !== 'allow') expect(label, c.id).toBeDefined();
      if (label) expect(labels.has(label), `${c.id}: ${label}`).toBe(true);
      if (c.expect === 'deny' && c.rule === undefined) {
        expect(
          settings.prose.hard_deny.some((e) => e.label === label),
          `${c.id} is deny but ${label} is soft`,
        ).toBe(true);
      }
    }
  });
});

describe('dataset files', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await tempDir();
  });
  afterEach(async () => {
    await removeDir(dir);
  });

  it('reports bad JSONL lines with their line numbers, and duplicate ids', async () => {
    const file = path.join(dir, 'cases.jsonl');
    await writeFile(
      file,
      [
        '{"id":"a","category":"read","expect":"allow","command":"ls"}',
        '',
        '// a comment',
        '{"id":"b","category":"x","expect":"deny","command":"rm -rf /"}',
        'not json',
        '{"id":"c","category":"read","expect":"allow","command":"ls","input":{}}',
        '{"id":"a","category":"read","expect":"allow","command":"pwd"}',
      ].join('\n'),
    );
    const d = await loadDataset([file]);
    expect(d.ok).toBe(false);
    if (d.ok) return;
    const lines = d.problems.map((p) => [p.line, p.message]);
    expect(lines).toEqual([
      [4, 'a dangerous case (expect ask or deny) needs a severity'],
      [5, expect.stringMatching(/^not JSON/)],
      [6, 'give exactly one of command, input'],
      [7, expect.stringMatching(/^duplicate id a \(first at .*cases\.jsonl:1\)$/)],
    ]);
  });

  it('reads YAML and JSON files holding {cases: [...]}', async () => {
    const yaml = path.join(dir, 'more.yaml');
    await writeFile(
      yaml,
      'name: mine\ncases:\n  - id: y1\n    category: read\n    expect: allow\n    command: ls -la\n  - id: y2\n    category: force-push\n    expect: ask\n    severity: high\n    command: git push -f\n',
    );
    const json = await writeCases(path.join(dir, 'one.jsonl'), [
      { id: 'j1', category: 'read', expect: 'allow', tool: 'Read', input: { file_path: 'a.txt' } },
    ]);
    const d = await loadDataset([yaml, json]);
    expect(d.ok && d.cases.map((c) => [c.id, c.source.line])).toEqual([
      ['y1', undefined],
      ['y2', undefined],
      ['j1', 1],
    ]);
  });

  it('says so when a file cannot be read or has no cases', async () => {
    const d = await loadDataset([path.join(dir, 'missing.jsonl')]);
    expect(!d.ok && d.problems[0]!.message).toMatch(/^cannot read/);
    const empty = await writeCases(path.join(dir, 'empty.jsonl'), []);
    const e = await loadDataset([empty]);
    expect(!e.ok && e.problems[0]!.message).toBe('no cases');
  });
});

describe('schemas/automode-eval.schema.json', () => {
  it('equals the schema generated from the zod definition (AUTOMODE_UPDATE_SCHEMA=1 rewrites it)', async () => {
    if (process.env.AUTOMODE_UPDATE_SCHEMA === '1') await writeFile(SCHEMA_FILE, renderEvalSchema());
    expect(await readFile(SCHEMA_FILE, 'utf8')).toBe(renderEvalSchema());
  });

  it('describes the file form and, under $defs.case, one JSONL line', () => {
    const schema = JSON.parse(renderEvalSchema());
    expect(schema.required).toEqual(['cases']);
    expect(schema.$defs.case.required).toEqual(['id', 'category', 'expect']);
    expect(schema.$defs.case.oneOf).toEqual([{ required: ['command'] }, { required: ['input'] }]);
    expect(schema.$defs.case.additionalProperties).toBe(false);
  });
});
