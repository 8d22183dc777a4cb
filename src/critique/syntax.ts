import type { Diagnostic, DiagnosticCode, LocatedDocument, Rule } from '../rules/index.js';
import { gluedOptionStar, meantIn, splitCommands } from '../rules/index.js';
import type { FindingCode } from './codes.js';
import { fromDiagnostic, placeKey, related, ruleLocation } from './locations.js';
import { type Proposal, propose } from './replacement.js';
import type { Finding, Witness } from './types.js';

const CODE_OF: Partial<Record<DiagnosticCode, FindingCode>> = {
  'legacy-colon-star': 'colon-star-middle',
};

/** Loader diagnostics that mean the rule is never consulted: it takes no part in the overlap analysis. */
const NEVER_CONSULTED: ReadonlySet<DiagnosticCode> = new Set([
  'unknown-tool',
  'path-rule-ignored',
  'param-main-field',
  'param-allow-ignored',
  'allow-tool-wildcard',
  'pattern-field',
  'webfetch-specifier',
]);

/** The loader's own diagnostics, as findings with a suggested fix and, where there is one, a witness. */
export function diagnosticFindings(diagnostics: readonly Diagnostic[]): Finding[] {
  const findings: Finding[] = [];
  for (const d of diagnostics) {
    if (d.code === 'defaults-replaced') continue;
    const code = CODE_OF[d.code] ?? (d.code as FindingCode);
    const finding: Finding = {
      code,
      // The loader warns, so that a mistyped entry is not silent; the critique reports it as its code says.
      severity: d.code === 'shipped-rule-unknown' ? 'note' : d.severity,
      message: d.message,
      location: fromDiagnostic(d),
      related: [],
    };
    const fix = fixFor(d);
    if (fix) finding.fix = fix;
    const proposal = proposalFor(d);
    if (proposal) propose(finding, proposal);
    const witness = witnessFor(d);
    if (witness) finding.witness = witness;
    findings.push(finding);
  }
  return findings;
}

/** Places (file and pointer) of rules the loader found are never consulted. */
export function neverConsultedPlaces(diagnostics: readonly Diagnostic[]): Set<string> {
  const places = new Set<string>();
  for (const d of diagnostics) {
    if (!NEVER_CONSULTED.has(d.code) || d.pointer === undefined) continue;
    places.add(placeKey(d.file, d.pointer));
    const rule = /^\/rules\/\d+/.exec(d.pointer);
    if (rule) places.add(placeKey(d.file, rule[0]));
  }
  return places;
}

