import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, readdir, rename, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, remove, tempFolder } from '../testing/helpers.js';

/**
 * The package surface, as a project that depends on automode sees it: `npm pack` of this package (as built in
 * dist/), extracted into its node_modules, and files that import each entry through the package name and its
 * "exports". The package's dependencies are links to this checkout's.
 * The lists below are the API: a change to them is a change to the package's public names.
 */

/** Every name of the root entry `automode`, types included. */
const ROOT_NAMES = [
  'Analysis',
  'analyzeBash',
  'Behavior',
  'BUILTIN_FILES',
  'CallResult',
  'ClassifiedVerdict',
  'Classifier',
  'ClassifierOptions',
  'ClassifierSession',
  'ClassifyOptions',
  'CodeExecution',
  'contextFromTranscript',
  'createClassifier',
  'createModelClient',
  'createRecorder',
  'createReplayClient',
  'createSession',
  'DecidedBy',
  'Decision',
  'Diagnostic',
  'FileEffect',
  'formatDiagnostic',
  'HookToolCall',
  'isModelConfigured',
  'LoadedSettings',
  'loadModelClient',
  'loadReplayClient',
  'loadSettings',
  'Mode',
  'ModelCaller',
  'ModelClient',
  'ModelClientOptions',
  'ModelInfo',
  'PartVerdict',
  'Recorder',
  'readTranscript',
  'Redirect',
  'ReplayClient',
  'Rule',
  'RuleRef',
  'SettingsOptions',
  'SimpleCommand',
  'SourceName',
  'Speculation',
  'ToolCall',
  'TranscriptContext',
  'Verdict',
  'Word',
].sort();

/** Every name of the lean entry `automode/classifier`, types included. */
const CLASSIFIER_NAMES = [
  'Analysis',
  'analyzeBash',
  'Behavior',
  'BUILTIN_FILES',
  'CallResult',
  'ClassifiedVerdict',
  'Classifier',
  'ClassifierOptions',
  'ClassifierSession',
  'ClassifyOptions',
  'CodeExecution',
  'contextFromTranscript',
  'createClassifier',
  'createSession',
  'DecidedBy',
  'Decision',
  'Diagnostic',
  'FileEffect',
  'formatDiagnostic',
  'HookToolCall',
  'isModelConfigured',
  'LoadedSettings',
  'loadModelClient',
  'loadSettings',
  'Mode',
  'ModelCaller',
  'ModelClient',
  'ModelClientOptions',
  'ModelInfo',
  'PartVerdict',
  'readTranscript',
  'Redirect',
  'Rule',
  'RuleRef',
  'SettingsOptions',
  'SimpleCommand',
  'SourceName',
  'Speculation',
  'ToolCall',
  'TranscriptContext',
  'Verdict',
  'Word',
].sort();

