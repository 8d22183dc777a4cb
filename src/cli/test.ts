import path from 'node:path';
import {
  annotation,
  type Coverage,
  findFiles,
  mergeCoverage,
  modelProvider,
  renderCoverage,
  renderGithub,
  renderJunit,
  renderText,
  runTestFile,
  type SuiteResult,
  summarize,
  TEST_FILE_GLOB,
} from '../testing/index.js';
import { type ModelArgs, modelFromArgs, withModelOptions } from './model-args.js';
import { EXIT, type Io, printJson } from './output.js';
import type { CommandModule } from './types.js';

const FORMATS = ['text', 'json', 'junit', 'github'] as const;
type Format = (typeof FORMATS)[number];

interface TestArgs extends ModelArgs {
  files?: string[];
  format: Format;
  json: boolean;
  coverage: boolean;
  minCoverage?: number;
  verbose: boolean;
  cwd?: string;
}

export const testCommand: CommandModule = {
  command: 'test [files..]',
  describe: 'Check that rules decide what their test files expect; pattern rule examples are checked too',
  builder: (y) =>
    withModelOptions(y)
      .positional('files', {
        type: 'string',
        array: true,
        describe: `Test files, folders or globs (default ${TEST_FILE_GLOB})`,
      })
      .option('format', { choices: FORMATS, default: 'text' as Format, describe: 'Output format' })
      .option('json', { type: 'boolean', default: false, describe: 'Same as --format json' })
      .option('coverage', {
        type: 'boolean',
        default: false,
        describe: 'List every rule with the cases it decided, and the rules no case reached',
      })
      .option('min-coverage', {
        type: 'number',
        describe: 'Fail when fewer than this percentage of the rules are reached (implies --coverage)',
      })
      .option('verbose', { type: 'boolean', default: false, describe: 'List passed cases too (text format)' })
      .option('cwd', {
        type: 'string',
        describe: 'Folder to search for test files (default: the current one)',
      })
      .example('$0 test', `Run every ${TEST_FILE_GLOB} below the current folder`)
      .example('$0 test --format junit > automode-junit.xml', 'JUnit XML for CI')
      .example('$0 test --coverage --min-coverage 90', 'Fail when a tenth of the rules is never reached'),
  run: async (raw, io) => {
    const args = raw as unknown as TestArgs;
    const format: Format = args.json ? 'json' : args.format;
    const min = args.minCoverage;
    if (min !== undefined && !(min >= 0 && min <= 100)) {
      io.err('automode: --min-coverage takes a percentage from 0 to 100');
      return EXIT.usage;
    }
    const cwd = path.resolve(args.cwd ?? process.cwd());
    const patterns = args.files && args.files.length > 0 ? args.files : [TEST_FILE_GLOB];
    const found = await findFiles(patterns, cwd, TEST_FILE_GLOB);
    if (found.unmatched.length > 0) {
      const error = `no test files match ${found.unmatched.join(', ')} (in ${cwd})`;
      io.err(`automode: ${error}`);
      if (format === 'json')
        printJson(io, {
          summary: { ...summarize([]), errors: 1 },
          suites: [],
          unmatched: found.unmatched,
          error,
        });
      return EXIT.usage;
    }
    let caller: Awaited<ReturnType<typeof modelFromArgs>>;
    try {
      caller = await modelFromArgs(args);
    } catch (e) {
      io.err(`automode: ${(e as Error).message}`);
      return EXIT.usage;
    }
    const model = caller ? modelProvider(caller) : undefined;
    const suites: SuiteResult[] = [];
    const examplesChecked = new Set<string>();
    for (const file of found.files) {
      suites.push(await runTestFile(file, { examplesChecked, ...(model ? { model } : {}) }));
    }
    if (caller && 'flush' in caller) {
      const flushed = await (caller as { flush(): Promise<{ ok: boolean }> }).flush();
      if (!flushed.ok) io.err('automode: the recording could not be written in full');
    }

    const wantCoverage = args.coverage || min !== undefined;
    const coverage = wantCoverage ? mergeCoverage(suites.map((s) => s.rules)) : undefined;
    const lowCoverage = coverage !== undefined && min !== undefined && coverage.percent < min;
    report(format, suites, coverage, io, cwd, args.verbose);
    if (lowCoverage) {
      const text = `coverage ${coverage.percent}% is below --min-coverage ${min}%`;
      if (format === 'github') io.out(annotation('error', {}, 'automode test: coverage', text, cwd));
      io.err(`automode: ${text}`);
    }
    const summary = summarize(suites);
    if (summary.errors > 0) return EXIT.usage;
    return summary.failed > 0 || lowCoverage ? EXIT.findings : EXIT.ok;
  },
};

function report(
  format: Format,
  suites: SuiteResult[],
  coverage: Coverage | undefined,
  io: Io,
  cwd: string,
  verbose: boolean,
): void {
  if (format === 'json') {
    printJson(io, { summary: summarize(suites), suites, ...(coverage ? { coverage } : {}) });
    return;
  }
  if (format === 'text') {
    io.out(renderText(suites, { cwd, colors: io.colors, verbose }));
    if (coverage) io.out(`\n${renderCoverage(coverage, cwd, io.colors)}`);
    return;
  }
  io.out(format === 'junit' ? renderJunit(suites, cwd) : renderGithub(suites, cwd));
  // Only the report goes to stdout, so that it can be redirected to a file as it is.
  if (coverage) io.err(renderCoverage(coverage, cwd, io.errColors));
  if (format === 'junit') {
    for (const suite of suites) {
      for (const p of suite.problems) io.err(`automode: ${p.file ?? suite.file}: ${p.message}`);
    }
  }
}
