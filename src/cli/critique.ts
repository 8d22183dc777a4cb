import { homedir } from 'node:os';
import { resolve } from 'node:path';
import type { CritiqueReport } from '../critique/index.js';
import {
  type CritiqueOptions,
  critique,
  everydayLine,
  type Reviewer,
  renderGithub,
  renderSarif,
  renderText,
  summaryLine,
} from '../critique/index.js';
import { EXIT, type Io, printJson } from './output.js';
import { type SettingsArgs, withSettingsOptions } from './settings-args.js';
import type { CommandModule } from './types.js';

const FORMATS = ['text', 'json', 'sarif', 'github'] as const;
type Format = (typeof FORMATS)[number];

interface CritiqueArgs extends SettingsArgs {
  files?: string[];
  format: Format;
  json: boolean;
  maxWarnings?: number;
  llm: boolean;
}

/** How the CLI gets its model review; tests replace it. */
export interface CritiqueDeps {
  env: NodeJS.ProcessEnv;
  /** The reviewer for these settings, or why there is none. */
  reviewer(env: NodeJS.ProcessEnv): Promise<{ reviewer?: Reviewer; reason?: string }>;
}

const defaultDeps: CritiqueDeps = {
  env: process.env,
  reviewer: async (env) => {
    const { modelReviewer } = await import('../critique/index.js');
    return modelReviewer(env);
  },
};

export function critiqueCommandWith(deps: CritiqueDeps): CommandModule {
  return {
    command: 'critique [files..]',
    describe: 'Check rule files: overlaps, dead and dangerous rules with witnesses, then a model review',
    builder: (y) =>
      withSettingsOptions(y)
        .positional('files', {
          type: 'string',
          array: true,
          describe:
            'Settings files and automode rule files to check (default: the effective configuration, as automode config shows it)',
        })
        .option('format', { choices: FORMATS, default: 'text' as Format, describe: 'Output format' })
        .option('json', { type: 'boolean', default: false, describe: 'Same as --format json' })
        .option('max-warnings', {
          type: 'number',
          describe: 'Exit 1 when there are more warnings than this',
        })
        .option('llm', {
          type: 'boolean',
          default: true,
          describe: 'Ask the model for a review when a key or base URL is set (--no-llm to skip)',
        })
        .example('$0 critique .claude/settings.json rules.yaml', 'Check two files')
        .example('$0 critique --no-llm --format sarif > critique.sarif', 'For GitHub code scanning')
        .example('$0 critique --format github --max-warnings 0', 'Annotations in a GitHub workflow'),
    run: (raw, io) => runCritique(raw as unknown as CritiqueArgs, io, deps),
  };
}

export const critiqueCommand: CommandModule = critiqueCommandWith(defaultDeps);

async function runCritique(args: CritiqueArgs, io: Io, deps: CritiqueDeps): Promise<number> {
  const format: Format = args.json ? 'json' : args.format;
  const maxWarnings = args.maxWarnings;
  if (maxWarnings !== undefined && (!Number.isInteger(maxWarnings) || maxWarnings < 0)) {
    io.err('automode: --max-warnings takes a whole number, 0 or more');
    return EXIT.usage;
  }
  const env = deps.env;
  const cwd = resolve(args.cwd ?? process.cwd());
  const options: CritiqueOptions = {
    cwd,
    home: env.HOME ?? homedir(),
    env,
    defaults: args.defaults !== false,
    ...(args.files?.length ? { files: args.files } : {}),
    ...(args.settings ? { settingsFiles: args.settings } : {}),
    ...(args.rules ? { ruleFiles: args.rules } : {}),
    cli: { allow: args.allow ?? [], ask: args.ask ?? [], deny: args.deny ?? [] },
  };
  if (!args.llm) options.skipReason = '--no-llm';
  else {
    const { reviewer, reason } = await deps.reviewer(env);
    if (reviewer) options.reviewer = reviewer;
    else options.skipReason = reason ?? 'no model configured';
  }
  const report = await critique(options);
  print(report, format, io, cwd);
  return exitCode(report, maxWarnings);
}

function print(report: CritiqueReport, format: Format, io: Io, cwd: string): void {
  switch (format) {
    case 'json':
      printJson(io, report);
      return;
    case 'sarif':
      printJson(io, renderSarif(report, cwd));
      return;
    case 'github': {
      const text = renderGithub(report, cwd);
      if (text) io.out(text);
      const everyday = everydayLine(report);
      if (everyday) io.err(everyday);
      io.err(summaryLine(report, io.errColors));
      return;
    }
    default:
      io.out(renderText(report, io.colors, cwd));
  }
}

export function exitCode(report: CritiqueReport, maxWarnings?: number): number {
  if (report.configErrors > 0) return EXIT.usage;
  if (report.summary.errors > 0) return EXIT.findings;
  if (maxWarnings !== undefined && report.summary.warnings > maxWarnings) return EXIT.findings;
  return EXIT.ok;
}
