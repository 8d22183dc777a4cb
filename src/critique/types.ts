import type { SourceName } from '../rules/index.js';
import type { FindingCode, FindingSeverity } from './codes.js';

export type { FindingSeverity };

export const SEVERITY_RANK: Record<FindingSeverity, number> = { error: 2, warning: 1, note: 0 };

/** A place in a rule file: the string of the rule or entry, as `file:line:column` and JSON pointer. */
export interface Location {
  source: SourceName;
  /** Absent for rules given on the command line. */
  file?: string;
  pointer?: string;
  line?: number;
  column?: number;
  /** The rule or prose entry found there, as written (a pattern rule: its label and regex). */
  rule?: string;
}

export interface RelatedLocation extends Location {
  /** What the other place has to do with the finding. */
  message: string;
}

/** What a witness is an example of. */
export type WitnessKind = 'command' | 'path' | 'host' | 'tool' | 'input';

export interface Witness {
  kind: WitnessKind;
  value: string;
  /** Why the witness shows the finding, e.g. "allowed by X and denied by Y". */
  explanation?: string;
}

export interface Finding {
  code: FindingCode;
  severity: FindingSeverity;
  message: string;
  location: Location;
  related: RelatedLocation[];
  witness?: Witness;
  /** Set when the analysis behind the finding is not exact, saying how. */
  partial?: string;
  /** A suggested change, in words or as the rule to write instead. */
  fix?: string;
  /** Counts and examples, for findings about many commands. */
  data?: Record<string, unknown>;
}

export interface CritiqueFile {
  path: string;
  kind: 'settings' | 'rules';
  source: SourceName;
  exists: boolean;
}

export interface CritiqueSummary {
  errors: number;
  warnings: number;
  notes: number;
  rules: number;
  proseEntries: number;
  /** How the whole configuration treats automode's corpus of everyday commands (absent when not classified). */
  everyday?: EverydayOutcome;
}

/** Everyday commands from the shipped benign corpus that still ask or are denied: prompts an allow would save. */
export interface EverydayOutcome {
  total: number;
  asked: number;
  byCategory: Record<string, number>;
  commands: { command: string; category: string; decision: string; reason: string; rule?: string }[];
}

export interface ReviewOutcome {
  status: 'done' | 'skipped' | 'failed';
  /** Why the review was skipped or failed. */
  reason?: string;
  model?: string;
}

export interface CritiqueReport {
  files: CritiqueFile[];
  findings: Finding[];
  summary: CritiqueSummary;
  /** Configuration errors (unreadable or unparsable files): the CLI exits 2. */
  configErrors: number;
  review: ReviewOutcome;
  timings: { staticMs: number; reviewMs?: number };
}
