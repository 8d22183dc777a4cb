import type { Diagnostic } from '../types.js';
import {
  DEFAULTS_MARKER,
  PROSE_SECTIONS,
  type ProseDefaults,
  type ProseEntry,
  type ProseRules,
  type ProseSection,
  type RawProse,
  type RawSection,
} from './types.js';

/** The label of a prose entry: the text before the first `:` or `[`. */
export function proseLabel(text: string): string {
  const end = text.search(/[:[]/);
  const label = (end > 0 ? text.slice(0, end) : text).trim();
  return label || text.trim();
}

/**
 * Concatenates each section across sources (given in display order) and splices the built-ins at the first
 * `$defaults`; a section that no source writes keeps its built-ins, one written without `$defaults` drops them.
 */
export function mergeProse(
  sources: readonly RawProse[],
  defaults: ProseDefaults,
): { prose: ProseRules; diagnostics: Diagnostic[] } {
  const prose: ProseRules = { environment: [], allow: [], soft_deny: [], hard_deny: [] };
  const diagnostics: Diagnostic[] = [];
  for (const section of PROSE_SECTIONS) {
    const builtIns = builtInEntries(section, defaults[section] ?? []);
    const writers = sources.flatMap((source) => source[section] ?? []);
    if (writers.length === 0) {
      prose[section] = builtIns;
      continue;
    }
    let spliced = false;
    for (const { text, provenance } of writers.flatMap((writer) => writer.entries)) {
      if (text.trim() !== DEFAULTS_MARKER) {
        prose[section].push({ section, label: proseLabel(text), text, provenance });
      } else if (!spliced) {
        prose[section].push(...builtIns);
        spliced = true;
      }
    }
    if (!spliced && builtIns.length > 0 && (section === 'soft_deny' || section === 'hard_deny')) {
      diagnostics.push(replacedWarning(section, builtIns.length, writers[0]!));
    }
  }
  return { prose, diagnostics };
}

function builtInEntries(section: ProseSection, texts: readonly string[]): ProseEntry[] {
  return texts.map((text, index) => ({
    section,
    label: proseLabel(text),
    text,
    provenance: { source: 'defaults', pointer: `/${section}/${index}`, index },
  }));
}

function replacedWarning(section: ProseSection, count: number, writer: RawSection): Diagnostic {
  const { source, file, line, column, pointer } = writer.provenance;
  return {
    severity: 'warning',
    code: 'defaults-replaced',
    message: `autoMode.${section} has no "${DEFAULTS_MARKER}": it replaces ${count} built-in rules`,
    source,
    pointer,
    ...(file === undefined ? {} : { file }),
    ...(line === undefined ? {} : { line, column }),
  };
}
