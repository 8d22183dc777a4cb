import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  editRuleText,
  type LoadedSettings,
  type RuleScope,
  readForEdit,
  type ScopeFile,
  scopeFile,
  writeAtomically,
} from '../rules/index.js';
import type { Colors } from '../shared/index.js';
import { makeDirectories } from '../shared/index.js';
import {
  type CorpusEntry,
  dangerousCommands,
  diffDecisions,
  type LearnReport,
  learnRules,
  type PromptFigures,
  projectTranscriptFolder,
  readCorpus,
  readSessions,
  renderDiffText,
  type SessionRead,
  SHIPPED_CORPUS,
  uniqueCalls,
} from '../testing/index.js';
import { EXIT, type Io, printJson } from './output.js';
import { reportDiagnostics } from './settings-args.js';

export interface LearnArgs {
  paths: string[];
  scope: RuleScope;
  json: boolean;
  apply: boolean;
  minDistinct: number;
  approvedOnly: boolean;
  saveTests?: string;
}

/** How many rules, calls and changes the text report lists in full. */
const SHOWN = 3;

/**
 * `automode rules learn`: the allow rules that would have spared the prompts of the sessions read, checked with
 * the classifier; written to the scope's settings file only with `--apply`.
 */
export async function learn(
  args: LearnArgs,
  settings: LoadedSettings,
  io: Io,
  env: { cwd: string; home: string },
): Promise<number> {
  if (reportDiagnostics(settings, io)) return EXIT.usage;
  if (!Number.isInteger(args.minDistinct) || args.minDistinct < 2)
    return usage(io, '--min-distinct must be a whole number of at least 2');
  const file = scopeFile(args.scope, { cwd: settings.cwd, home: env.home });
  const paths = args.paths.length > 0 ? args.paths.map((p) => path.resolve(p)) : [defaultFolder(env)];
  if (args.paths.length === 0 && !existsSync(paths[0]!))
    return usage(
      io,
      `no sessions of this project at ${paths[0]}: name transcript files or folders to learn from`,
    );
  const read = await readSessions(paths);
  for (const e of read.errors) io.err(io.errColors.red(`automode: ${e.file}: ${e.message}`));
  if (read.errors.length > 0) return EXIT.usage;
  for (const p of read.problems)
    io.err(
      io.errColors.yellow(`automode: ${p.file}:${p.line ?? 1}:${p.column ?? 1}: ${p.message} (line skipped)`),
    );
  const corpus: CorpusEntry[] = uniqueCalls((await readCorpus(SHIPPED_CORPUS)).entries);
  const report = await learnRules(read.calls, {
    settings,
    file,
    corpus,
    dangerous: await dangerousCommands(),
    minDistinct: args.minDistinct,
    approvedOnly: args.approvedOnly,
  });
  if (args.saveTests) {
    const saved = await saveTests(path.resolve(args.saveTests), report, file, settings.cwd);
    if (saved) return usage(io, saved);
  }
  let applied: Awaited<ReturnType<typeof apply>> | undefined;
  if (args.apply && report.rules.length > 0) {
    applied = await apply(report, file, settings, corpus, io.colors);
    if ('error' in applied) {
      io.err(io.errColors.red(`automode: ${applied.error}`));
      return EXIT.usage;
    }
  }
  const written = applied && !('error' in applied) ? applied : undefined;
  if (args.json) {
    const { after: _after, ...rest } = report;
    printJson(io, {
      file: file.path,
      scope: file.scope,
      read: { files: read.files, calls: read.calls.length, unknown: read.unknown, problems: read.problems },
      ...rest,
      written: written !== undefined,
      ...(written ? { effect: { summary: written.summary, changes: written.changes } } : {}),
    });
    return EXIT.ok;
  }
  io.out(renderLearn(report, read, file, io.colors));
  if (written) {
    io.out('');
    io.out(`wrote ${report.rules.length} rule(s) to permissions.allow of ${file.path}`);
    io.out(written.text);
  } else if (report.rules.length > 0) {
    io.out('');
    io.out(io.colors.dim(`nothing written: add --apply to write these rules to ${file.path}`));
  }
  return EXIT.ok;
}

function usage(io: Io, message: string): number {
  io.err(`automode: ${message}`);
  return EXIT.usage;
}

/** Claude Code's transcripts of the current project. */
function defaultFolder(env: { cwd: string; home: string }): string {
  const claude = process.env.CLAUDE_CONFIG_DIR ?? path.join(env.home, '.claude');
  return projectTranscriptFolder(claude, env.cwd);
}

/** Writes every rule with the settings editor (comments and formatting kept), then the behaviour diff. */
async function apply(
  report: LearnReport,
  file: ScopeFile,
  before: LoadedSettings,
  corpus: readonly CorpusEntry[],
  colors: Colors,
): Promise<
  | { error: string }
  | { text: string; summary: Awaited<ReturnType<typeof diffDecisions>>['summary']; changes: unknown[] }
