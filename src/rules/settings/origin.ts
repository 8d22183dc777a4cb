import type { Diagnostic, DiagnosticCode, Provenance, Severity, SourceName } from '../types.js';
import type { LocatedDocument } from './document.js';
import { toPointer } from './document.js';
import type { Segment } from './types.js';

/** A file (or inline text) being read, and the folder its `/x` path rules are relative to. */
export interface Origin {
  source: SourceName;
  file?: string;
  root: string;
}

export function provenanceAt(origin: Origin, doc: LocatedDocument | undefined, path: Segment[]): Provenance {
  const position = doc?.locate(path);
  const last = path.at(-1);
  return {
    source: origin.source,
    ...(origin.file === undefined ? {} : { file: origin.file }),
    pointer: toPointer(path),
    index: typeof last === 'number' ? last : 0,
    ...(position ? { line: position.line, column: position.column } : {}),
  };
}

export function diagnosticAt(
  origin: Origin,
  doc: LocatedDocument | undefined,
  path: Segment[],
  severity: Severity,
  code: DiagnosticCode,
  message: string,
  rule?: string,
): Diagnostic {
  const position = doc?.locate(path);
  return {
    severity,
    code,
    message,
    source: origin.source,
    ...(origin.file === undefined ? {} : { file: origin.file }),
    ...(position ? { line: position.line, column: position.column } : {}),
    pointer: toPointer(path),
    ...(rule === undefined ? {} : { rule }),
  };
}