/** The values of each entry at run time: Object.keys of the module namespace (sorted, as the namespace is). */
const VALUES: Record<string, string[]> = {
  automode: [
    'BUILTIN_FILES',
    'analyzeBash',
    'contextFromTranscript',
    'createClassifier',
    'createModelClient',
    'createRecorder',
    'createReplayClient',
    'createSession',
    'formatDiagnostic',
    'isModelConfigured',
    'loadModelClient',
    'loadReplayClient',
    'loadSettings',
    'readTranscript',
  ],
  'automode/classifier': [
    'BUILTIN_FILES',
    'analyzeBash',
    'contextFromTranscript',
    'createClassifier',
    'createSession',
    'formatDiagnostic',
    'isModelConfigured',
    'loadModelClient',
    'loadSettings',
    'readTranscript',
  ],
  'automode/pipeline': [
    'AgentOutputSchema',
    'BackgroundTasks',
    'BashOutputSchema',
    'DEFAULT_HOOK_TIMEOUT_MS',
    'DenialTracking',
    'EditOutputSchema',
    'FileMailbox',
    'GENERAL_PURPOSE_AGENT',
    'GlobOutputSchema',
    'GrepOutputSchema',
    'INTERRUPT_MESSAGE',
    'MAX_CLASSIFIER_CONTEXT_CHARS',
    'MAX_HOOK_OUTPUT_CHARS',
    'MAX_TOOL_CONCURRENCY',
    'McpOutputSchema',
    'McpToolCallError',
    'PermissionState',
    'REJECT_MESSAGE',
    'ReadOutputSchema',
    'STOPPED_MESSAGE',
    'SUBAGENT_TYPES',
    'Sandbox',
    'SessionState',
    'ShellError',
    'StreamingToolExecutor',
    'TaskOutputSchema',
    'TelemetrySafeError',
    'TodoWriteOutputSchema',
    'ToolRegistry',
    'ToolScheduler',
    'ToolSearchOutputSchema',
    'WebFetchOutputSchema',
    'WebSearchOutputSchema',
    'WriteOutputSchema',
    'agentTool',
    'answerPermissionRequests',
    'applyToolSearchMode',
    'automaticSource',
    'bashOutputTool',
    'bashTool',
    'buildTool',
    'classifyToolError',
    'connectMcpServer',
    'connectMcpServers',
    'coordinatorHandler',
    'createToolUseContext',
    'decide',
    'deferredToolsNotice',
    'destructiveWarning',
    'editTool',
    'executeToolUse',
    'firePreCompactHooks',
    'firstAnswer',
    'fromAuto',
    'globTool',
    'grepTool',
    'hookConfig',
    'inputJsonSchema',
    'interactiveHandler',
    'isLoopbackHost',
    'isSoftAsk',
    'jsonSchemaInput',
    'mcpServersFromSettings',
    'mcpToolName',
    'parseInput',
    'parseToolSearchMode',
    'persistLargeResult',
    'readTool',
    'referenceTools',
    'runCommandHook',
    'runHooks',
    'runHttpHook',
    'runPermissionDeniedHooks',
    'runPermissionRequestHooks',
    'runPostToolUseHooks',
    'runPreCompactHooks',
    'runPreToolUseHooks',
    'runSubagentStartHooks',
    'runSubagentStopHooks',
    'runTools',
    'sandboxRuntimeConfig',
    'saveAllowRules',
    'semanticBoolean',
    'semanticNumber',
    'servePermissionRequests',
    'settingsTargets',
    'stopSandboxRuntime',
    'suggestRules',
    'swarmWorkerHandler',
    'terminalPrompt',
    'textOf',
    'todoWriteTool',
    'toolSearchTool',
    'toolUseError',
    'webFetchTool',
    'webSearchTool',
    'writeTool',
  ],
  'automode/eval': [
    'AgentSession',
    'CATEGORIES',
    'DEFAULT_TARGETS',
    'EVAL_HOME',
    'EVAL_PROJECT',
    'EvalCaseSchema',
    'EvalFileSchema',
    'SHIPPED_DATASET',
    'SHIPPED_RECORDING',
    'buildOracleRecording',
    'checkTargets',
    'classifierDecider',
    'computeMetrics',
    'decisionOf',
    'evaluate',
    'evaluateConfig',
    'formatProblem',
    'loadDataset',
    'loadEvalSettings',
    'oracleCaller',
    'pipelineDecider',
    'playScript',
    'progressBar',
    'readScript',
    'readVsSpec',
    'renderHtml',
    'renderMarkdown',
    'renderText',
    'reportJson',
    'resolveConfig',
    'runAgent',
    'runEval',
    'runEvalBatched',
  ],
  'automode/critique': [
    'FINDING_CODES',
    'createReviewer',
    'critique',
    'everydayLine',
    'modelReviewer',
    'provenanceKey',
    'renderGithub',
    'renderSarif',
    'renderText',
    'shadowedRules',
    'summaryLine',
  ],
  'automode/testing': [
    'DANGEROUS_CORPUS',
    'NO_MODEL',
    'REDACTED',
    'SHIPPED_CORPUS',
    'TEST_FILE_GLOB',
    'UNPROMPTED_MODES',
    'annotation',
    'configurationOf',
    'dangerousCommands',
    'describeCall',
    'diffDecisions',
    'displayLocation',
    'filesRead',
    'findFiles',
    'holdsSecret',
    'learnRules',
    'loadConfiguration',
    'mergeCoverage',
    'modelProvider',
    'needsModel',
    'projectTranscriptFolder',
    'readCorpus',
    'readSessions',
    'readSuite',
    'redact',
    'renderCoverage',
    'renderDiffMarkdown',
    'renderDiffText',
    'renderGithub',
    'renderJunit',
    'renderText',
    'resolveSides',
    'runSuite',
    'runTestFile',
    'suggestRules',
    'summarize',
    'summaryLine',
    'toCall',
    'uniqueCalls',
  ],
  'automode/vitest': ['automodeMatchers', 'createAutomodeMatchers'],
};

