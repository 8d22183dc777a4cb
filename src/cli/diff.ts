import path from 'node:path';
import type { LoadedSettings } from '../rules/index.js';
import { formatDiagnostic } from '../rules/index.js';
import type { Mode } from '../shared/index.js';
import {
  type CorpusEntry,
  type DiffReport,
  diffDecisions,
  displayLocation,
  filesRead,
  findFiles,
  loadConfiguration,
  readCorpus,
  renderDiffMarkdown,
  renderDiffText,
  resolveSides,
  SHIPPED_CORPUS,
  type Side,
  TEST_FILE_GLOB,
  uniqueCalls,
} from '../testing/index.js';
import { EXIT, type Io, printJson } from './output.js';
import { modeOption } from './settings-args.js';
import type { CommandModule } from './types.js';

const FORMATS = ['text', 'json', 'markdown'] as const;
type Format = (typeof FORMATS)[number];

interface DiffArgs {
  base: string;
  head: string;
  corpus?: string[];
  format: Format;
  json: boolean;
  allowWidening: boolean;
  mode?: Mode;
  defaults: boolean;
  cwd?: string;
}

export const diffCommand: CommandModule = {
  command: 'diff',
  describe: 'Show which calls two configurations decide differently, the more permissive changes first',
  builder: (y) =>
    modeOption(y)
      .option('base', {
        type: 'string',
        demandOption: true,
        describe:
          'The old configuration: a settings file, a rule file, a rule repository folder or a git revision',
      })
      .option('head', {
        type: 'string',
        default: '.',
        describe: 'The new configuration (default: the current folder)',
      })
      .option('corpus', {
        type: 'string',
        array: true,
        nargs: 1,
        describe: `Calls to classify (JSON lines, a test file, or one command a line); repeatable. Default: the shipped corpus plus every ${TEST_FILE_GLOB}`,
      })
      .option('format', { choices: FORMATS, default: 'text' as Format, describe: 'Output format' })
      .option('json', { type: 'boolean', default: false, describe: 'Same as --format json' })
      .option('allow-widening', {
        type: 'boolean',
        default: false,
        describe: 'Exit 0 even when calls become more permissive',
      })
      .option('defaults', {
        type: 'boolean',
        default: true,
        describe: 'Use the shipped rules (--no-defaults to leave them out)',
      })
      .option('cwd', {
        type: 'string',
        describe: 'The folder paths and revisions are read from (default: the current one)',
      })
      .example(
        '$0 diff --base origin/main',
        'What this branch changes, against the rule repository in the current folder',
      )
      .example(
        '$0 diff --base old.json --head new.json --format markdown',
        'A table for a pull request comment',
      ),
  run: async (raw, io) => {
    const args = raw as unknown as DiffArgs;
    const format: Format = args.json ? 'json' : args.format;
    const cwd = path.resolve(args.cwd ?? process.cwd());
    const sides = await resolveSides(args.base, args.head, cwd);
    if ('error' in sides) {
      io.err(`automode: ${sides.error}`);
      return EXIT.usage;
    }
    try {
      return await run(args, format, cwd, sides.base, sides.head, io);
    } finally {
      await Promise.all([sides.base.dispose(), sides.head.dispose()]);
    }
  },
};

async function run(
  args: DiffArgs,
  format: Format,
  cwd: string,
  base: Side,
  head: Side,
  io: Io,
): Promise<number> {
  const [before, after] = await Promise.all([
    loadConfiguration(base.config, args.defaults),
    loadConfiguration(head.config, args.defaults),
  ]);
  report('base', before, io);
  if (report('head', after, io)) return EXIT.usage;
  if (before.failed.length > 0)
    io.err('automode: the base could not be read in full, so it asks for every call');
  for (const file of base.missing) io.err(`automode: ${file} is not at ${base.spec}`);

  const corpus = await corpusOf(args.corpus, cwd);
  if ('problems' in corpus) {
    for (const p of corpus.problems) io.err(`automode: ${displayLocation(p, cwd) || 'corpus'}: ${p.message}`);
    return EXIT.usage;
  }
  const { changes, summary } = await diffDecisions(
    corpus.entries,
    { settings: before, project: base.config.project },
    { settings: after, project: head.config.project },
    args.mode ? { mode: args.mode } : {},
  );
  for (const c of changes) {
    if (c.base.rule?.file) c.base.rule.file = base.name(c.base.rule.file);
    if (c.head.rule?.file) c.head.rule.file = head.name(c.head.rule.file);
  }
  const label = (s: Side) => (s.kind === 'git' ? `${s.spec} (git)` : s.spec);
  const result: DiffReport = { base: label(base), head: label(head), changes, summary };
  if (format === 'json') {
    const sideJson = (s: Side, settings: LoadedSettings) => ({
      spec: s.spec,
      kind: s.kind,
      project: s.name(s.config.project),
      files: filesRead(settings).map(s.name),
      ...(s.missing.length > 0 ? { missing: s.missing } : {}),
    });
    printJson(io, { base: sideJson(base, before), head: sideJson(head, after), summary, changes });
  } else if (format === 'markdown') {
    io.out(renderDiffMarkdown(result, cwd));
  } else {
    io.out(renderDiffText(result, cwd, io.colors));
  }
  return summary.widened > 0 && !args.allowWidening ? EXIT.findings : EXIT.ok;
}

/** Writes a side's diagnostics to stderr; true when it could not be read in full. */
function report(name: string, settings: LoadedSettings, io: Io): boolean {
  for (const d of settings.diagnostics) {
    const text = `${name}: ${formatDiagnostic(d)}`;
    io.err(d.severity === 'error' ? io.errColors.red(text) : io.errColors.yellow(text));
  }
  return settings.failed.length > 0;
}

async function corpusOf(
  named: string[] | undefined,
  cwd: string,
): Promise<{ entries: CorpusEntry[] } | { problems: { file?: string; line?: number; message: string }[] }> {
  let files: string[];
  if (named && named.length > 0) {
    files = named.map((f) => path.resolve(cwd, f));
  } else {
    files = [SHIPPED_CORPUS, ...(await findFiles([TEST_FILE_GLOB], cwd, TEST_FILE_GLOB)).files];
  }
  const entries: CorpusEntry[] = [];
  const problems: { file?: string; line?: number; message: string }[] = [];
  for (const file of files) {
    const read = await readCorpus(file);
    entries.push(...read.entries);
    problems.push(...read.problems);
  }
  return problems.length > 0 ? { problems } : { entries: uniqueCalls(entries) };
}