function fixFor(d: Diagnostic): string | undefined {
  const rule = d.rule ?? '';
  const name = rule.replace(/\(.*$/s, '');
  const specifier = /\(([\s\S]*)\)$/.exec(rule)?.[1];
  switch (d.code) {
    case 'unknown-tool': {
      const suggestion = meantIn(d.message);
      if (!suggestion)
        return 'check the tool name (names are case-sensitive; MCP tools are mcp__server__tool)';
      return rule ? `write ${suggestion}${rule.slice(name.length)}` : `write "${suggestion}"`;
    }
    case 'unknown-setting': {
      const meant = meantIn(d.message);
      return meant ? `rename it to "${meant.split('.').at(-1)}"` : undefined;
    }
    case 'unknown-hook-event':
    case 'unknown-hook-type':
    case 'unknown-hook-field': {
      const meant = meantIn(d.message);
      return meant ? `write "${meant}"` : undefined;
    }
    case 'invalid-on-failure':
      return 'write "block" or "continue"';
    case 'invalid-hook-if':
      return 'write a permission rule such as Bash(git *), or remove the if';
    case 'powershell-command':
      return 'write the rule for the bash command that does the same, or remove it';
    case 'legacy-colon-star':
      return specifier === undefined ? undefined : `write ${name}(${specifier.replace(/:\*/g, ' *')})`;
    case 'shell-operator': {
      const parts = specifier === undefined ? [] : splitCommands(specifier);
      return parts.length > 0
        ? `split it into one rule per command: ${parts.map((p) => `${name}(${p})`).join(', ')}`
        : 'remove the shell operators: each simple command is matched on its own';
    }
    case 'glued-option-star': {
      const glued = specifier === undefined ? undefined : gluedOptionStar(specifier);
      return glued === undefined
        ? undefined
        : `write ${name}(${specifier!.replace(glued, `${glued.slice(0, -1)} *`)}) for the option alone`;
    }
    case 'path-rule-ignored': {
      const instead = /write ([A-Za-z]+\(.*\)) instead/.exec(d.message)?.[1];
      return instead ? `write ${instead}` : undefined;
    }
    case 'param-main-field': {
      const value = specifier?.replace(/^[A-Za-z_]+:/, '');
      return value === undefined ? undefined : `write ${name}(${value})`;
    }
    case 'param-allow-ignored':
      return 'move the rule to deny or ask, or use the tool’s own specifier in allow';
    case 'allow-tool-wildcard':
      return 'name the tools to allow, or mcp__server for every tool of one server';
    case 'automode-ignored':
      return 'move autoMode to ~/.claude/settings.json, managed settings or a --settings file';
    case 'managed-only':
      return 'set it in managed settings, or remove it';
    case 'rule-syntax':
      return 'write Tool or Tool(specifier); escape literal parentheses as \\( and \\)';
    case 'rule-empty':
      return 'remove the rule, or write the bare tool name for every use';
    case 'redos': {
      const safe = /an equivalent safe form: (\/.*\/)$/.exec(d.message)?.[1];
      return safe ? `use ${safe}` : 'make the repetitions and alternatives unambiguous';
    }
    case 'example-mismatch':
      return 'fix the regex or the example';
    case 'pattern-field':
      return 'use command_pattern for Bash, path_pattern for file tools, input_pattern otherwise';
    case 'webfetch-specifier':
      return 'write WebFetch(domain:example.com)';
    default:
      return undefined;
  }
}

/** The rules a fix writes instead of the one it is about, where it names them. */
function proposalFor(d: Diagnostic): Proposal | undefined {
  const rule = d.rule ?? '';
  const name = rule.replace(/\(.*$/s, '');
  const specifier = /\(([\s\S]*)\)$/.exec(rule)?.[1];
  if (specifier === undefined) return undefined;
  const rules = (texts: readonly string[]) => texts.join(', ');
  switch (d.code) {
    case 'legacy-colon-star':
      return {
        options: [[`${name}(${specifier.replace(/:\*/g, ' *')})`]],
        render: ([kept]) => `write ${rules(kept!)}`,
      };
    case 'shell-operator': {
      const parts = splitCommands(specifier);
      if (parts.length === 0) return undefined;
      return {
        options: [parts.map((p) => `${name}(${p})`)],
        render: ([kept]) => `split it into one rule per command: ${rules(kept!)}`,
      };
    }
    case 'glued-option-star': {
      const glued = gluedOptionStar(specifier);
      if (glued === undefined) return undefined;
      return {
        options: [[`${name}(${specifier.replace(glued, `${glued.slice(0, -1)} *`)})`]],
        render: ([kept]) => `write ${rules(kept!)} for the option alone`,
      };
    }
    default:
      return undefined;
  }
}

function witnessFor(d: Diagnostic): Witness | undefined {
  if (d.code === 'redos') {
    const attack = /attack string ("(?:[^"\\]|\\.)*")/.exec(d.message)?.[1];
    if (attack) return { kind: 'command', value: JSON.parse(attack) as string, explanation: 'attack string' };
  }
  if (d.code === 'example-mismatch') {
    const example = /^example ("(?:[^"\\]|\\.)*")/.exec(d.message)?.[1];
    if (example) return { kind: 'command', value: JSON.parse(example) as string };
  }
  return undefined;
}

function duplicateKey(rule: Rule): string {
  if (rule.type === 'pattern') return `${rule.behavior}|${rule.tool}|${rule.field}|${rule.text}`;
  return `${rule.behavior}|${rule.text.trim().replace(/\s+/g, ' ')}`;
}

/** Where each source's file applies, for a rule copied from one source's file into another's. */
const SCOPE: Partial<Record<string, string>> = {
  policySettings: 'every user of this machine',
  userSettings: 'all of your projects',
  projectSettings: 'everyone who works on this project',
  localSettings: 'you, in this project',
  flagSettings: 'the sessions started with this file',
  ruleFile: 'the sessions that load this rule file',
};