/** What a consumer's script does with each entry; it prints one JSON object. */
const SCRIPT = String.raw`
import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import * as root from 'automode';
import * as lean from 'automode/classifier';
import * as pipeline from 'automode/pipeline';
import * as evaluation from 'automode/eval';
import * as critiqueApi from 'automode/critique';
import * as testing from 'automode/testing';
import * as matchers from 'automode/vitest';

const keys = {};
for (const [name, m] of Object.entries({
  automode: root,
  'automode/classifier': lean,
  'automode/pipeline': pipeline,
  'automode/eval': evaluation,
  'automode/critique': critiqueApi,
  'automode/testing': testing,
  'automode/vitest': matchers,
})) keys[name] = Object.keys(m);
const out = { keys };
const cwd = process.cwd();
const options = { cwd, home: cwd, managedPath: join(cwd, 'no-managed.json'), env: {} };

// automode: the classifier with the shipped defaults.
const settings = await root.loadSettings(options);
const classifier = root.createClassifier(settings);
const status = await classifier.classify({ tool: 'Bash', input: { command: 'git status' } });
const rm = await classifier.classify({ tool_name: 'Bash', tool_input: { command: 'rm -rf /' }, cwd });
// A compound command: the bash grammar the package ships is parsed with (tree-sitter-bash is no dependency).
const compound = await classifier.classify({ tool: 'Bash', input: { command: 'ls | grep x && echo "$(pwd)"' } });
out.root = {
  status: status.decision,
  rm: rm.decision,
  rmRule: rm.rule?.text,
  commands: status.analysis?.commands.length,
  compound: compound.decision,
  compoundCommands: compound.analysis?.commands.map((c) => c.argv[0]?.value),
};

// automode/classifier: a call in a session of the caller's, and a model client loaded on demand, with no key.
const leanSettings = await lean.loadSettings(options);
const session = lean.createSession();
const leanVerdict = await lean
  .createClassifier(leanSettings)
  .classify({ tool: 'Bash', input: { command: 'git push --force' } }, { session });
const client = await lean.loadModelClient({ env: {} });
const unconfigured = await client.call({ messages: [{ role: 'user', content: 'hi' }], max_tokens: 1 });
out.lean = { push: leanVerdict.decision, configured: client.configured, call: unconfigured.ok ? 'ok' : unconfigured.kind };

// automode/pipeline: one tool_use block through the pipeline, headless.
const ctx = pipeline.createToolUseContext({
  classifier,
  tools: pipeline.referenceTools(),
  handler: pipeline.coordinatorHandler(),
});
const blocks = [
  { type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'printf hello' } },
  { type: 'tool_use', id: 'toolu_2', name: 'Bash', input: { command: 'rm -rf /' } },
];
const results = [];
for await (const m of pipeline.runTools(blocks, ctx)) if (m.type === 'tool_result') results.push(m.block);
await ctx.session.tasks.killAll();
out.pipeline = {
  tools: pipeline.referenceTools().map((t) => t.name),
  results: results.map((b) => ({ id: b.tool_use_id, error: b.is_error, text: pipeline.textOf(b.content) })),
};

// automode/critique: a broad allow rule admits dangerous commands.
mkdirSync(join(cwd, 'critique'));
const file = join(cwd, 'critique', 'settings.json');
writeFileSync(file, JSON.stringify({ permissions: { allow: ['Bash(git push *)'] } }));
const report = await critiqueApi.critique({ cwd: join(cwd, 'critique'), home: cwd, files: [file], env: {} });
out.critique = { codes: [...new Set(report.findings.map((f) => f.code))], review: report.review.status };

// automode/testing: a test file of two cases.
mkdirSync(join(cwd, 'suite/.claude'), { recursive: true });
writeFileSync(join(cwd, 'suite/.claude/settings.json'), JSON.stringify({ permissions: { allow: ['Bash(npm test)'] } }));
writeFileSync(
  join(cwd, 'suite/policy.automode-test.yaml'),
  'settings: .\ncases:\n  - command: npm test\n    expect: allow\n    rule: Bash(npm test)\n  - command: rm -rf /\n    expect: deny\n',
);
const suite = await testing.runTestFile(join(cwd, 'suite/policy.automode-test.yaml'));
out.testing = { line: testing.summaryLine(testing.summarize([suite])), problems: suite.problems };

// automode/eval: the shipped dataset, a few cases, the classifier alone and no model.
const dataset = await evaluation.loadDataset([evaluation.SHIPPED_DATASET]);
const cases = dataset.ok ? dataset.cases.slice(0, 5) : [];
const config = await evaluation.resolveConfig({ llm: false });
const evalReport = await evaluation.evaluate([evaluation.SHIPPED_DATASET], cases, [config], { decider: 'classifier' });
out.eval = { ok: dataset.ok, cases: cases.length, run: evalReport.runs[0]?.results.length, model: config.modelLine };

console.log(JSON.stringify(out));
`;

