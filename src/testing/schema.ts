import { z } from 'zod';
import { TestFileSchema } from './suite-schema.js';

/** The JSON Schema of automode test files, published as schemas/automode-test.schema.json. */
export const automodeTestJsonSchema = z.toJSONSchema(TestFileSchema, { target: 'draft-2020-12' });

export function renderAutomodeTestSchema(): string {
  return `${JSON.stringify(automodeTestJsonSchema, null, 2)}\n`;
}
