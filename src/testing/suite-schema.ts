import { z } from 'zod';
import { MODES } from '../shared/index.js';

const paths = z
  .union([z.string().min(1), z.array(z.string().min(1))], {
    error: (issue) =>
      issue.input === undefined
        ? 'required: the settings files, rule files or rule repository folder this suite tests, relative to the test file (e.g. settings: ../.claude/settings.json)'
        : 'a path or a list of paths, relative to the test file',
  })
  .describe(
    'Settings files, pattern rule files and at most one rule repository folder, relative to the test file.',
  );

export const TestCaseSchema = z
  .strictObject({
    name: z
      .string()
      .min(1)
      .optional()
      .describe('Shown in reports; defaults to the expectation and the call.'),
    tool: z
      .string()
      .min(1)
      .optional()
      .describe('Tool name (default Bash), e.g. Read, Edit, WebFetch, mcp__x__y.'),
    command: z.string().optional().describe('The shell command of a Bash call.'),
    input: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('The tool input, for tools other than Bash.'),
    cwd: z
      .string()
      .optional()
      .describe("Working folder of the call, relative to the suite's project folder."),
    mode: z.enum(MODES).optional().describe('Permission mode of this call.'),
    context: z
      .union([z.string(), z.array(z.string())])
      .optional()
      .describe("The user's messages before the call; only a model reads them."),
    expect: z.enum(['allow', 'ask', 'deny']).describe('The decision the rules must reach.'),
    rule: z
      .string()
      .min(1)
      .optional()
      .describe('The text or label of the rule expected to decide, e.g. "Bash(git push *)" or "Force push".'),
  })
  .refine((c) => (c.command === undefined) !== (c.input === undefined), {
    message: 'give exactly one of command, input',
  })
  .refine((c) => c.command === undefined || (c.tool ?? 'Bash') === 'Bash', {
    message: 'command is for the Bash tool; give input for other tools',
  })
  .meta({ oneOf: [{ required: ['command'] }, { required: ['input'] }] });

export const TestFileSchema = z
  .strictObject({
    $schema: z.string().optional(),
    name: z.string().min(1).optional().describe('Suite name; defaults to the file name.'),
    settings: paths,
    defaults: z.boolean().optional().describe("Load automode's shipped rules too (default true)."),
    mode: z
      .enum(MODES)
      .optional()
      .describe("Permission mode of every case (default: the settings' defaultMode)."),
    cwd: z
      .string()
      .optional()
      .describe(
        'The project folder the calls run in, relative to the test file (default: the folder named in settings, else the folder of the test file).',
      ),
    cases: z.array(TestCaseSchema).describe('The calls and the decisions expected.'),
  })
  .meta({
    title: 'automode test file',
    description: 'Tool calls and the decisions the rules must reach, checked by `automode test`.',
  });

export type TestCaseSpec = z.infer<typeof TestCaseSchema>;
export type TestFileSpec = z.infer<typeof TestFileSchema>;
