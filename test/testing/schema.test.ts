import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { automodeTestJsonSchema, renderAutomodeTestSchema } from '../../src/testing/schema.js';
import { TestFileSchema } from '../../src/testing/suite-schema.js';

const SCHEMA_FILE = fileURLToPath(new URL('../../schemas/automode-test.schema.json', import.meta.url));
const EXAMPLE = fileURLToPath(
  new URL('../../fixtures/ci-example/tests/policy.automode-test.yaml', import.meta.url),
);

describe('schemas/automode-test.schema.json', () => {
  it('equals the schema generated from the zod definition (AUTOMODE_UPDATE_SCHEMA=1 rewrites it)', async () => {
    if (process.env.AUTOMODE_UPDATE_SCHEMA === '1') await writeFile(SCHEMA_FILE, renderAutomodeTestSchema());
    expect(await readFile(SCHEMA_FILE, 'utf8')).toBe(renderAutomodeTestSchema());
  });

  it('requires exactly one of command and input per case, and no unknown keys', () => {
    const props = automodeTestJsonSchema.properties as Record<string, { items: Record<string, unknown> }>;
    expect(props.cases!.items.oneOf).toEqual([{ required: ['command'] }, { required: ['input'] }]);
    expect(props.cases!.items.additionalProperties).toBe(false);
    expect(automodeTestJsonSchema.required).toEqual(['settings', 'cases']);
  });

  it('accepts the example test file and refuses a case with both command and input', async () => {
    const example = parse(await readFile(EXAMPLE, 'utf8'));
    expect(TestFileSchema.safeParse(example).success).toBe(true);
    example.cases[0].input = { command: 'ls' };
    expect(TestFileSchema.safeParse(example).success).toBe(false);
  });

  it('refuses command for a tool other than Bash and an unknown decision', () => {
    const base = { settings: '.', cases: [] as unknown[] };
    expect(
      TestFileSchema.safeParse({ ...base, cases: [{ tool: 'Read', command: 'x', expect: 'deny' }] }).success,
    ).toBe(false);
    expect(TestFileSchema.safeParse({ ...base, cases: [{ command: 'ls', expect: 'maybe' }] }).success).toBe(
      false,
    );
    expect(TestFileSchema.safeParse({ ...base, cases: [{ command: 'ls', expect: 'allow' }] }).success).toBe(
      true,
    );
  });

  it('says what a missing or malformed settings entry should be', () => {
    const missing = TestFileSchema.safeParse({ cases: [] });
    expect(missing.error?.issues[0]?.message).toMatch(
      /^required: the settings files, rule files or rule repository folder/,
    );
    const wrong = TestFileSchema.safeParse({ settings: 3, cases: [] });
    expect(wrong.error?.issues[0]?.message).toBe('a path or a list of paths, relative to the test file');
  });
});
