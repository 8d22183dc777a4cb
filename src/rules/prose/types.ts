import type { Provenance, SourceName } from '../types.js';

export const PROSE_SECTIONS = ['environment', 'allow', 'soft_deny', 'hard_deny'] as const;
export type ProseSection = (typeof PROSE_SECTIONS)[number];

export const DEFAULTS_MARKER = '$defaults';

export type ProseProvenance = Omit<Provenance, 'source'> & { source: SourceName | 'defaults' };

export interface ProseEntry {
  section: ProseSection;
  /** The text before the first `:` or `[`, or the whole entry when it has neither. */
  label: string;
  text: string;
  provenance: ProseProvenance;
}

export type ProseRules = Record<ProseSection, ProseEntry[]> & { classifyAllShell?: boolean };

/** The built-in prose rules that `$defaults` stands for. */
export type ProseDefaults = Partial<Record<ProseSection, readonly string[]>>;

export interface RawSection {
  provenance: Provenance;
  /** The entries as written, `$defaults` markers included. */
  entries: { text: string; provenance: Provenance }[];
}

/** One source's `autoMode` sections. */
export type RawProse = Partial<Record<ProseSection, RawSection>>;
