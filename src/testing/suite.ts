import path from 'node:path';
import { readDocument, type Segment } from '../rules/index.js';
import type { Mode } from '../shared/index.js';
import { type CallSpec, DEFAULT_TOOL, describeCall } from './call.js';
import type { Decision, Located, Problem } from './results.js';
import { TestFileSchema } from './suite-schema.js';

/** The default test file names: what `automode test` and `automode diff` look for. */
export const TEST_FILE_GLOB = '**/*.automode-test.{yaml,yml,json}';

export interface TestCase extends Located {
  name: string;
  call: CallSpec;
  expect: Decision;
  rule?: string;
}

export interface Suite {
  file: string;
  name: string;
  /** Settings files, rule files and folders, relative to the test file. */
  settings: string[];
  defaults: boolean;
  mode?: Mode;
  cwd?: string;
  cases: TestCase[];
}

/** Reads and checks a test file (YAML or JSON); problems are located in the file. */
export async function readSuite(file: string): Promise<{ suite: Suite } | { problems: Problem[] }> {
  const outcome = await readDocument(file);
  if (outcome.status === 'missing') return { problems: [{ file, message: 'file not found' }] };
  if (outcome.status === 'failed') {
    const { message, line, column } = outcome.error;
    return { problems: [{ file, message, ...(line === undefined ? {} : { line, column: column ?? 1 }) }] };
  }
  const doc = outcome.document;
  const at = (where: readonly Segment[]) => {
    const position = doc.locate(where);
    return position ? { file, line: position.line, column: position.column } : { file };
  };
  const checked = TestFileSchema.safeParse(doc.value);
  if (!checked.success) {
    return {
      problems: checked.error.issues.map((issue) => {
        const where = issue.path as Segment[];
        return { ...at(where), message: `${where.length ? `${where.join('.')}: ` : ''}${issue.message}` };
      }),
    };
  }
  const spec = checked.data;
  const cases = spec.cases.map((c, index): TestCase => {
    const call: CallSpec = { tool: c.tool ?? DEFAULT_TOOL };
    if (c.command !== undefined) call.command = c.command;
    if (c.input !== undefined) call.input = c.input;
    if (c.cwd !== undefined) call.cwd = c.cwd;
    const mode = c.mode ?? spec.mode;
    if (mode !== undefined) call.mode = mode;
    if (c.context !== undefined) call.context = c.context;
    const input = c.input ?? { command: c.command };
    const name = c.name ?? `${c.expect}: ${describeCall({ tool: call.tool!, input })}`;
    return {
      ...at(['cases', index]),
      file,
      name,
      call,
      expect: c.expect,
      ...(c.rule === undefined ? {} : { rule: c.rule }),
    };
  });
  return {
    suite: {
      file,
      name: spec.name ?? path.basename(file),
      settings: typeof spec.settings === 'string' ? [spec.settings] : spec.settings,
      defaults: spec.defaults ?? true,
      ...(spec.mode === undefined ? {} : { mode: spec.mode }),
      ...(spec.cwd === undefined ? {} : { cwd: spec.cwd }),
      cases,
    },
  };
}