/** Type-checked by tsc in the consumer: the type names a user reaches for, from each entry. */
const TYPES = `
import type { ClassifiedVerdict, Classifier, HookToolCall, LoadedSettings, ToolCall, Verdict } from 'automode';
import type { PermissionHandler, PipelineMessage, Tool, ToolUseContext, HookConfig, SandboxConfig, SandboxOptions, PermissionRequestedMessage } from 'automode/pipeline';
import type { EvalCase, EvalReport, ResolvedConfig } from 'automode/eval';
import type { CritiqueOptions, CritiqueReport, Finding } from 'automode/critique';
import type { Change, ChangeKind, DiffSummary, DiffVerdict, SuiteResult, Summary } from 'automode/testing';
import type { MatcherOptions } from 'automode/vitest';
import { createClassifier, loadSettings } from 'automode';
import type { ClassifierSession, ModelClient } from 'automode/classifier';
import { createSession, loadModelClient } from 'automode/classifier';

const settings: LoadedSettings = await loadSettings();
const classifier: Classifier = createClassifier(settings);
const call: ToolCall = { tool: 'Bash', input: { command: 'ls' } };
const verdict: ClassifiedVerdict = await classifier.classify(call);
const hookInput: HookToolCall = { tool_name: 'Bash', tool_input: { command: 'ls' }, permission_mode: 'auto' };
await classifier.classify(hookInput);
const plain: Verdict = verdict;
const session: ClassifierSession = createSession();
const model: ModelClient = await loadModelClient();
await createClassifier(settings, { model }).classify(call, { session });
export type Used = [PermissionHandler, PipelineMessage, Tool, ToolUseContext, HookConfig, SandboxConfig, SandboxOptions, PermissionRequestedMessage, EvalCase, EvalReport,
  ResolvedConfig, CritiqueOptions, CritiqueReport, Finding, SuiteResult, Summary, MatcherOptions, typeof plain,
  Change, ChangeKind, DiffSummary, DiffVerdict];
`;

