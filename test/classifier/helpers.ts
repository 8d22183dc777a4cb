import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ClassifiedVerdict, type Classifier, createClassifier } from '../../src/classifier/index.js';
import { builtinOptions } from '../../src/rules/settings/builtin.js';
import { loadSettingsFiles } from '../../src/rules/settings/load.js';
import type { LoadedSettings } from '../../src/rules/settings/types.js';
import type { Mode } from '../../src/shared/index.js';

/** A temp root holding a home folder and a project folder (siblings), as real paths. */
export interface Sandbox {
  root: string;
  home: string;
  project: string;
  /** A managed settings path that does not exist. */
  managed: string;
}

export async function makeSandbox(): Promise<Sandbox> {
  const root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'automode-classify-')));
  const home = path.join(root, 'home');
  const project = path.join(root, 'proj');
  await mkdir(home, { recursive: true });
  await mkdir(project, { recursive: true });
  return { root, home, project, managed: path.join(root, 'managed', 'managed-settings.json') };
}

export async function removeSandbox(box: Sandbox): Promise<void> {
  await rm(box.root, { recursive: true, force: true });
}

/**
 * Replaces the corpus placeholders: `$ABSHOME` and `$PROJECT` everywhere; `$HOME` only when `shell` is false
 * (in a shell command `$HOME` is the shell's own variable, which expands to the same folder).
 */
export function fillPlaceholders(text: string, box: Sandbox, shell: boolean): string {
  let out = text.replace(/\$ABSHOME(?![A-Za-z0-9_])/g, () => box.home);
  out = out.replace(/\$PROJECT(?![A-Za-z0-9_])/g, () => box.project);
  if (!shell) out = out.replace(/\$HOME(?![A-Za-z0-9_])/g, () => box.home);
  return out;
}

export function fillInput(value: unknown, box: Sandbox, shell: boolean): unknown {
  if (typeof value === 'string') return fillPlaceholders(value, box, shell);
  if (Array.isArray(value)) return value.map((v) => fillInput(v, box, shell));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillInput(v, box, shell)]));
  }
  return value;
}

/** A corpus path: `~/x` is under the home folder, anything else is relative to the project. */
export function sandboxPath(box: Sandbox, relative: string): string {
  if (relative === '~') return box.home;
  if (relative.startsWith('~/')) return path.join(box.home, relative.slice(2));
  return path.resolve(box.project, fillPlaceholders(relative, box, false));
}

export async function writeCaseFiles(box: Sandbox, files: Record<string, string> = {}): Promise<void> {
  for (const [relative, content] of Object.entries(files)) {
    const file = sandboxPath(box, relative);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, content);
  }
}

/** Creates each link; a target starting with `~/` is under the home folder, others are used as written. */
export async function writeCaseSymlinks(box: Sandbox, links: Record<string, string> = {}): Promise<void> {
  for (const [relative, rawTarget] of Object.entries(links)) {
    const link = sandboxPath(box, relative);
    const filled = fillPlaceholders(rawTarget, box, false);
    const target = filled === '~' || filled.startsWith('~/') ? sandboxPath(box, filled) : filled;
    await mkdir(path.dirname(link), { recursive: true });
    await symlink(target, link);
  }
}

/** Writes the project settings (when given) and loads every source with the shipped rules. */
export async function loadCaseSettings(box: Sandbox, settings?: unknown): Promise<LoadedSettings> {
  if (settings !== undefined) {
    await mkdir(path.join(box.project, '.claude'), { recursive: true });
    await writeFile(
      path.join(box.project, '.claude', 'settings.json'),
      `${JSON.stringify(settings, null, 2)}\n`,
    );
  }
  return loadSettingsFiles({
    cwd: box.project,
    home: box.home,
    managedPath: box.managed,
    env: {},
    ...builtinOptions(),
  });
}

export async function caseClassifier(box: Sandbox, settings?: unknown): Promise<Classifier> {
  return createClassifier(await loadCaseSettings(box, settings));
}

export interface SandboxClassifier {
  box: Sandbox;
  classifier: Classifier;
  /** Classifies a Bash command run in the project folder. */
  bash(command: string): Promise<ClassifiedVerdict>;
}

/**
 * A sandbox and a classifier on it for the tests of one describe block, removed after them. `prepare` fills the
 * sandbox before the settings are loaded.
 */
export function useSandboxClassifier(
  prepare?: (box: Sandbox) => Promise<void>,
  settings?: unknown,
): SandboxClassifier {
  const state = {
    bash: (command: string) =>
      state.classifier.classify({ tool: 'Bash', input: { command }, cwd: state.box.project }),
  } as SandboxClassifier;
  beforeAll(async () => {
    state.box = await makeSandbox();
    await prepare?.(state.box);
    state.classifier = await caseClassifier(state.box, settings);
  });
  afterAll(async () => {
    await removeSandbox(state.box);
  });
  return state;
}

/**
 * Tests on a sandbox: each command of `allowed` is allowed, each of `notAllowed` is not (asked or denied), with the
 * verdict's reason in the message.
 */
export function expectDecisions(
  sandbox: { bash(command: string): Promise<{ decision: string; reason: string }> },
  allowed: readonly string[],
  notAllowed: readonly string[],
): void {
  it.each(allowed)('allows %s', async (command) => {
    const verdict = await sandbox.bash(command);
    expect(verdict.decision, `${command}: ${verdict.reason}`).toBe('allow');
  });
  it.each(notAllowed)('does not allow %s', async (command) => {
    const verdict = await sandbox.bash(command);
    expect(verdict.decision, `${command}: ${verdict.reason}`).not.toBe('allow');
  });
}

/** expectDecisions in a describe block of its own, on a fresh sandbox. */
export function describeDecisions(
  title: string,
  allowed: readonly string[],
  notAllowed: readonly string[],
): void {
  describe(title, () => expectDecisions(useSandboxClassifier(), allowed, notAllowed));
}

/** A case of the labelled corpus (fixtures/classify/corpus.jsonl, built by fixtures/classify/build_corpus.py). */
export interface CorpusCase {
  id: string;
  class: string;
  settings?: unknown;
  mode?: Mode;
  files?: Record<string, string>;
  symlinks?: Record<string, string>;
  tool: string;
  input: Record<string, unknown>;
  expect: 'allow' | 'ask' | 'deny';
  note: string;
  peer?: Record<string, unknown>;
}

export function corpusCases(): CorpusCase[] {
  return readFileSync(new URL('../../fixtures/classify/corpus.jsonl', import.meta.url), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as CorpusCase);
}

/**
 * One corpus case in fresh temp HOME and project folders (pushed to `boxes`, for the caller to remove), with its
 * files, links and settings and the shipped rules: its classifier and its verdict.
 */
export async function runCorpusCase(
  c: CorpusCase,
  boxes: Sandbox[],
): Promise<{ classifier: Classifier; verdict: ClassifiedVerdict }> {
  const box = await makeSandbox();
  boxes.push(box);
  await writeCaseFiles(box, c.files);
  await writeCaseSymlinks(box, c.symlinks);
  const classifier = await caseClassifier(box, c.settings);
  const input = fillInput(c.input, box, c.tool === 'Bash') as Record<string, unknown>;
  const verdict = await classifier.classify({
    tool: c.tool,
    input,
    cwd: box.project,
    ...(c.mode ? { mode: c.mode } : {}),
  });
  return { classifier, verdict };
}
