import {
  BUILTIN_FILES,
  builtinProse,
  loadSettingsFiles,
  PROSE_SECTIONS,
  type ProseSection,
  proseLabel,
} from '../rules/index.js';
import { EXIT, printJson } from './output.js';
import type { CommandModule } from './types.js';

/** Settings discovery pointed at a folder that does not exist, so that only the shipped rules load. */
const NOWHERE = '/nonexistent/automode-defaults-only';

export const defaultsCommand: CommandModule = {
  command: 'defaults',
  describe: 'Print the shipped rules: auto-mode prose rules, permission rules and pattern rules',
  builder: (y) =>
    y
      .option('json', { type: 'boolean', default: false, describe: 'Print as JSON' })
      .option('label', { type: 'string', describe: 'Only entries whose label starts with this prefix' })
      .example('$0 defaults --label "History"', 'One built-in rule'),
  run: async (raw, io) => {
    const args = raw as { json: boolean; label?: string };
    const keep = (label: string) =>
      args.label === undefined || label.toLowerCase().startsWith(args.label.toLowerCase());
    const prose = builtinProse();
    const autoMode = Object.fromEntries(
      PROSE_SECTIONS.map((s) => [s, (prose[s] ?? []).filter((t) => keep(proseLabel(t)))]),
    ) as Record<ProseSection, string[]>;
    const loaded = await loadSettingsFiles({
      cwd: NOWHERE,
      home: NOWHERE,
      builtins: { settingsFiles: [BUILTIN_FILES.settings], ruleFiles: [BUILTIN_FILES.rules] },
      managedPath: `${NOWHERE}/managed-settings.json`,
      env: {},
    });
    const rules = loaded.rules
      .filter((r) => r.provenance.source === 'defaults')
      .filter((r) => (r.type === 'pattern' ? keep(r.label) : args.label === undefined));
    if (args.json) {
      printJson(io, {
        autoMode,
        permissions: rules
          .filter((r) => r.type === 'permission')
          .map((r) => ({ behavior: r.behavior, rule: r.text })),
        patternRules: rules
          .filter((r) => r.type === 'pattern')
          .map((r) => ({
            behavior: r.behavior,
            tool: r.tool,
            field: r.field,
            pattern: r.text,
            label: r.label,
          })),
        files: BUILTIN_FILES,
      });
      return EXIT.ok;
    }
    const c = io.colors;
    const lines: string[] = [];
    for (const s of PROSE_SECTIONS) {
      if (autoMode[s].length === 0) continue;
      lines.push(c.bold(`autoMode.${s}`));
      for (const t of autoMode[s]) lines.push(`  ${t}`);
    }
    for (const behavior of ['deny', 'ask', 'allow'] as const) {
      const list = rules.filter((r) => r.behavior === behavior);
      if (list.length === 0) continue;
      lines.push(c.bold(`${behavior} rules`));
      for (const r of list)
        lines.push(`  ${r.type === 'pattern' ? `${r.label}: /${r.text}/ (${r.tool})` : r.text}`);
    }
    lines.push(
      c.dim('Read-only commands (ls, cat, grep, git status/log/diff, ...) are allowed by built-in checks.'),
    );
    io.out(lines.join('\n'));
    return EXIT.ok;
  },
};