/** Records every module the process loads (ESM through the load hook, CommonJS from require.cache). */
const LOAD_HOOKS = String.raw`
import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  appendFileSync(process.env.LOAD_LOG, url + '\n');
  return next(url, context);
}
`;

/** The lean entry used for a rules-only decision, then (with the argument `model`) for a model client. */
const LEAN_SCRIPT = String.raw`
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { join } from 'node:path';
register('./load-hooks.mjs', import.meta.url);
const { createClassifier, loadModelClient, loadSettings } = await import('automode/classifier');
const cwd = process.cwd();
const settings = await loadSettings({ cwd, home: cwd, managedPath: join(cwd, 'no-managed.json'), env: {} });
const classifier = createClassifier(settings);
const decisions = [];
for (const command of ['git status', 'rm -rf /', 'cat $(ls) > out.txt']) {
  decisions.push((await classifier.classify({ tool: 'Bash', input: { command } })).decision);
}
if (process.argv[2] === 'model') await loadModelClient({ env: {} });
for (const file of Object.keys(createRequire(import.meta.url).cache)) appendFileSync(process.env.LOAD_LOG, file + '\n');
console.log(JSON.stringify(decisions));
`;

let consumer: string;
let packed: Packed;

interface Packed {
  filename: string;
  files: { path: string }[];
}

/** `npm run pack` (dist/ is built already: the build finds it current, and other tests read it meanwhile). */
function pack(destination: string): Packed {
  const r = spawnSync(process.execPath, ['scripts/pack.js', destination], { cwd: REPO, encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout)[0];
}

beforeAll(async () => {
  consumer = await tempFolder('automode-entries-');
  const modules = path.join(consumer, 'node_modules');
  await mkdir(modules, { recursive: true });
  packed = pack(consumer);
  const tar = spawnSync('tar', ['-xzf', path.join(consumer, packed.filename), '-C', modules], {
    encoding: 'utf8',
  });
  expect(tar.stderr).toBe('');
  await rename(path.join(modules, 'package'), path.join(modules, 'automode'));
  const { dependencies } = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8'));
  for (const dep of [...Object.keys(dependencies), 'vitest', '@types/node']) {
    await mkdir(path.dirname(path.join(modules, dep)), { recursive: true });
    await symlink(path.join(REPO, 'node_modules', dep), path.join(modules, dep), 'dir');
  }
  await writeFile(
    path.join(consumer, 'package.json'),
    '{ "name": "entries-consumer", "private": true, "type": "module" }\n',
  );
  await writeFile(path.join(consumer, 'check.mjs'), SCRIPT);
  await writeFile(path.join(consumer, 'load-hooks.mjs'), LOAD_HOOKS);
  await writeFile(path.join(consumer, 'lean.mjs'), LEAN_SCRIPT);
  await writeFile(path.join(consumer, 'types.ts'), TYPES);
  await writeFile(
    path.join(consumer, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2023',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        noEmit: true,
        skipLibCheck: false,
        types: ['node'],
      },
      include: ['types.ts'],
    }),
  );
}, 300_000);
afterAll(() => remove(consumer));

/** A clean environment: no model, no managed settings, the consumer as home. */
const env = () => ({
  PATH: process.env.PATH ?? '',
  HOME: consumer,
  AUTOMODE_MANAGED_SETTINGS: path.join(consumer, 'no-managed.json'),
  CI: 'true',
  NO_COLOR: '1',
});

