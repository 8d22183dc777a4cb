import type { Diagnostic, LocatedDocument, PatternField, Provenance, Rule, Segment } from '../rules/index.js';
import { toPointer } from '../rules/index.js';
import type { Location, RelatedLocation } from './types.js';

const PATTERN_KEY: Record<PatternField, string> = {
  command: 'command_pattern',
  path: 'path_pattern',
  input: 'input_pattern',
};

/** How a rule is named in messages: a permission rule's text, a pattern rule's label and regex. */
export function displayName(rule: Rule): string {
  return rule.type === 'pattern' ? `${rule.label} (/${rule.text}/)` : rule.text;
}

/** Where a rule is written: the permission string, or a pattern rule's regex string. */
export function ruleLocation(rule: Rule, documents: ReadonlyMap<string, LocatedDocument>): Location {
  const p = rule.provenance;
  const location = fromProvenance(p, displayName(rule));
  if (rule.type !== 'pattern' || p.file === undefined) return location;
  const doc = documents.get(p.file);
  const path: Segment[] = ['rules', p.index, PATTERN_KEY[rule.field]];
  const position = doc?.locate(path);
  return {
    ...location,
    pointer: toPointer(path),
    ...(position ? { line: position.line, column: position.column } : {}),
  };
}

export function related(
  rule: Rule,
  documents: ReadonlyMap<string, LocatedDocument>,
  message: string,
): RelatedLocation {
  return { ...ruleLocation(rule, documents), message };
}

export function fromProvenance(p: Provenance, rule?: string): Location {
  return {
    source: p.source,
    ...(p.file === undefined ? {} : { file: p.file }),
    pointer: p.pointer,
    ...(p.line === undefined ? {} : { line: p.line, column: p.column ?? 1 }),
    ...(rule === undefined ? {} : { rule }),
  };
}

export function fromDiagnostic(d: Diagnostic): Location {
  return {
    source: d.source ?? 'flagSettings',
    ...(d.file === undefined ? {} : { file: d.file }),
    ...(d.pointer === undefined ? {} : { pointer: d.pointer }),
    ...(d.line === undefined ? {} : { line: d.line, column: d.column ?? 1 }),
    ...(d.rule === undefined ? {} : { rule: d.rule }),
  };
}

/** `file:line:column`, or the source name for rules without a file. */
export function formatLocation(l: Location, relativeTo?: (file: string) => string): string {
  if (l.file === undefined) return l.pointer ? `${l.source} ${l.pointer}` : l.source;
  const file = relativeTo ? relativeTo(l.file) : l.file;
  return l.line === undefined ? file : `${file}:${l.line}:${l.column ?? 1}`;
}

/** A stable key of a rule's place, to match diagnostics to the rules they are about. */
export function placeKey(file: string | undefined, pointer: string | undefined): string {
  return `${file ?? ''}#${pointer ?? ''}`;
}
