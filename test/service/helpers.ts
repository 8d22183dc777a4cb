import { mkdirSync, mkdtempSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll } from 'vitest';
import { loadBash } from '../../src/bash/analyze.js';
import { createModelClient } from '../../src/llm/client.js';
import type { ModelCaller } from '../../src/llm/index.js';
import { loadSettings } from '../../src/rules/settings/load-settings.js';
import { createDecider, type Decision, type RunningService, startService } from '../../src/service/index.js';

/** A project folder and a home of its own, so that no settings of the machine running the tests apply. */
export function tempProject() {
  const root = mkdtempSync(join(tmpdir(), 'automode-serve-'));
  const home = join(root, 'home');
  const project = join(root, 'project');
  mkdirSync(home);
  mkdirSync(join(project, '.claude'), { recursive: true });
  return { root, home, project, dir: join(root, 'service') };
}

export const CLI_RULES = { allow: ['Bash(npm test)'], ask: ['Bash(git push *)'], deny: ['Bash(curl *)'] };

export function settingsLoader(home: string, project: string) {
  return (cwd: string | undefined) =>
    loadSettings({
      cwd: cwd ?? project,
      home,
      managedPath: join(home, 'none.json'),
      env: {},
      cli: CLI_RULES,
    });
}

export function modelAt(url: string): ModelCaller {
  return createModelClient({
    apiKey: 'test-key',
    baseURL: url,
    env: {},
    retry: { maxRetries: 0, baseDelayMs: 10, maxDelayMs: 10 },
  });
}

export type TestService = Awaited<ReturnType<typeof startTestService>>;

/**
 * For a test file: the parser loaded before its tests, and `start` for a service that is closed after the test
 * that started it.
 */
export function useTestServices(): (
  options?: Parameters<typeof startTestService>[0],
) => Promise<TestService> {
  const started: TestService[] = [];
  beforeAll(async () => {
    await loadBash();
  });
  afterEach(async () => {
    for (const s of started.splice(0)) await s.service.close();
  });
  return async (options) => {
    const s = await startTestService(options);
    started.push(s);
    return s;
  };
}

/** The decision a hook answer carries (PreToolUse's or PermissionRequest's); `none` for `{}`. */
export function decisionOf(body: string): string {
  const out = body === '{}' ? undefined : JSON.parse(body).hookSpecificOutput;
  return out?.permissionDecision ?? out?.decision?.behavior ?? 'none';
}

export async function startTestService(
  options: { model?: ModelCaller; maxBodyBytes?: number; log?: (decision: Decision) => void } = {},
) {
  const t = tempProject();
  const decider = createDecider({
    load: settingsLoader(t.home, t.project),
    ...(options.model ? { model: options.model } : {}),
  });
  const service = await startService({
    decider,
    dir: t.dir,
    version: 'test',
    ...(options.maxBodyBytes ? { maxBodyBytes: options.maxBodyBytes } : {}),
    ...(options.log ? { log: options.log } : {}),
  });
  return { ...t, decider, service };
}

export interface Answer {
  status: number;
  body: string;
}

/** One raw HTTP request to the service, over loopback or its socket. */
export function send(
  service: RunningService,
  request: {
    method?: string;
    path?: string;
    body?: string | Buffer;
    token?: string | null;
    via?: 'http' | 'socket';
    chunked?: boolean;
  },
): Promise<Answer> {
  const token = request.token === undefined ? service.token : request.token;
  const headers: http.OutgoingHttpHeaders = {};
  if (token !== null) headers.authorization = `Bearer ${token}`;
  const body = request.body;
  if (body !== undefined && !request.chunked) headers['content-length'] = Buffer.byteLength(body);
  const target =
    request.via === 'socket'
      ? { socketPath: service.record.socket }
      : { host: '127.0.0.1', port: Number(new URL(service.record.url ?? '').port) };
  return new Promise((resolve, reject) => {
    const req = http.request(
      { ...target, method: request.method ?? 'POST', path: request.path ?? '/hook', headers, agent: false },
      (res) => {
        let text = '';
        res.on('data', (d) => {
          text += d;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    // The service answers a refused body before reading it all and closes: writing the rest may then fail.
    req.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code !== 'EPIPE' && e.code !== 'ECONNRESET') reject(e);
    });
    if (body !== undefined) req.write(body);
    req.end();
  });
}

export const hookInput = (fields: Record<string, unknown>) =>
  JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 's1', ...fields });