describe('the package entries, imported by name from a project that depends on automode', () => {
  let out: Out;
  beforeAll(() => {
    const r = spawnSync(process.execPath, ['check.mjs'], {
      cwd: consumer,
      encoding: 'utf8',
      env: env(),
      timeout: 120_000,
    });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    out = JSON.parse(r.stdout);
  }, 150_000);

  it('each entry exports exactly its listed values', () => {
    expect(out.keys).toEqual(VALUES);
  });

  it('automode: the classifier allows git status and denies rm -rf / (given as a hook input) with the shipped defaults', () => {
    expect(out.root).toEqual({
      status: 'allow',
      rm: 'deny',
      rmRule: 'Bash(rm -rf /)',
      commands: 1,
      compound: 'allow',
      compoundCommands: ['ls', 'grep', 'echo', 'pwd'],
    });
  });

  it('automode/classifier: classifies in a given session; the model client it loads sends nothing without a key', () => {
    expect(out.lean).toEqual({ push: 'ask', configured: false, call: 'auth' });
  });

  it('automode/pipeline: a tool_use block runs, a denied one is an error result', () => {
    expect(out.pipeline.tools).toContain('Bash');
    expect(out.pipeline.results[0]).toEqual({ id: 'toolu_1', error: false, text: 'hello' });
    expect(out.pipeline.results[1]).toMatchObject({ id: 'toolu_2', error: true });
  });

  it('automode/critique: finds the dangerous allow rule without a model', () => {
    expect(out.critique.codes).toContain('dangerous-allow');
    expect(out.critique.review).toBe('skipped');
  });

  it('automode/testing: runs a test file', () => {
    expect(out.testing).toEqual({ line: '2 passed, 0 failed, 0 skipped', problems: [] });
  });

  it('automode/eval: loads the shipped dataset and evaluates cases with the rules alone', () => {
    expect(out.eval).toMatchObject({ ok: true, cases: 5, run: 5 });
    expect(out.eval.model).toMatch(/^none/);
  });
});

describe('automode/classifier, the lean entry', () => {
  /** The decisions the script printed, and every module its process loaded. */
  function run(...args: string[]): { decisions: string[]; loaded: string[] } {
    const log = path.join(consumer, `loaded-${args.join('-') || 'rules'}.txt`);
    const r = spawnSync(process.execPath, ['lean.mjs', ...args], {
      cwd: consumer,
      encoding: 'utf8',
      env: { ...env(), LOAD_LOG: log },
      timeout: 60_000,
    });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    return { decisions: JSON.parse(r.stdout), loaded: readFileSync(log, 'utf8').trim().split('\n') };
  }
  const sdk = (f: string) => /[/\\]@anthropic-ai[/\\]sdk[/\\]/.test(f);
  const zod = (f: string) => /[/\\]zod[/\\]/.test(f);

  it('classifies with the rules alone without loading the Anthropic SDK or zod', () => {
    const { decisions, loaded } = run();
    expect(decisions).toEqual(['allow', 'deny', 'ask']);
    // The record is complete enough to show them: the entry itself and the parser it loads are in it.
    expect(loaded.some((f) => f.endsWith('/dist/classifier-entry.js'))).toBe(true);
    expect(loaded.some((f) => f.includes('web-tree-sitter'))).toBe(true);
    expect(loaded.filter(sdk)).toEqual([]);
    expect(loaded.filter(zod)).toEqual([]);
  });

  it('loads the SDK when loadModelClient is called', () => {
    const { loaded } = run('model');
    expect(loaded.some(sdk)).toBe(true);
  });
});

