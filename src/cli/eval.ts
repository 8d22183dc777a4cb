import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { BatchEvent, EvalCase } from '../eval/index.js';
import {
  type ConfigSpec,
  DEFAULT_TARGETS,
  type EvalReport,
  evaluate,
  formatProblem,
  loadDataset,
  progressBar,
  type ResolvedConfig,
  readVsSpec,
  renderHtml,
  renderMarkdown,
  renderText,
  reportJson,
  resolveConfig,
  SHIPPED_DATASET,
  SHIPPED_RECORDING,
  type Targets,
} from '../eval/index.js';
import { formatDiagnostic } from '../rules/index.js';
import { type Colors, MODES, type Mode } from '../shared/index.js';
import { type ModelArgs, withModelOptions } from './model-args.js';
import { EXIT, type Io, printJson } from './output.js';
import type { CommandModule } from './types.js';

const FORMATS = ['text', 'json', 'markdown', 'html'] as const;
type Format = (typeof FORMATS)[number];

interface EvalArgs extends ModelArgs {
  files?: string[];
  settings?: string[];
  rules?: string[];
  allow?: string[];
  ask?: string[];
  deny?: string[];
  defaults: boolean;
  mode?: Mode;
  name?: string;
  vs?: string;
  category?: string[];
  format: Format;
  json: boolean;
  output?: string;
  concurrency?: number;
  batch: boolean;
  pipeline: boolean;
  execute: boolean;
  sandbox: boolean;
  batchState: string;
  pollInterval: number;
  maxFalseAllow: number;
  maxFalseAllowHigh: number;
  maxFalseAsk: number;
  verbose: boolean;
}

function baseSpec(args: EvalArgs): ConfigSpec {
  const spec: ConfigSpec = { defaults: args.defaults !== false };
  const abs = (f: string) => (f.trim().startsWith('{') ? f : path.resolve(f));
  if (args.name) spec.name = args.name;
  if (args.settings?.length) spec.settings = args.settings.map(abs);
  if (args.rules?.length) spec.rules = args.rules.map(abs);
  if (args.allow?.length) spec.allow = args.allow;
  if (args.ask?.length) spec.ask = args.ask;
  if (args.deny?.length) spec.deny = args.deny;
  if (args.llm === false) spec.llm = false;
  if (args.model) spec.model = args.model;
  if (args.replay) spec.replay = args.replay === 'shipped' ? SHIPPED_RECORDING : path.resolve(args.replay);
  if (args.record) spec.record = path.resolve(args.record);
  return spec;
}

function defaultName(spec: ConfigSpec): string | undefined {
  if (spec.name) return undefined;
  const rules =
    spec.settings || spec.rules || spec.allow || spec.ask || spec.deny ? 'custom rules' : 'shipped defaults';
  if (spec.defaults === false && rules === 'shipped defaults') return 'no rules';
  return rules;
}

function formatFor(file: string): Format {
  if (/\.html?$/i.test(file)) return 'html';
  if (/\.(md|markdown)$/i.test(file)) return 'markdown';
  if (/\.json$/i.test(file)) return 'json';
  return 'text';
}

function render(report: EvalReport, format: Format, colors: Colors, verbose: boolean): string {
  switch (format) {
    case 'json':
      return JSON.stringify(reportJson(report), null, 2);
    case 'markdown':
      return renderMarkdown(report);
    case 'html':
      return renderHtml(report, { generatedAt: new Date() });
    default:
      return renderText(report, { colors, verbose });
  }
}

function filterCases<T extends EvalCase>(cases: T[], categories: string[] | undefined): T[] {
  if (!categories?.length) return cases;
  return cases.filter((c) => categories.some((p) => c.category === p || c.category.startsWith(p)));
}

function rate(name: string, value: number): number {
  if (!(value >= 0 && value <= 1)) throw new Error(`--${name} takes a fraction from 0 to 1 (0.02 is 2%)`);
  return value;
}

async function configsFrom(args: EvalArgs, io: Io): Promise<ResolvedConfig[] | undefined> {
  const base = baseSpec(args);
  const specs: ConfigSpec[] = [base];
  if (args.vs) specs.push(await readVsSpec(args.vs, base));
  const configs: ResolvedConfig[] = [];
  for (const spec of specs) {
    const name = defaultName(spec);
    const config = await resolveConfig(spec, { batch: args.batch, ...(name ? { fallbackName: name } : {}) });
    let failed = false;
    for (const d of config.settings.diagnostics) {
      const text = formatDiagnostic(d);
      io.err(d.severity === 'error' ? io.errColors.red(text) : io.errColors.yellow(text));
      if (d.severity === 'error') failed = true;
    }
    if (failed || config.settings.failed.length > 0) return undefined;
    configs.push(config);
  }
  if (configs.length === 2 && configs[0]!.name === configs[1]!.name)
    configs[1]!.name = `${configs[1]!.name} (vs)`;
  return configs;
}

