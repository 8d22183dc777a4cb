// A project, its settings and the reference agent loop against the loopback Messages API, for the sub-agent
// and compaction tests.
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { afterEach, beforeAll } from 'vitest';
import { loadBash } from '../../src/bash/analyze.js';
import { AgentSession } from '../../src/eval/drivers/session.js';
import { loadSettings } from '../../src/rules/settings/load-settings.js';
import type { MessagesServer } from '../support/messages-server.js';

export interface Project {
  root: string;
  cwd: string;
  session: AgentSession;
  close(): Promise<void>;
}

/**
 * A project whose `.claude/settings.json` is `settings` (given the temporary root folder, for hook logs), and an
 * agent session on it: the rules alone decide, no MCP.
 */
export async function agentProject(settings: (root: string) => object): Promise<Project> {
  const root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'automode-agent-loop-')));
  const cwd = path.join(root, 'project');
  await mkdir(path.join(cwd, '.claude'), { recursive: true });
  await writeFile(path.join(cwd, '.claude', 'settings.json'), JSON.stringify(settings(root)));
  const loaded = await loadSettings({
    cwd,
    home: path.join(root, 'home'),
    managedPath: path.join(root, 'managed.json'),
    env: {},
  });
  const session = await AgentSession.create({ settings: loaded, cwd, mcp: false });
  return {
    root,
    cwd,
    session,
    close: async () => {
      await session.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}

export const sdkFor = (url: string) => new Anthropic({ apiKey: 'test', baseURL: url, maxRetries: 0 });

/** The inputs a `hookCommand({ record })` hook received, in order. */
export async function recorded(file: string): Promise<Record<string, unknown>[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { input: Record<string, unknown> }).input);
}

export type Block = { type: string; id?: string; tool_use_id?: string; text?: string; content?: unknown };
export type Message = { role: string; content: string | Block[] };

/**
 * What one test of the agent loop opens, closed after it: its project and its loopback Messages server. Loads the
 * bash parser once for the file.
 */
export function agentWorld(): { project?: Project; server?: MessagesServer } {
  const world: { project?: Project; server?: MessagesServer } = {};
  beforeAll(loadBash);
  afterEach(async () => {
    await world.server?.close();
    world.server = undefined;
    await world.project?.close();
    world.project = undefined;
  });
  return world;
}
