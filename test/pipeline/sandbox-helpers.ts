import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createClassifier } from '../../src/classifier/index.js';
import { createToolUseContext, type ToolUseContext } from '../../src/pipeline/context.js';
import type { PermissionMessage, PipelineMessage } from '../../src/pipeline/messages.js';
import type { PermissionHandler } from '../../src/pipeline/permission/types.js';
import { Sandbox } from '../../src/pipeline/sandbox/sandbox.js';
import { referenceTools } from '../../src/pipeline/tools/index.js';
import { loadSettings } from '../../src/rules/settings/load-settings.js';

/** Fails (never skips) when the sandbox's programs are missing: the project's set-up installs them. */
export function requireSandboxPrograms(): void {
  const missing = ['bwrap', 'socat', 'rg'].filter((bin) => {
    try {
      execFileSync('which', [bin], { stdio: 'ignore' });
      return false;
    } catch {
      return true;
    }
  });
  if (missing.length > 0)
    throw new Error(
      `${missing.join(', ')} not found: run scripts/setup-sandbox.sh to install the sandbox's programs`,
    );
}

export interface SandboxSetup {
  root: string;
  cwd: string;
  /** A folder outside the project and the temp folder. */
  outside: string;
  sandbox: Sandbox;
  ctx: ToolUseContext;
}

/** A project under /var/tmp (outside the temp folder), with these project settings, and its sandbox. */
export async function sandboxSetup(
  project: object,
  options: { handler?: PermissionHandler; enabled?: boolean } = {},
): Promise<SandboxSetup> {
  const root = await mkdtemp(path.join('/var/tmp', 'automode-sandbox-'));
  const cwd = path.join(root, 'project');
  const home = path.join(root, 'home');
  const outside = path.join(root, 'outside');
  await mkdir(path.join(cwd, '.claude'), { recursive: true });
  await mkdir(path.join(home, '.claude'), { recursive: true });
  await mkdir(outside);
  await writeFile(path.join(cwd, '.claude', 'settings.json'), JSON.stringify(project));
  const settings = await loadSettings({ cwd, home, managedPath: path.join(root, 'managed.json'), env: {} });
  const sandbox = new Sandbox(settings, options.enabled === undefined ? {} : { enabled: options.enabled });
  const ctx = createToolUseContext({
    classifier: createClassifier(settings, {}),
    tools: referenceTools(),
    resultsDir: path.join(root, 'results'),
    sandbox,
    ...(options.handler ? { handler: options.handler } : {}),
  });
  return { root, cwd, outside, sandbox, ctx };
}

/** The permission message of a call's messages. */
export const permission = (messages: PipelineMessage[]) =>
  messages.find((m): m is PermissionMessage => m.type === 'permission');

/** Projects made by `sandboxSetup`, removed together by `remove()`. */
export function projects() {
  const roots: string[] = [];
  return {
    async make(...args: Parameters<typeof sandboxSetup>): Promise<SandboxSetup> {
      const s = await sandboxSetup(...args);
      roots.push(s.root);
      return s;
    },
    async remove(): Promise<void> {
      for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true });
    },
  };
}
