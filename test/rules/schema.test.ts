import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { automodeRulesJsonSchema, renderAutomodeRulesSchema } from '../../src/rules/pattern/json-schema.js';
import { PatternRuleFileSchema } from '../../src/rules/pattern/schema.js';
import { fixture } from './helpers.js';

const SCHEMA_FILE = fileURLToPath(new URL('../../schemas/automode-rules.schema.json', import.meta.url));

describe('schemas/automode-rules.schema.json', () => {
  it('equals the schema generated from the zod definition (AUTOMODE_UPDATE_SCHEMA=1 rewrites it)', async () => {
    if (process.env.AUTOMODE_UPDATE_SCHEMA === '1') await writeFile(SCHEMA_FILE, renderAutomodeRulesSchema());
    expect(await readFile(SCHEMA_FILE, 'utf8')).toBe(renderAutomodeRulesSchema());
  });

  it('requires exactly one pattern per rule', () => {
    const rules = (automodeRulesJsonSchema.properties as Record<string, { items: Record<string, unknown> }>)
      .rules!;
    expect(rules.items.oneOf).toEqual([
      { required: ['command_pattern'] },
      { required: ['path_pattern'] },
      { required: ['input_pattern'] },
    ]);
    expect(rules.items.additionalProperties).toBe(false);
  });

  it('accepts the example rule file and refuses a rule with two patterns', async () => {
    const example = JSON.parse(await fixture('automode-rules.json'));
    expect(PatternRuleFileSchema.safeParse(example).success).toBe(true);
    example.rules[0].path_pattern = 'x';
    expect(PatternRuleFileSchema.safeParse(example).success).toBe(false);
  });
});