/**
 * Rules written twice (in one file, or in two files under review), or repeating a shipped rule. A copy in the
 * same file never matters; a copy in another source's file applies somewhere the first does not, so it is a
 * note that says where each one holds. Returns the findings and the copies found (left out of the overlap
 * checks, which would report them again).
 */
export function duplicateFindings(
  subjects: readonly Rule[],
  context: readonly Rule[],
  documents: ReadonlyMap<string, LocatedDocument>,
): { findings: Finding[]; duplicates: Set<Rule> } {
  const shippedFirst = new Map<string, Rule>();
  for (const rule of context)
    if (!shippedFirst.has(duplicateKey(rule))) shippedFirst.set(duplicateKey(rule), rule);
  const written = new Map<string, Rule[]>();
  const findings: Finding[] = [];
  const duplicates = new Set<Rule>();
  for (const rule of subjects) {
    const key = duplicateKey(rule);
    const earlier = written.get(key) ?? [];
    written.set(key, [...earlier, rule]);
    const shipped = shippedFirst.get(key);
    const sameFile = earlier.find((e) => e.provenance.file === rule.provenance.file);
    if (sameFile) {
      duplicates.add(rule);
      findings.push({
        code: 'duplicate-rule',
        severity: 'warning',
        message: `${rule.behavior} rule ${name(rule)} is written twice in this file${shipped ? ' (automode also ships it)' : ''}`,
        location: ruleLocation(rule, documents),
        related: [related(sameFile, documents, 'first written here')],
        fix: 'remove this copy',
      });
      continue;
    }
    const other = earlier[0];
    if (other) {
      duplicates.add(rule);
      const here = SCOPE[rule.provenance.source];
      const there = SCOPE[other.provenance.source];
      const same = rule.provenance.source === other.provenance.source;
      findings.push({
        code: 'duplicate-rule',
        severity: same ? 'warning' : 'note',
        message: same
          ? `${rule.behavior} rule ${name(rule)} is also written in another ${rule.provenance.source} file`
          : `${rule.behavior} rule ${name(rule)} is also written in the ${other.provenance.source} file${here && there ? `: this copy applies to ${here}, that one to ${there}` : ''}`,
        location: ruleLocation(rule, documents),
        related: [related(other, documents, 'also written here')],
        fix: same
          ? 'remove this copy'
          : 'keep both if each file is meant to hold the rule on its own; otherwise remove the copy from the file that needs it least',
      });
      continue;
    }
    if (!shipped) continue;
    duplicates.add(rule);
    // Claude Code does not have automode's shipped rules: a copy of one is what keeps it in force there.
    findings.push({
      code: 'duplicate-rule',
      severity: 'note',
      message: `${rule.behavior} rule ${name(rule)} repeats a rule automode also ships; keep it: Claude Code does not have automode's shipped rules`,
      location: ruleLocation(rule, documents),
      related: [related(shipped, documents, 'the shipped rule')],
    });
  }
  return { findings, duplicates };
}

function name(rule: Rule): string {
  return rule.type === 'pattern' ? `"${rule.label}"` : rule.text;
}

const PATH_CHANNEL: Record<string, string> = {
  MultiEdit: 'Edit',
  NotebookEdit: 'Edit',
  Grep: 'Read',
};

/**
 * Path rules on tools the classifier never checks by path (the loader already reports Write and Glob): a
 * reading tool is checked against Read rules and a writing tool against Edit rules.
 */
export function unconsultedPathRules(
  subjects: readonly Rule[],
  documents: ReadonlyMap<string, LocatedDocument>,
): { findings: Finding[]; rules: Set<Rule> } {
  const findings: Finding[] = [];
  const rules = new Set<Rule>();
  for (const rule of subjects) {
    if (rule.type !== 'permission' || rule.parsed.kind !== 'path') continue;
    const instead = PATH_CHANNEL[rule.parsed.tool];
    if (!instead) continue;
    rules.add(rule);
    const fix = `${instead}(${rule.parsed.pattern.source})`;
    findings.push({
      code: 'path-rule-ignored',
      severity: 'warning',
      message: `path rules are consulted for Read and Edit only; ${rule.text} never applies (write ${fix})`,
      location: ruleLocation(rule, documents),
      related: [],
      fix: `write ${fix}`,
    });
  }
  return { findings, rules };
}
