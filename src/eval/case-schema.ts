import { z } from 'zod';
import { MODES } from '../shared/index.js';

export const DECISIONS = ['allow', 'ask', 'deny'] as const;
export const SEVERITIES = ['high', 'medium', 'low'] as const;

export type Severity = (typeof SEVERITIES)[number];

const Context = z
  .strictObject({
    userMessages: z.array(z.string()).optional().describe("The user's messages so far, oldest first."),
    toolCalls: z
      .array(z.strictObject({ tool: z.string().min(1), input: z.unknown() }))
      .optional()
      .describe("The agent's earlier tool calls, oldest first (never their results)."),
  })
  .describe('What the classifier sees of the session before the call.');

export const EvalCaseSchema = z
  .strictObject({
    id: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._:-]*$/)
      .describe('Unique within the dataset; letters, digits and . _ : -'),
    category: z
      .string()
      .min(1)
      .describe('What the call is about, e.g. exfiltration, force-push, build-test, bypass-wrappers.'),
    expect: z
      .enum(DECISIONS)
      .describe('The right decision: allow for harmless calls; ask or deny for dangerous ones.'),
    severity: z
      .enum(SEVERITIES)
      .optional()
      .describe('How bad letting a dangerous call run would be; required when expect is ask or deny.'),
    tool: z.string().min(1).optional().describe('Tool name (default Bash).'),
    command: z.string().optional().describe('The shell command of a Bash call.'),
    input: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('The tool input, for tools other than Bash.'),
    context: Context.optional(),
    mode: z.enum(MODES).optional().describe('Permission mode (default: the run’s mode, auto).'),
    cwd: z.string().optional().describe('Working folder, relative to the evaluation project folder.'),
    rule: z
      .string()
      .min(1)
      .optional()
      .describe(
        'Label of the prose rule the call touches (e.g. "Production changes"); a careful model cites it. Defaults to the category’s rule for dangerous calls.',
      ),
    exception: z
      .string()
      .optional()
      .describe('Label of the allow rule that makes a harmless call in a dangerous category an exception.'),
    session: z
      .string()
      .min(1)
      .optional()
      .describe(
        'Cases with the same session run in order on one classifier (denial limits, cache); default: alone.',
      ),
    note: z.string().optional().describe('Why the label is right.'),
  })
  .refine((c) => (c.command === undefined) !== (c.input === undefined), {
    message: 'give exactly one of command, input',
  })
  .refine((c) => c.command === undefined || (c.tool ?? 'Bash') === 'Bash', {
    message: 'command is for the Bash tool; give input for other tools',
  })
  .refine((c) => c.expect === 'allow' || c.severity !== undefined, {
    message: 'a dangerous case (expect ask or deny) needs a severity',
  })
  .meta({ oneOf: [{ required: ['command'] }, { required: ['input'] }] });

export const EvalFileSchema = z
  .strictObject({
    $schema: z.string().optional(),
    name: z.string().min(1).optional().describe('Dataset name; defaults to the file name.'),
    cases: z.array(EvalCaseSchema).describe('Labelled tool calls.'),
  })
  .meta({
    title: 'automode eval dataset',
    description:
      'Labelled tool calls for `automode eval`: the call, the session context, the right decision, a category and a severity. JSONL files hold one case per line; JSON and YAML files hold {cases: [...]}.',
  });

export type EvalCase = z.infer<typeof EvalCaseSchema>;
export type EvalFile = z.infer<typeof EvalFileSchema>;

/** A dangerous case is one that must not run without a human: its right decision is ask or deny. */
export function isDangerous(c: Pick<EvalCase, 'expect'>): boolean {
  return c.expect !== 'allow';
}

/** The JSON Schema of eval datasets, published as schemas/automode-eval.schema.json. */
export function renderEvalSchema(): string {
  const schema = z.toJSONSchema(EvalFileSchema, { target: 'draft-2020-12' }) as Record<string, unknown>;
  const jsonl = z.toJSONSchema(EvalCaseSchema, { target: 'draft-2020-12' }) as Record<string, unknown>;
  const { $schema: _, ...line } = jsonl;
  schema.$defs = { ...(schema.$defs as object | undefined), case: line };
  return `${JSON.stringify(schema, null, 2)}\n`;
}
