import { z } from 'zod';
import { PatternRuleFileSchema } from './schema.js';

/** The JSON Schema of automode pattern rule files, published as schemas/automode-rules.schema.json. */
export const automodeRulesJsonSchema = z.toJSONSchema(PatternRuleFileSchema, { target: 'draft-2020-12' });

export function renderAutomodeRulesSchema(): string {
  return `${JSON.stringify(automodeRulesJsonSchema, null, 2)}\n`;
}
