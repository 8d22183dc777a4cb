import { z } from 'zod';

import { PATTERN_KEYS } from './keys.js';

export { PATTERN_KEYS, type PatternKey } from './keys.js';

const regex = (what: string) =>
  z
    .string()
    .min(1)
    .describe(`A JavaScript regular expression (no flags, unanchored unless written so) ${what}.`);

export const PatternRuleSpecSchema = z
  .strictObject({
    tool: z.string().min(1).describe('Tool name, e.g. Bash, Read, Edit, WebFetch, mcp__server__tool.'),
    command_pattern: regex("tested against each simple command's argv joined by single spaces").optional(),
    path_pattern: regex('tested against the absolute path the tool touches').optional(),
    input_pattern: regex('tested against JSON.stringify of the tool input').optional(),
    decision: z.enum(['allow', 'ask', 'deny']),
    label: z
      .string()
      .min(1)
      .optional()
      .describe(
        'Short name shown when the rule decides; default: the tool and the pattern, e.g. Bash /^ls\\b/.',
      ),
    description: z.string().optional(),
    examples: z
      .strictObject({
        match: z.array(z.string()).optional().describe('Inputs the pattern must match; checked at load.'),
        not_match: z
          .array(z.string())
          .optional()
          .describe('Inputs the pattern must not match; checked at load.'),
      })
      .optional(),
  })
  .refine((rule) => PATTERN_KEYS.filter((key) => rule[key] !== undefined).length === 1, {
    message: 'give exactly one of command_pattern, path_pattern, input_pattern',
  })
  .meta({ oneOf: PATTERN_KEYS.map((key) => ({ required: [key] })) });

export const PatternRuleFileSchema = z
  .strictObject({
    $schema: z.string().optional(),
    rules: z.array(PatternRuleSpecSchema),
  })
  .meta({ title: 'automode pattern rules', description: 'Regex rules for automode, in JSON or YAML.' });

export type PatternRuleSpec = z.infer<typeof PatternRuleSpecSchema>;
export type PatternRuleFile = z.infer<typeof PatternRuleFileSchema>;
