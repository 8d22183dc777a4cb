import { shippedOverrides } from '../policy/index.js';
import type { LoadedSettings, Provenance, Rule } from '../rules/index.js';
import { PROSE_SECTIONS } from '../rules/index.js';
import type { Colors } from '../shared/index.js';
import { EXIT, printJson } from './output.js';
import { loadFromArgs, reportDiagnostics, type SettingsArgs, withSettingsOptions } from './settings-args.js';
import type { CommandModule } from './types.js';

function where(rule: Rule): string {
  return at(rule.provenance);
}

function at(p: Provenance): string {
  const at = p.file ? `${p.file}${p.line ? `:${p.line}:${p.column ?? 1}` : ''}` : p.pointer;
  return `${p.source} ${at}`;
}

const ruleLabel = (r: Rule) => (r.type === 'pattern' ? r.label : r.text);

export async function renderConfig(s: LoadedSettings, c: Colors): Promise<string> {
  const lines: string[] = [];
  lines.push(c.bold('files'));
  for (const f of s.files)
    lines.push(`  ${f.exists ? c.green('found  ') : c.dim('missing')} ${f.source} ${f.path}`);
  lines.push(`${c.bold('defaultMode')} ${s.defaultMode ?? 'default'}`);
  for (const behavior of ['deny', 'ask', 'allow'] as const) {
    const rules = s.rules.filter((r) => r.behavior === behavior);
    lines.push(c.bold(`${behavior} rules (${rules.length})`));
    for (const r of rules) {
      const label = r.type === 'pattern' ? `${r.label}: /${r.text}/ on ${r.tool} ${r.field}` : r.text;
      lines.push(`  ${label}  ${c.dim(where(r))}`);
    }
  }
  const disabled = s.disabledShipped ?? [];
  lines.push(c.bold(`shipped rules turned off (${disabled.length})`));
  for (const d of disabled)
    lines.push(`  ${d.rule.behavior} ${ruleLabel(d.rule)}  ${c.dim(`by ${at(d.by)}`)}`);
  const services = s.readServices ?? [];
  lines.push(c.bold(`service reads turned on, automode.readServices (${services.length})`));
  for (const e of services) lines.push(`  ${e.program}  ${c.dim(at(e.provenance))}`);
  const overrides = await shippedOverrides(s.rules, s.rules, s.home);
  lines.push(c.bold(`allow rules overriding shipped asks (${overrides.length})`));
  for (const o of overrides) {
    lines.push(`  ${o.allow.text} overrides ${o.asks.map(ruleLabel).join(', ')}  ${c.dim(where(o.allow))}`);
  }
  if (s.additionalDirectories.length > 0) {
    lines.push(c.bold('additional directories'));
    for (const d of s.additionalDirectories) lines.push(`  ${d.path}`);
  }
  lines.push(c.bold('autoMode'));
  for (const section of PROSE_SECTIONS) {
    lines.push(`  ${section} (${s.prose[section].length})`);
    for (const e of s.prose[section]) lines.push(`    ${e.text}  ${c.dim(e.provenance.source)}`);
  }
  if (s.prose.classifyAllShell !== undefined) lines.push(`  classifyAllShell: ${s.prose.classifyAllShell}`);
  return lines.join('\n');
}

export const configCommand: CommandModule = {
  command: 'config',
  describe: 'Show the effective configuration: every rule with its source and file, $defaults expanded',
  builder: (y) =>
    withSettingsOptions(y)
      .option('json', { type: 'boolean', default: false, describe: 'Print as JSON' })
      .example('$0 config --settings ./team-rules.json', 'What a settings file adds'),
  run: async (raw, io) => {
    const args = raw as unknown as SettingsArgs & { json: boolean };
    const settings = await loadFromArgs(args);
    const failed = reportDiagnostics(settings, io);
    // The stamps say what each file was when read, for a service to notice changes: not configuration.
    const { stamps: _stamps, ...shown } = settings;
    if (args.json)
      printJson(io, {
        ...shown,
        disabledShipped: settings.disabledShipped ?? [],
        readServices: settings.readServices ?? [],
        shippedOverrides: await shippedOverrides(settings.rules, settings.rules, settings.home),
      });
    else io.out(await renderConfig(settings, io.colors));
    return failed ? EXIT.usage : EXIT.ok;
  },
};