> {
  const read = await readForEdit(file.path);
  if ('error' in read) return { error: read.error };
  let text = read.text;
  for (const r of report.rules) {
    const outcome = editRuleText(text, { op: 'add', behavior: 'allow', rule: r.rule });
    if (outcome.status === 'invalid')
      return { error: `${file.path}:${outcome.line}:${outcome.column}: ${outcome.message}` };
    if (outcome.status === 'changed') text = outcome.text;
  }
  makeDirectories(path.dirname(file.path));
  await writeAtomically(file.path, text, read.mode);
  const sessionCalls: CorpusEntry[] = report.cases.map((c, i) => ({
    id: c.name,
    file: 'sessions',
    line: i + 1,
    call: {
      tool: c.tool,
      ...(c.command !== undefined ? { command: c.command } : { input: c.input ?? {} }),
      ...(c.cwd ? { cwd: c.cwd } : {}),
      ...(c.mode ? { mode: c.mode } : {}),
    },
  }));
  const effect = await diffDecisions(
    [...sessionCalls, ...corpus],
    { settings: before, project: before.cwd },
    { settings: report.after, project: before.cwd },
  );
  const rendered = renderDiffText(
    { base: 'the settings before', head: `with the learned rules`, ...effect },
    before.cwd,
    colors,
  );
  return {
    text: rendered,
    summary: effect.summary,
    changes: effect.changes.map((c) => ({
      id: c.id,
      from: c.base.decision,
      to: c.head.decision,
      kind: c.kind,
    })),
  };
}

/** Writes an automode test file: the prompts the rules spare (allow), and the calls the person rejected. */
async function saveTests(
  target: string,
  report: LearnReport,
  file: ScopeFile,
  project: string,
): Promise<string | undefined> {
  if (!/\.automode-test\.json$/.test(target))
    return '--save-tests needs a file name ending in .automode-test.json';
  const folder = path.dirname(target);
  const suite = {
    name: 'learned from sessions',
    settings: path.relative(folder, file.path) || file.path,
    cwd: path.relative(folder, project) || '.',
    cases: report.cases,
  };
  makeDirectories(folder);
  await writeFile(target, `${JSON.stringify(suite, null, 2)}\n`);
  return undefined;
}

function percent(part: number, whole: number): string {
  return whole === 0 ? '-' : `${Math.round((100 * part) / whole)}%`;
}

export function renderLearn(report: LearnReport, read: SessionRead, file: ScopeFile, c: Colors): string {
  const lines: string[] = [];
  const modes = Object.entries(report.modes)
    .map(([m, n]) => `${m} ${n}`)
    .join(', ');
  const unknown = Object.entries(read.unknown);
  lines.push(
    `read ${read.files} file(s): ${read.calls.length} calls, ${report.total.ran} ran${modes ? ` (${modes})` : ''}` +
      (unknown.length > 0
        ? `; ${unknown.reduce((n, [, k]) => n + k, 0)} line(s) of a type not read (${unknown.map(([t, n]) => `${t} ${n}`).join(', ')})`
        : ''),
  );
  lines.push(
    `${report.total.prompts} of them would be asked under the settings in force; ${report.total.repeated} are prompts asked two or more times`,
  );
  lines.push('');
  if (report.rules.length === 0) lines.push('no rule to propose');
  else lines.push(c.bold(`proposed allow rules (${report.rules.length}), for ${file.path}:`));
  for (const r of report.rules) {
    const evidence = Object.entries(r.evidence)
      .map(([how, n]) => `${how} ${n}`)
      .join(', ');
    lines.push(
      `  ${c.bold(r.rule)}  ${c.dim(`${r.prompts} prompt(s) spared, ${r.distinct} distinct, ${r.kind}; ${evidence}`)}`,
    );
    for (const e of r.examples.slice(0, SHOWN))
      lines.push(`      ${e.call}  ${c.dim(`${path.basename(e.file)}:${e.line}`)}`);
    if (r.wider)
      lines.push(c.dim(`      not ${r.wider.rule} (${r.wider.prompts} prompt(s)): ${r.wider.why}`));
    if (r.admitted === 0) lines.push(c.dim('      changes no decision of the shipped corpus'));
    else {
      lines.push(c.dim(`      also changes ${r.admitted} call(s) of the shipped corpus, e.g.:`));
      for (const a of r.admits.slice(0, SHOWN))
        lines.push(c.dim(`        ${`${a.from} → ${a.to}`.padEnd(14)} ${a.call}`));
    }
  }
  if (report.refused.length > 0) {
    lines.push('', c.bold(`left out (${report.refused.length}):`));
    for (const r of report.refused)
      lines.push(`  ${c.yellow(r.rule)}: ${r.why}${r.witness ? c.dim(` (${r.witness})`) : ''}`);
  }
  if (report.unlearned.length > 0) {
    lines.push('', c.bold('prompts no rule is proposed for:'));
    for (const u of report.unlearned)
      lines.push(`  ${String(u.calls).padStart(3)}  ${u.why}${c.dim(`  e.g. ${u.examples[0]?.call ?? ''}`)}`);
  }
  lines.push('', c.bold('prompts spared, per project:'), figuresTable([...report.projects, report.total]));
  return lines.join('\n');
}

function figuresTable(rows: readonly PromptFigures[]): string {
  const head = ['project', 'calls', 'prompts', 'spared', 'repeated', 'spared', '%'];
  const body = rows.map((f) => [
    f.project,
    String(f.calls),
    String(f.prompts),
    String(f.spared),
    String(f.repeated),
    String(f.sparedRepeated),
    percent(f.sparedRepeated, f.repeated),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    `  ${cells.map((x, i) => (i === 0 ? x.padEnd(widths[i]!) : x.padStart(widths[i]!))).join('  ')}`;
  return [line(head), ...body.map(line)].join('\n');
}
