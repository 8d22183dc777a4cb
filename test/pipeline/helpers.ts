import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createClassifier } from '../../src/classifier/index.js';
import type { ModelCaller } from '../../src/llm/types.js';
import {
  createToolUseContext,
  type PipelineOptions,
  type ToolUseContext,
} from '../../src/pipeline/context.js';
import { type ExecuteOptions, executeToolUse } from '../../src/pipeline/execute.js';
import type { PipelineMessage, ToolResultMessage } from '../../src/pipeline/messages.js';
import { textOf } from '../../src/pipeline/messages.js';
import type { PermissionHandler, PermissionRequest } from '../../src/pipeline/permission/types.js';
import type { AnyTool } from '../../src/pipeline/tool.js';
import type { BashToolOptions } from '../../src/pipeline/tools/bash.js';
import { referenceTools } from '../../src/pipeline/tools/index.js';
import type { WebFetchToolOptions } from '../../src/pipeline/tools/web-fetch.js';
import type { WebSearchToolOptions } from '../../src/pipeline/tools/web-search.js';
import { loadSettings } from '../../src/rules/settings/load-settings.js';
import type { Mode } from '../../src/shared/index.js';

export { hookCommand, preDecision } from '../hooks/helpers.js';

export interface SetupOptions {
  /** Written to `.claude/settings.json` of the project. */
  project?: object;
  user?: object;
  mode?: Mode;
  handler?: PermissionHandler;
  tools?: AnyTool[];
  model?: ModelCaller;
  bash?: BashToolOptions;
  webFetch?: WebFetchToolOptions;
  webSearch?: WebSearchToolOptions;
  pipeline?: Partial<PipelineOptions>;
}

export interface Setup {
  root: string;
  cwd: string;
  home: string;
  ctx: ToolUseContext;
}

export async function setup(options: SetupOptions = {}): Promise<Setup> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'automode-pipeline-'));
  const cwd = path.join(root, 'project');
  const home = path.join(root, 'home');
  await mkdir(path.join(cwd, '.claude'), { recursive: true });
  await mkdir(path.join(home, '.claude'), { recursive: true });
  if (options.project)
    await writeFile(path.join(cwd, '.claude', 'settings.json'), JSON.stringify(options.project));
  if (options.user)
    await writeFile(path.join(home, '.claude', 'settings.json'), JSON.stringify(options.user));
  const settings = await loadSettings({ cwd, home, managedPath: path.join(root, 'managed.json'), env: {} });
  const classifier = createClassifier(
    settings,
    options.model ? { model: options.model, modelTimeoutMs: 5000 } : {},
  );
  const ctx = createToolUseContext({
    classifier,
    tools: [...referenceTools(referenceToolOptions(options)), ...(options.tools ?? [])],
    resultsDir: path.join(root, 'results'),
    ...(options.mode ? { mode: options.mode } : {}),
    ...(options.handler ? { handler: options.handler } : {}),
    ...options.pipeline,
  });
  return { root, cwd, home, ctx };
}

function referenceToolOptions(options: SetupOptions): Parameters<typeof referenceTools>[0] {
  const chosen: Parameters<typeof referenceTools>[0] = {};
  if (options.bash) chosen.bash = options.bash;
  if (options.webFetch) chosen.webFetch = options.webFetch;
  if (options.webSearch) chosen.webSearch = options.webSearch;
  return chosen;
}

export async function collect<T>(gen: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const m of gen) out.push(m);
  return out;
}

export interface Ran {
  messages: PipelineMessage[];
  result: ToolResultMessage;
  text: string;
}

let ids = 0;

export async function run(
  ctx: ToolUseContext,
  name: string,
  input: unknown,
  options: ExecuteOptions = {},
): Promise<Ran> {
  const block = { type: 'tool_use' as const, id: `toolu_${++ids}`, name, input };
  const messages = await collect(executeToolUse(block, ctx, options));
  const result = messages.at(-1) as ToolResultMessage;
  if (result?.type !== 'tool_result') throw new Error('the last message is not the tool_result');
  return { messages, result, text: textOf(result.block.content) };
}

/** A handler that records what it is asked and answers with `behavior`. */
export function recordingHandler(behavior: 'allow' | 'deny' = 'deny') {
  const requests: PermissionRequest[] = [];
  const handler: PermissionHandler = async (request) => {
    requests.push(request);
    return { behavior, by: 'test', reason: `the test says ${behavior}` };
  };
  return { handler, requests };
}