describe('the packed files', () => {
  it('hold the licence, and no source map pointing at sources the package does not ship', async () => {
    const files = packed.files.map((f) => f.path);
    expect(files).toContain('LICENSE');
    expect(readFileSync(path.join(consumer, 'node_modules/automode/LICENSE'), 'utf8')).toMatch(
      /^MIT License\n\nCopyright \(c\) automode contributors\n/,
    );
    expect(files.filter((f) => f.endsWith('.map'))).toEqual([]);
    expect(files).toContain('dist/grammars/tree-sitter-bash.wasm');
    expect(
      readFileSync(
        path.join(consumer, 'node_modules/automode/dist/grammars/tree-sitter-bash.LICENSE'),
        'utf8',
      ),
    ).toMatch(/^The MIT License \(MIT\)\n\nCopyright \(c\) 2017 Max Brunsfeld/);
    const manifest = JSON.parse(
      readFileSync(path.join(consumer, 'node_modules/automode/package.json'), 'utf8'),
    );
    expect(Object.keys(manifest.dependencies)).not.toContain('tree-sitter-bash');
    // Built already: no install script (the checkout's prepare) for npm to ask the installer to allow.
    expect(manifest.scripts).toBeUndefined();
    expect(files).not.toContain('dist/.build-stamp');
    expect(files.some((f) => f.startsWith('src/'))).toBe(false);
    const dist = path.join(consumer, 'node_modules/automode/dist');
    const js = (await readdir(dist, { recursive: true })).filter((f) => f.endsWith('.js'));
    expect(js.length).toBeGreaterThan(100);
    const mapped = js.filter((f) => readFileSync(path.join(dist, f), 'utf8').includes('sourceMappingURL'));
    expect(mapped).toEqual([]);
  });
});

/** The root's names beyond the lean entry's: the model client and its recording helpers, loaded eagerly. */
const EAGER_ONLY = [
  'createModelClient',
  'createRecorder',
  'createReplayClient',
  'loadReplayClient',
  'Recorder',
  'ReplayClient',
];

describe('declarations', () => {
  it('the root holds every name of automode/classifier, and beside them only the eager model client', () => {
    expect(CLASSIFIER_NAMES.filter((n) => !ROOT_NAMES.includes(n))).toEqual([]);
    expect(ROOT_NAMES.filter((n) => !CLASSIFIER_NAMES.includes(n))).toEqual(EAGER_ONLY.sort());
  });

  const ENTRIES = [
    ['automode', ROOT_NAMES],
    ['automode/classifier', CLASSIFIER_NAMES],
  ] as const;
  const fileOf = (entry: string) => path.join(consumer, `names-${entry.replace('/', '-')}.ts`);
  /** One program for every entry's names file: the package's declarations are read once. */
  let program: ts.Program | undefined;
  const names = (entry: string): string[] => {
    program ??= ts.createProgram({
      rootNames: ENTRIES.map(([e]) => fileOf(e)),
      options: {
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        noEmit: true,
        types: [],
      },
      host: withFiles(new Map(ENTRIES.map(([e]) => [fileOf(e), `export * as api from '${e}';\n`]))),
    });
    const checker = program.getTypeChecker();
    const source = program.getSourceFile(fileOf(entry))!;
    const decl = source.statements[0] as ts.ExportDeclaration;
    const symbol = checker.getSymbolAtLocation(decl.moduleSpecifier!)!;
    return checker.getExportsOfModule(symbol).map((s) => s.name);
  };

  it.each(ENTRIES)('%s declares exactly the listed names, types included', (entry, expected) => {
    expect(names(entry).sort()).toEqual([...expected]);
  });

  it('a TypeScript project compiles against the type names of every entry, with skipLibCheck false', () => {
    const r = spawnSync(
      process.execPath,
      [path.join(REPO, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'],
      {
        cwd: consumer,
        encoding: 'utf8',
        env: env(),
      },
    );
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  }, 240_000);
});

interface Out {
  keys: Record<string, string[]>;
  root: unknown;
  lean: unknown;
  pipeline: { tools: string[]; results: unknown[] };
  critique: { codes: string[]; review: string };
  testing: unknown;
  eval: { model: string };
}

/** A compiler host that reads the disk, plus files given in memory. */
function withFiles(files: ReadonlyMap<string, string>): ts.CompilerHost {
  const host = ts.createCompilerHost({});
  const read = host.readFile.bind(host);
  const exists = host.fileExists.bind(host);
  host.readFile = (f) => files.get(f) ?? read(f);
  host.fileExists = (f) => files.has(f) || exists(f);
  return host;
}
