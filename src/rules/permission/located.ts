import type { LocatedDocument } from '../settings/document.js';
import { diagnosticAt, type Origin, provenanceAt } from '../settings/origin.js';
import type { Segment } from '../settings/types.js';
import type { Behavior, Diagnostic, PermissionRule } from '../types.js';
import { parsePermissionRule } from './parse.js';

/** Parses one permission rule string found at `path`; a rule with an error is left out. */
export function locatedPermissionRule(
  text: string,
  behavior: Behavior,
  origin: Origin,
  doc: LocatedDocument | undefined,
  path: Segment[],
): { rule?: PermissionRule; diagnostics: Diagnostic[] } {
  const { parsed, issues } = parsePermissionRule(text, { behavior, root: origin.root });
  const diagnostics = issues.map((issue) =>
    diagnosticAt(origin, doc, path, issue.severity, issue.code, issue.message, text),
  );
  if (!parsed) return { diagnostics };
  return {
    rule: { type: 'permission', behavior, text, parsed, provenance: provenanceAt(origin, doc, path) },
    diagnostics,
  };
}
