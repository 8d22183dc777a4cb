import { readdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { provenanceKey, shadowedRules } from '../critique/index.js';
import { shippedOverrides } from '../policy/index.js';
import {
  type Behavior,
  checkRuleText,
  editReadServicesText,
  editRuleText,
  type LoadedSettings,
  type Provenance,
  RULE_SCOPES,
  type Rule,
  type RuleEdit,
  type RuleScope,
  readForEdit,
  scopeFile,
  withRuleEdit,
  writeAtomically,
} from '../rules/index.js';
import type { Colors } from '../shared/index.js';
import {
  type CorpusEntry,
  describeCall,
  diffDecisions,
  readCorpus,
  SHIPPED_CORPUS,
  suggestRules,
  uniqueCalls,
} from '../testing/index.js';
import { learn } from './learn.js';
import { SETTINGS_OPTIONS } from './option-specs.js';
import { EXIT, type Io, printJson } from './output.js';
import { loadFromArgs, reportDiagnostics, withOptions } from './settings-args.js';
import type { CommandModule } from './types.js';

const ACTIONS = ['list', 'add', 'remove', 'suggest', 'learn'] as const;
type Action = (typeof ACTIONS)[number];
const BEHAVIOR_CHOICES = ['allow', 'ask', 'deny'] as const;

interface RulesArgs {
  action: Action;
  rule?: string;
  more?: string[];
  apply: boolean;
  minDistinct: number;
  approvedOnly: boolean;
  saveTests?: string;
  allow: boolean;
  ask: boolean;
  deny: boolean;
  behavior?: Behavior;
  scope: RuleScope;
  dryRun: boolean;
  json: boolean;
  profile?: string;
  settings?: string[];
  rules?: string[];
  cwd?: string;
  defaults: boolean;
}

/** How many changed decisions the text output lists. */
const SHOWN = 20;

const { allow: _a, ask: _s, deny: _d, ...SETTINGS_FILES } = SETTINGS_OPTIONS;

export const rulesCommand: CommandModule = {
  command: 'rules <action> [rule] [more..]',
  describe:
    'Manage permission rules as /permissions does: list them, add or remove one in a settings file, suggest one for a command, learn them from sessions',
  builder: (y) =>
    withOptions(y, SETTINGS_FILES, 'Settings:')
      .positional('action', { choices: ACTIONS, describe: 'list, add, remove or suggest' })
      .positional('rule', {
        type: 'string',
        describe: 'The rule (add, remove), the command (suggest), or a transcript file or folder (learn)',
      })
      .positional('more', {
        type: 'string',
        array: true,
        describe: 'learn: more transcript files or folders',
      })
      .option('allow', { type: 'boolean', default: false, describe: 'An allow rule (add, remove, suggest)' })
      .option('ask', { type: 'boolean', default: false, describe: 'An ask rule (add, remove, suggest)' })
      .option('deny', { type: 'boolean', default: false, describe: 'A deny rule (add, remove, suggest)' })
      .option('behavior', { choices: BEHAVIOR_CHOICES, describe: 'list: only the rules of this behaviour' })
      .option('scope', {
        choices: RULE_SCOPES,
        default: 'local' as RuleScope,
        describe:
          'The file to edit: local (.claude/settings.local.json), project (.claude/settings.json), user (~/.claude/settings.json)',
      })
      .option('dry-run', {
        type: 'boolean',
        default: false,
        describe: 'Show the edit and its effect, write nothing',
      })
      .option('json', { type: 'boolean', default: false, describe: 'Print as JSON' })
      .option('profile', {
        type: 'string',
        describe: `add, remove: every rule of a shipped profile (${profileNames().join(', ')})`,
      })
      .option('apply', {
        type: 'boolean',
        default: false,
        describe: 'learn: write the proposed rules to the scope file and show the behaviour diff',
      })
      .option('min-distinct', {
        type: 'number',
        default: 3,
        describe: 'learn: distinct commands (or files) a wildcard needs as evidence',
      })
      .option('approved-only', {
        type: 'boolean',
        default: false,
        describe:
          'learn: leave out calls that ran in a mode that shows no prompt (bypassPermissions, dontAsk, auto)',
      })
      .option('save-tests', {
        type: 'string',
        describe: 'learn: write what the rules change as an automode test file (*.automode-test.json)',
      })
      .example('$0 rules list --behavior deny', 'Every deny rule in force, with its file and line')
      .example('$0 rules add "Bash(git commit *)" --allow', 'Allow commits, in .claude/settings.local.json')
      .example(
        '$0 rules remove "Bash(rm *)" --deny --scope project --dry-run',
        'What removing a deny lets through',
      )
      .example('$0 rules suggest "git commit -m wip"', 'The narrowest rule that allows a command')
      .example(
        '$0 rules add --profile read-services --scope project',
        'Let the team read its own services (gh, aws, az, gcloud, kubectl, helm, terraform)',
      )
      .example(
        '$0 rules learn',
        "The rules that would have spared this project's prompts, from its Claude Code sessions",
      )
      .example(
        '$0 rules learn ~/.claude/projects --scope user --apply',
        'Learn from every project, and write',
      ),
  run: async (raw, io) => {
    const args = raw as unknown as RulesArgs;
    const chosen = BEHAVIOR_CHOICES.filter((b) => args[b]);
    if (chosen.length > 1) return usage(io, 'give one of --allow, --ask and --deny');
    if (args.action === 'list') return list(args, io);
    if (args.action === 'learn') {
      const paths = [args.rule, ...(args.more ?? [])].filter((p): p is string => p !== undefined);
      return learn({ ...args, paths }, await load(args), io, { cwd: cwdOf(args), home: homeOf() });
    }
    if (args.profile !== undefined) {
      if (args.action === 'suggest') return usage(io, 'rules suggest takes no --profile');
      if (args.rule !== undefined || chosen.length > 0)
        return usage(
          io,
          '--profile adds or removes the profile’s own rules: give no rule and no --allow, --ask or --deny',
        );
      return editProfile(args, args.action, args.profile, io);
    }
    if (args.more && args.more.length > 0)
      return usage(
        io,
        `rules ${args.action} takes one ${args.action === 'suggest' ? 'command' : 'rule'}: quote it`,
      );
    if (args.rule === undefined || args.rule.trim() === '')
      return usage(io, `rules ${args.action} needs ${args.action === 'suggest' ? 'a command' : 'a rule'}`);
    if (args.action === 'suggest') return suggest(args, args.rule, chosen[0] ?? 'allow', io);
    if (!chosen[0]) return usage(io, `rules ${args.action} needs --allow, --ask or --deny`);
    return edit(args, { op: args.action, behavior: chosen[0], rule: args.rule.trim() }, io);
  },
};

// --- profiles ---

const PROFILES = fileURLToPath(new URL('../../defaults/profiles/', import.meta.url));

/** The shipped profiles: settings files of rules a team may turn on together (`defaults/profiles/NAME.json`). */
function profileNames(): string[] {
  try {
    return readdirSync(PROFILES)
      .filter((name) => name.endsWith('.json'))
      .map((name) => name.slice(0, -'.json'.length))
      .sort();
  } catch {
    return [];
  }
}

/** A profile's rules and the programs its `automode.readServices` names. */
interface Profile {
  rules: RuleEdit[];
  readServices: string[];
}

function profileOf(name: string): Profile | string {
  if (!profileNames().includes(name)) {
    return `no profile ${JSON.stringify(name)}; the shipped profiles are ${profileNames().join(', ') || 'none'}`;
  }
  const data = JSON.parse(readFileSync(path.join(PROFILES, `${name}.json`), 'utf8')) as {
    permissions?: Partial<Record<Behavior, string[]>>;
    automode?: { readServices?: string[] };
  };
  return {
    rules: BEHAVIOR_CHOICES.flatMap((behavior) =>
      (data.permissions?.[behavior] ?? []).map((rule) => ({ op: 'add' as const, behavior, rule })),
    ),
    readServices: data.automode?.readServices ?? [],
  };
}

/**
 * Adds (or removes) every rule of a profile, and every program its `automode.readServices` names, in one write:
 * entries already there are left as they are, so adding a profile twice changes nothing.
 */
async function editProfile(args: RulesArgs, op: 'add' | 'remove', name: string, io: Io): Promise<number> {
  const profile = profileOf(name);
  if (typeof profile === 'string') return usage(io, profile);
  const { rules } = profile;
  const file = scopeFile(args.scope, { cwd: cwdOf(args), home: homeOf() });
  const read = await readForEdit(file.path);
  if ('error' in read) return usage(io, read.error);
  let text = read.text;
  const done: { rule: string; behavior: Behavior; status: string }[] = [];
  for (const rule of rules) {
    const outcome = editRuleText(text, { ...rule, op });
    if (outcome.status === 'invalid') {
      io.err(io.errColors.red(`${file.path}:${outcome.line}:${outcome.column}: ${outcome.message}`));
      return EXIT.usage;
    }
    if (outcome.status === 'changed') text = outcome.text;
    const status = outcome.status === 'changed' ? (op === 'add' ? 'added' : 'removed') : outcome.status;
    done.push({ rule: rule.rule, behavior: rule.behavior, status });
  }
  const services: { program: string; status: string }[] = [];
  for (const program of profile.readServices) {
    const outcome = editReadServicesText(text, op, program);
    if (outcome.status === 'invalid') {
      io.err(io.errColors.red(`${file.path}:${outcome.line}:${outcome.column}: ${outcome.message}`));
      return EXIT.usage;
    }
    if (outcome.status === 'changed') text = outcome.text;
    const status = outcome.status === 'changed' ? (op === 'add' ? 'added' : 'removed') : outcome.status;
    services.push({ program, status });
  }
  const isChange = (d: { status: string }) => d.status === 'added' || d.status === 'removed';
  const changed = done.filter(isChange).length;
  const servicesChanged = services.filter(isChange).length;
  const written = !args.dryRun && changed + servicesChanged > 0;
  if (written) await writeAtomically(file.path, text, read.mode);
  if (args.json) {
    printJson(io, { profile: name, file: file.path, written, rules: done, readServices: services });
    return EXIT.ok;
  }
  const verb =
    op === 'add' ? (args.dryRun ? 'would add' : 'added') : args.dryRun ? 'would remove' : 'removed';
  io.out(
    `${verb} ${changed} of the ${rules.length} rules of the ${name} profile ${op === 'add' ? 'to' : 'from'} ${file.path}` +
      (changed < rules.length
        ? ` (${rules.length - changed} ${op === 'add' ? 'already there' : 'not there'})`
        : ''),
  );
  if (services.length > 0) {
    io.out(
      `${verb} ${servicesChanged} of the ${services.length} programs of its automode.readServices` +
        ` (${profile.readServices.join(', ')})` +
        (servicesChanged < services.length
          ? `; ${services.length - servicesChanged} ${op === 'add' ? 'already there' : 'not there'}`
          : ''),
    );
  }
  return EXIT.ok;
}

function usage(io: Io, message: string): number {
  io.err(`automode: ${message}`);
  return EXIT.usage;
}

const homeOf = () => process.env.HOME ?? homedir();
const cwdOf = (args: RulesArgs) => path.resolve(args.cwd ?? process.cwd());

function load(args: RulesArgs): Promise<LoadedSettings> {
  return loadFromArgs({
    ...(args.settings ? { settings: args.settings } : {}),
    ...(args.rules ? { rules: args.rules } : {}),
    cwd: cwdOf(args),
    defaults: args.defaults,
  });
}

function at(p: { file?: string; line?: number; column?: number; pointer?: string; source: string }): string {
  if (!p.file) return p.source;
  return `${p.file}${p.line ? `:${p.line}:${p.column ?? 1}` : ''}`;
}

// --- list ---

type Status = 'active' | 'shadowed' | 'disabled' | 'overridden';

interface ListedRule {
  behavior: Behavior;
  rule: string;
  tier: 'shipped' | 'user-written';
  source: string;
  file?: string;
  line?: number;
  column?: number;
  pointer: string;
  status: Status;
  /** Why it is shadowed, turned off or overridden. */
  reason?: string;
  by?: string[];
}

const label = (r: Rule) =>
  r.type === 'pattern' ? `${r.label} (/${r.text}/ on ${r.tool} ${r.field})` : r.text;

function place(p: Provenance): Pick<ListedRule, 'source' | 'file' | 'line' | 'column' | 'pointer'> {
  return {
    source: p.source,
    ...(p.file ? { file: p.file } : {}),
    ...(p.line ? { line: p.line, column: p.column ?? 1 } : {}),
    pointer: p.pointer,
  };
}

async function list(args: RulesArgs, io: Io): Promise<number> {
  const settings = await load(args);
  const failed = reportDiagnostics(settings, io);
  const shadows = await shadowedRules({
    cwd: settings.cwd,
    home: settings.home,
    ...(args.settings ? { settingsFiles: args.settings } : {}),
    ...(args.rules ? { ruleFiles: args.rules } : {}),
    defaults: args.defaults,
  });
  const overridden = new Map<Rule, string[]>();
  for (const o of await shippedOverrides(settings.rules, settings.rules, settings.home)) {
    for (const ask of o.asks) overridden.set(ask, [...(overridden.get(ask) ?? []), o.allow.text]);
  }
  const listed: ListedRule[] = settings.rules.map((r) => {
    const shadow = shadows.get(provenanceKey(r.provenance));
    const by = overridden.get(r);
    const base = {
      behavior: r.behavior,
      rule: label(r),
      tier: r.provenance.source === 'defaults' ? ('shipped' as const) : ('user-written' as const),
      ...place(r.provenance),
    };
    if (shadow) return { ...base, status: 'shadowed', reason: shadow.message, by: shadow.by };
    if (by)
      return {
        ...base,
        status: 'overridden',
        reason: `narrower allow rules decide first: ${by.join(', ')}`,
        by,
      };
    return { ...base, status: 'active' };
  });
  for (const d of settings.disabledShipped ?? []) {
    listed.push({
      behavior: d.rule.behavior,
      rule: label(d.rule),
      tier: 'shipped',
      ...place(d.rule.provenance),
      status: 'disabled',
      reason: `turned off by automode.disableShippedRules at ${at(d.by)}`,
      by: [at(d.by)],
    });
  }
  const shown = args.behavior ? listed.filter((r) => r.behavior === args.behavior) : listed;
  if (args.json) printJson(io, { rules: shown });
  else io.out(renderList(shown, io.colors));
  return failed ? EXIT.usage : EXIT.ok;
}

function renderList(rules: readonly ListedRule[], c: Colors): string {
  const lines: string[] = [];
  for (const behavior of ['deny', 'ask', 'allow'] as const) {
    const these = rules.filter((r) => r.behavior === behavior);
    if (these.length === 0) continue;
    lines.push(c.bold(`${behavior} (${these.length})`));
    for (const r of these) {
      const status =
        r.status === 'active'
          ? ''
          : `  ${(r.status === 'shadowed' ? c.yellow : c.dim)(`${r.status}: ${r.reason}`)}`;
      lines.push(`  ${r.rule}  ${c.dim(`${at(r)} ${r.source} ${r.tier}`)}${status}`);
    }
  }
  if (lines.length === 0) lines.push('no rules');
  return lines.join('\n');
}

// --- add, remove ---

async function shippedCorpus(): Promise<CorpusEntry[]> {
  return uniqueCalls((await readCorpus(SHIPPED_CORPUS)).entries);
}

async function edit(args: RulesArgs, change: RuleEdit, io: Io): Promise<number> {
  if (change.op === 'add') {
    const { refused, warnings } = checkRuleText(change.rule, change.behavior);
    for (const w of warnings)
      io.err(io.errColors.yellow(`automode: rule ${JSON.stringify(change.rule)}: ${w.message}`));
    if (refused.length > 0) {
      for (const e of refused)
        io.err(io.errColors.red(`automode: rule ${JSON.stringify(change.rule)}: ${e.message}`));
      return EXIT.usage;
    }
  }
  const file = scopeFile(args.scope, { cwd: cwdOf(args), home: homeOf() });
  const read = await readForEdit(file.path);
  if ('error' in read) return usage(io, read.error);
  const outcome = editRuleText(read.text, change);
  const where = `permissions.${change.behavior} of ${file.path}`;
  if (outcome.status === 'invalid') {
    io.err(io.errColors.red(`${file.path}:${outcome.line}:${outcome.column}: ${outcome.message}`));
    return EXIT.usage;
  }
  if (outcome.status === 'absent') {
    if (args.json)
      printJson(io, { status: 'absent', rule: change.rule, behavior: change.behavior, file: file.path });
    else io.err(`automode: ${change.rule} is not in ${where}`);
    return EXIT.findings;
  }
  if (outcome.status === 'present') {
    const location = { file: file.path, line: outcome.at.line, column: outcome.at.column };
    if (args.json)
      printJson(io, { status: 'present', rule: change.rule, behavior: change.behavior, ...location });
    else
      io.out(
        `${change.rule} is already in ${where} (${at({ ...location, source: file.source })}): nothing to do`,
      );
    return EXIT.ok;
  }
  const before = await load(args);
  const loadFailed = before.failed.length > 0;
  let effect: Awaited<ReturnType<typeof diffDecisions>> | undefined;
  if (!loadFailed) {
    const after = withRuleEdit(before, change, file, outcome.at);
    const project = before.cwd;
    effect = await diffDecisions(
      await shippedCorpus(),
      { settings: before, project },
      { settings: after, project },
    );
  }
  if (!args.dryRun) await writeAtomically(file.path, outcome.text, read.mode);
  const location = { file: file.path, line: outcome.at.line, column: outcome.at.column };
  const lines = changedLines(read.text, outcome.text);
  if (args.json) {
    printJson(io, {
      status: change.op === 'add' ? 'added' : 'removed',
      written: !args.dryRun,
      created: !read.exists,
      rule: change.rule,
      behavior: change.behavior,
      ...location,
      edit: lines,
      effect: effect
        ? {
            summary: effect.summary,
            changes: effect.changes.map((c) => ({
              command: describeCall(c.call),
              from: c.base.decision,
              to: c.head.decision,
              kind: c.kind,
              ...(c.head.rule ? { rule: c.head.rule.text } : {}),
            })),
          }
        : null,
    });
    return EXIT.ok;
  }
  const c = io.colors;
  const verb =
    change.op === 'add' ? (args.dryRun ? 'would add' : 'added') : args.dryRun ? 'would remove' : 'removed';
  const created = read.exists ? '' : ' (a new file)';
  io.out(
    `${verb} ${change.rule} ${change.op === 'add' ? 'to' : 'from'} ${where}${created} at line ${outcome.at.line}`,
  );
  if (args.dryRun) {
    for (const l of lines)
      io.out(l.op === '-' ? c.red(`  ${l.line}- ${l.text}`) : c.green(`  ${l.line}+ ${l.text}`));
  }
  if (!effect) {
    io.err('automode: the settings could not be read in full, so the effect is not shown');
    return EXIT.ok;
  }
  io.out(renderEffect(effect, c));
  return EXIT.ok;
}

function renderEffect(effect: Awaited<ReturnType<typeof diffDecisions>>, c: Colors): string {
  const { changes, summary } = effect;
  if (changes.length === 0)
    return `no decision changes among the ${summary.calls} calls of the shipped corpus`;
  const lines = [`${summary.changed} of the ${summary.calls} calls of the shipped corpus change decision:`];
  for (const change of changes.slice(0, SHOWN)) {
    const arrow = `${change.base.decision} → ${change.head.decision}`;
    const paint = change.kind === 'narrowed' ? c.green : c.yellow;
    lines.push(`  ${paint(arrow.padEnd(14))} ${describeCall(change.call)}`);
  }
  if (changes.length > SHOWN) lines.push(`  … and ${changes.length - SHOWN} more (--json lists them all)`);
  return lines.join('\n');
}

/** The lines an edit removes and adds, numbered as in the old and the new file. */
function changedLines(before: string, after: string): { op: '-' | '+'; line: number; text: string }[] {
  const a = before === '' ? [] : before.split('\n');
  const b = after.split('\n');
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  return [
    ...a.slice(start, endA).map((text, i) => ({ op: '-' as const, line: start + i + 1, text })),
    ...b.slice(start, endB).map((text, i) => ({ op: '+' as const, line: start + i + 1, text })),
  ];
}

// --- suggest ---

async function suggest(args: RulesArgs, command: string, behavior: Behavior, io: Io): Promise<number> {
  const settings = await load(args);
  if (reportDiagnostics(settings, io)) return EXIT.usage;
  const file = scopeFile(args.scope, { cwd: settings.cwd, home: settings.home });
  const report = await suggestRules(command, behavior, settings, file, await shippedCorpus());
  const any = report.suggestions.some((s) => s.rule);
  if (args.json) {
    printJson(io, report);
    return any ? EXIT.ok : EXIT.findings;
  }
  const c = io.colors;
  const lines = [`${command}: ${report.decision} now; ${report.withRules} with the rules below`];
  for (const s of report.suggestions) {
    const service = s.readService
      ? `  or ${c.bold(`"automode": {"readServices": [${JSON.stringify(s.readService.program)}]}`)} in ${file.path} ${c.dim(`(${s.command}: ${s.decision} → ${s.readService.withEntry}, as a read of your own service and nothing that writes)`)}`
      : undefined;
    if (!s.rule) {
      lines.push(`  ${s.command}: no rule (${s.why})`);
      if (service) lines.push(service);
      continue;
    }
    const note =
      s.decision === behavior
        ? ` (already ${s.decision})`
        : s.withRule !== behavior
          ? ` (still ${s.withRule}: a stricter rule decides first)`
          : '';
    lines.push(`  ${c.bold(s.rule)}  ${c.dim(`${s.command}: ${s.decision} → ${s.withRule}${note}`)}`);
    if (s.broad) lines.push(`    not ${s.broad.rule}: it would allow ${s.broad.witness}`);
    if (s.admitted === 0) lines.push('    changes no other decision in the shipped corpus');
    else {
      lines.push(`    also changes ${s.admitted} call(s) of the shipped corpus, e.g.:`);
      for (const a of s.admits) lines.push(`      ${`${a.from} → ${a.to}`.padEnd(14)} ${a.command}`);
    }
    if (service) lines.push(service);
  }
  lines.push(c.dim(`add one: automode rules add '<rule>' --${behavior}`));
  io.out(lines.join('\n'));
  return any ? EXIT.ok : EXIT.findings;
}
