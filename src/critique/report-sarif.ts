import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { CODES, FINDING_CODES } from './codes.js';
import type { CritiqueReport, Finding, FindingSeverity, Location } from './types.js';

function toolVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version?: string;
    };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

const LEVEL: Record<FindingSeverity, 'error' | 'warning' | 'note'> = {
  error: 'error',
  warning: 'warning',
  note: 'note',
};

/** `dead-rule` → `DeadRule`: SARIF's readable rule names. */
function ruleName(code: string): string {
  return code.replace(/(^|-)([a-z])/g, (_, __, c: string) => c.toUpperCase());
}

/**
 * SARIF 2.1.0 as GitHub code scanning accepts it: one run, every finding code in `tool.driver.rules`, results
 * with a physical location (line and column of the rule's string) relative to the working folder when the
 * file lies inside it, related locations for the other rules a finding is about.
 */
export function renderSarif(report: CritiqueReport, cwd: string): object {
  const base = pathToFileURL(cwd.endsWith(path.sep) ? cwd : `${cwd}${path.sep}`).href;
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'automode',
            version: toolVersion(),
            rules: FINDING_CODES.map((code) => ({
              id: code,
              name: ruleName(code),
              shortDescription: { text: CODES[code].title },
              fullDescription: { text: CODES[code].help },
              help: { text: CODES[code].help, markdown: CODES[code].help },
              defaultConfiguration: { level: LEVEL[CODES[code].severity] },
              properties: { tags: ['automode', CODES[code].group] },
            })),
          },
        },
        originalUriBaseIds: { SRCROOT: { uri: base } },
        results: report.findings.map((f) => result(f, cwd)),
      },
    ],
  };
}

function result(f: Finding, cwd: string): object {
  const location = physical(f.location, cwd);
  const out: Record<string, unknown> = {
    ruleId: f.code,
    ruleIndex: FINDING_CODES.indexOf(f.code),
    level: LEVEL[f.severity],
    message: { text: messageText(f) },
  };
  if (location) out.locations = [{ physicalLocation: location }];
  const related = f.related.flatMap((r, i) => {
    const physicalLocation = physical(r, cwd);
    return physicalLocation ? [{ id: i + 1, physicalLocation, message: { text: relatedText(r) } }] : [];
  });
  if (related.length > 0) out.relatedLocations = related;
  const properties: Record<string, unknown> = {};
  if (f.witness) properties.witness = f.witness;
  if (f.fix) properties.fix = f.fix;
  if (f.partial) properties.partial = f.partial;
  if (f.location.rule) properties.rule = f.location.rule;
  if (Object.keys(properties).length > 0) out.properties = properties;
  return out;
}

function messageText(f: Finding): string {
  const parts = [f.message];
  if (f.witness) parts.push(`Witness: ${JSON.stringify(f.witness.value)}.`);
  if (f.fix) parts.push(`Fix: ${f.fix}.`);
  if (f.partial) parts.push(`Note: ${f.partial}.`);
  return parts.join(' ');
}

function relatedText(r: Location & { message: string }): string {
  return r.rule ? `${r.rule}: ${r.message}` : r.message;
}

function physical(l: Location, cwd: string): object | undefined {
  if (l.file === undefined || l.file === '--settings') return undefined;
  const relative = path.relative(cwd, l.file);
  const inside = relative && !relative.startsWith('..') && !path.isAbsolute(relative);
  const artifactLocation = inside
    ? { uri: relative.split(path.sep).map(encodeURIComponent).join('/'), uriBaseId: 'SRCROOT' }
    : { uri: pathToFileURL(l.file).href };
  return {
    artifactLocation,
    region: { startLine: l.line ?? 1, startColumn: l.column ?? 1 },
  };
}