export const evalCommand: CommandModule = {
  command: 'eval [files..]',
  describe: 'Measure the classifier on labelled tool calls: false allows, false asks, latency, cost',
  builder: (y) =>
    withModelOptions(y)
      .option('replay', {
        type: 'string',
        describe:
          'Answer model calls from a recording; "shipped": the synthetic oracle recording of the shipped dataset',
      })
      .option('mode', {
        choices: MODES,
        describe: 'Permission mode of the cases that name none (default: auto)',
      })
      .positional('files', {
        type: 'string',
        array: true,
        describe: 'Labelled cases (JSONL, JSON or YAML); default: the shipped dataset',
      })
      .option('settings', {
        type: 'string',
        array: true,
        nargs: 1,
        describe: 'Settings file (or inline JSON) under test; repeatable',
      })
      .option('rules', { type: 'string', array: true, nargs: 1, describe: 'Pattern rule file; repeatable' })
      .option('allow', { type: 'string', array: true, nargs: 1, describe: 'Allow rule; repeatable' })
      .option('ask', { type: 'string', array: true, nargs: 1, describe: 'Ask rule; repeatable' })
      .option('deny', { type: 'string', array: true, nargs: 1, describe: 'Deny rule; repeatable' })
      .option('defaults', {
        type: 'boolean',
        default: true,
        describe: 'Include the shipped rules (--no-defaults to leave them out)',
      })
      .group(['settings', 'rules', 'allow', 'ask', 'deny', 'defaults', 'mode'], 'Configuration under test:')
      .option('name', { type: 'string', describe: 'Name of the configuration in reports' })
      .option('vs', {
        type: 'string',
        describe:
          'Compare with another configuration: a JSON/YAML file or inline JSON with settings, rules, allow, ask, deny, defaults, mode, model, replay, record, llm, name; unset fields come from this one',
      })
      .option('category', {
        type: 'string',
        array: true,
        nargs: 1,
        describe: 'Only cases of this category (or category prefix, e.g. bypass-); repeatable',
      })
      .option('format', { choices: FORMATS, default: 'text' as Format, describe: 'Report format on stdout' })
      .option('json', { type: 'boolean', default: false, describe: 'Same as --format json' })
      .option('output', {
        alias: 'o',
        type: 'string',
        describe:
          'Also write the report to this file, in the format its extension names (.html, .md, .json, .txt)',
      })
      .option('verbose', {
        type: 'boolean',
        default: false,
        describe: 'List every false ask in text reports',
      })
      .option('concurrency', {
        type: 'number',
        describe: 'Cases decided at once (default 1; 8 with a live model)',
      })
      .option('pipeline', {
        type: 'boolean',
        default: true,
        describe:
          'Decide through the permission stage of the tool pipeline, hooks included (--no-pipeline: the classifier alone)',
      })
      .option('execute', {
        type: 'boolean',
        default: false,
        describe:
          'Also run every allowed call for real, in a temporary workspace (use --sandbox, or a container)',
      })
      .option('sandbox', {
        type: 'boolean',
        default: false,
        describe:
          "With --execute: run Bash in Claude Code's sandbox (bubblewrap on Linux, Seatbelt on macOS) even " +
          'where the settings do not set sandbox.enabled; writes stay in the workspace and the temp folder, the ' +
          'network is closed but to allowed hosts. Where it cannot start, calls are not run unsandboxed',
      })
      .option('batch', {
        type: 'boolean',
        default: false,
        describe:
          'Send model calls through the Message Batches API (half price, no rate limiting); resumable',
      })
      .option('batch-state', {
        type: 'string',
        default: '.automode-eval-batch.json',
        describe: 'Where --batch keeps submitted batches and answers; run again with it to resume',
      })
      .option('poll-interval', {
        type: 'number',
        default: 30,
        describe: 'Seconds between batch status checks',
      })
      .option('max-false-allow', {
        type: 'number',
        default: DEFAULT_TARGETS.falseAllow,
        describe: 'Target: highest falseAllowRate on dangerous cases (fraction)',
      })
      .option('max-false-allow-high', {
        type: 'number',
        default: DEFAULT_TARGETS.falseAllowHigh,
        describe: 'Target: highest falseAllowRate on high-severity cases (fraction)',
      })
      .option('max-false-ask', {
        type: 'number',
        default: DEFAULT_TARGETS.falseAsk,
        describe: 'Target: highest falseAskRate on harmless cases (fraction)',
      })
      .group(['max-false-allow', 'max-false-allow-high', 'max-false-ask'], 'Targets (exit 1 when missed):')
      .group(
        ['pipeline', 'execute', 'sandbox', 'batch', 'batch-state', 'poll-interval', 'concurrency'],
        'Running:',
      )
      .example(
        '$0 eval --replay shipped',
        'The shipped dataset offline, model answers from the shipped oracle recording',
      )
      .example('$0 eval --no-llm', 'What the deterministic rules alone decide')
      .example(
        '$0 eval --settings .claude/settings.json --record run.jsonl',
        'Your rules with a real model, recorded',
      )
      .example(
        '$0 eval --replay run.jsonl --vs \'{"model":"claude-opus-5-5","replay":"opus.jsonl"}\'',
        'Two models side by side',
      )
      .example('$0 eval --batch -o report.html', 'Through the Message Batches API, with an HTML report'),
  run: async (raw, io) => {
    const args = raw as unknown as EvalArgs;
    let targets: Targets;
    try {
      targets = {
        falseAllow: rate('max-false-allow', args.maxFalseAllow),
        falseAllowHigh: rate('max-false-allow-high', args.maxFalseAllowHigh),
        falseAsk: rate('max-false-ask', args.maxFalseAsk),
      };
      if (args.concurrency !== undefined && !(Number.isInteger(args.concurrency) && args.concurrency > 0))
        throw new Error('--concurrency takes a positive whole number');
      if (!(args.pollInterval > 0)) throw new Error('--poll-interval takes a positive number of seconds');
      if (args.batch && args.replay)
        throw new Error('--batch sends requests to the API; it cannot be used with --replay');
      if (args.execute && !args.pipeline)
        throw new Error('--execute runs calls through the pipeline; drop --no-pipeline');
      if (args.sandbox && !args.execute)
        throw new Error('--sandbox runs executed calls in a sandbox; add --execute');
    } catch (e) {
      io.err(`automode: ${(e as Error).message}`);
      return EXIT.usage;
    }
    const files = (args.files?.length ? args.files : [SHIPPED_DATASET]).map((f) => path.resolve(f));
    const dataset = await loadDataset(files);
    if (!dataset.ok) {
      for (const p of dataset.problems) io.err(`automode: ${formatProblem(p)}`);
      return EXIT.usage;
    }
    const cases = filterCases(dataset.cases, args.category);
    if (cases.length === 0) {
      io.err(`automode: no case has a category starting with ${args.category!.join(', ')}`);
      return EXIT.usage;
    }
    let configs: ResolvedConfig[] | undefined;
    try {
      configs = await configsFrom(args, io);
    } catch (e) {
      io.err(`automode: ${(e as Error).message}`);
      return EXIT.usage;
    }
    if (!configs) return EXIT.usage;
    for (const c of configs) if (c.model.kind === 'none') io.err(`automode: ${c.name}: model ${c.modelLine}`);

    const controller = new AbortController();
    const onSignal = () => controller.abort();
    process.once('SIGINT', onSignal);
    let report: EvalReport;
    try {
      report = await evaluate(files, cases, configs, {
        ...(args.mode ? { mode: args.mode } : {}),
        ...(args.concurrency ? { concurrency: args.concurrency } : {}),
        targets,
        decider: args.pipeline ? 'pipeline' : 'classifier',
        execute: args.execute,
        ...(args.sandbox ? { sandbox: true } : {}),
        progress: await progressBar(),
        signal: controller.signal,
        ...(args.batch
          ? {
              batch: {
                statePath: path.resolve(args.batchState),
                pollIntervalMs: args.pollInterval * 1000,
                onEvent: (e) => io.err(`automode: batch ${batchLine(e)}`),
              },
            }
          : {}),
      });
    } catch (e) {
      const message = (e as Error).message;
      if (controller.signal.aborted && args.batch) {
        io.err(`automode: interrupted; run the same command again to resume (state in ${args.batchState})`);
      } else io.err(`automode: ${message}`);
      return EXIT.findings;
    } finally {
      process.removeListener('SIGINT', onSignal);
    }
    if (controller.signal.aborted) {
      io.err('automode: interrupted');
      return EXIT.findings;
    }
    for (const c of configs) {
      if (c.model.kind === 'live' && c.model.recorder) {
        const flushed = await c.model.recorder.flush();
        if (!flushed.ok) io.err(`automode: ${flushed.message}`);
      }
    }
    const format: Format = args.json ? 'json' : args.format;
    if (format === 'json') printJson(io, reportJson(report));
    else io.out(render(report, format, io.colors, args.verbose));
    if (args.output) {
      const out = path.resolve(args.output);
      const plain = (await import('picocolors')).createColors(false);
      try {
        await writeFile(out, `${render(report, formatFor(out), plain, true).trimEnd()}\n`);
      } catch (e) {
        io.err(`automode: cannot write ${out}: ${(e as Error).message}`);
        return EXIT.usage;
      }
      io.err(`automode: report written to ${out}`);
    }
    const errors = report.runs.some((r) => r.metrics.errors > 0);
    return report.runs.every((r) => r.targetsMet) && !errors ? EXIT.ok : EXIT.findings;
  },
};

function batchLine(e: BatchEvent): string {
  switch (e.type) {
    case 'round':
      return `round ${e.round}: deciding ${e.cases} cases`;
    case 'submitted':
      return `${e.id} submitted (${e.requests} requests)`;
    case 'resumed':
      return `${e.id} resumed (${e.requests} requests)`;
    case 'polled':
      return `${e.id} ${e.status} ${Object.entries(e.counts)
        .filter(([, n]) => n > 0)
        .map(([k, n]) => `${k} ${n}`)
        .join(', ')}`;
    case 'collected':
      return `${e.id} collected: ${e.answered} answers${e.retried ? `, ${e.retried} to send again` : ''}`;
  }
}
