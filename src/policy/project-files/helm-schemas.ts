import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { helmSchemaCharts, type SimpleCommand } from '../../bash/index.js';
import type { DecisionContext } from '../context.js';
import { resolveWordPath } from '../paths.js';

/** Subcharts looked at for one chart, and the largest schema read; past either the command is asked. */
const MAX_ENTRIES = 5_000;
const MAX_SCHEMA_BYTES = 1024 * 1024;

/** The meta-schemas helm's validator (santhosh-tekuri/jsonschema) holds itself; any other `$schema` is loaded. */
const KNOWN_SCHEMAS = new Set(
  [
    'http://json-schema.org/draft-04/schema',
    'http://json-schema.org/draft-06/schema',
    'http://json-schema.org/draft-07/schema',
    'https://json-schema.org/draft/2019-09/schema',
    'https://json-schema.org/draft/2020-12/schema',
  ].flatMap((url) => [url, `${url}#`]),
);

const REFS = ['$ref', '$dynamicRef', '$recursiveRef'];

/**
 * Why `helm template` or `helm lint` may read more than the chart: helm validates the values against each
 * chart's and subchart's values.schema.json, and loads every `$ref` (and unknown `$schema`) it names from a file
 * or over http(s). Each schema in the chart folder (links followed, as helm loads it) may only refer inside
 * itself (`#/...`); a packaged subchart or chart (`.tgz`) holds a schema that is not read here. Undefined when
 * no schema reaches beyond itself.
 */
export function helmSchemaProblem(
  cmd: SimpleCommand,
  cwds: readonly string[] | undefined,
  ctx: DecisionContext,
  changedBefore: () => boolean,
): string | undefined {
  if (cmd.name?.program !== 'helm') return undefined;
  const charts = helmSchemaCharts(cmd.argv);
  if (charts.length === 0) return undefined;
  if (!cwds) return 'helm runs in a folder only known at run time';
  if (changedBefore()) return 'helm reads chart schemas another command on the line may write first';
  for (const cwd of cwds) {
    for (const chart of charts) {
      const path = resolveWordPath(chart, ctx, cwd);
      if (path === undefined) return `helm reads ${chart.text}, only known at run time`;
      const problem = chartProblem(path);
      if (problem) return `${problem} (--skip-schema-validation leaves the schemas out)`;
    }
  }
  return undefined;
}

/**
 * The schemas helm's loader reads for the chart at `top` (links followed, as helm loads it): its
 * values.schema.json, and each subchart's in `charts/`, folders recursively; a packaged chart or subchart
 * (`.tgz`) holds one that is not read here.
 */
function chartProblem(top: string): string | undefined {
  const seen = new Set<string>();
  const pending = [top];
  let entries = 0;
  while (pending.length > 0) {
    const chart = pending.pop()!;
    let real: string;
    let isFolder: boolean;
    try {
      real = realpathSync(chart);
      isFolder = statSync(real).isDirectory();
    } catch {
      // A chart that is not there is helm's error (one made earlier on the line is asked about above); a link
      // below that leads nowhere is skipped by its loader.
      continue;
    }
    if (!isFolder) {
      if (chart === top || /\.(tgz|tar\.gz)$/.test(chart))
        return `helm validates the schema inside ${chart}, a packaged chart`;
      continue;
    }
    if (seen.has(real)) continue;
    seen.add(real);
    const schema = join(chart, 'values.schema.json');
    const subcharts = join(chart, 'charts');
    const found = kind(schema);
    const folder = kind(subcharts);
    if (found === 'unknown' || folder === 'unknown')
      return `helm reads ${chart}, which cannot be looked into`;
    if (found !== 'none') {
      const problem = schemaProblem(schema);
      if (problem) return `${schema}: ${problem}`;
    }
    if (folder !== 'folder') continue;
    let names: string[];
    try {
      names = readdirSync(subcharts);
    } catch {
      return `helm reads ${subcharts}, which cannot be listed`;
    }
    entries += names.length;
    if (entries > MAX_ENTRIES) return `the chart ${top} holds more than ${MAX_ENTRIES} subcharts`;
    for (const name of names) if (!name.endsWith('.prov')) pending.push(join(subcharts, name));
  }
  return undefined;
}

function kind(path: string): 'none' | 'folder' | 'other' | 'unknown' {
  try {
    const stat = statSync(path, { throwIfNoEntry: false });
    return stat === undefined ? 'none' : stat.isDirectory() ? 'folder' : 'other';
  } catch {
    return 'unknown';
  }
}

function schemaProblem(file: string): string | undefined {
  let schema: unknown;
  try {
    if (statSync(file).size > MAX_SCHEMA_BYTES) return 'a schema too large to read here';
    schema = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return 'a schema that cannot be read';
  }
  const stack = [schema];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      stack.push(...node);
      continue;
    }
    if (node === null || typeof node !== 'object') continue;
    for (const [key, value] of Object.entries(node)) {
      if (REFS.includes(key) && !(typeof value === 'string' && value.startsWith('#')))
        return `${key} ${JSON.stringify(value)} loads another document`;
      if (key === '$schema' && !(typeof value === 'string' && KNOWN_SCHEMAS.has(value)))
        return `$schema ${JSON.stringify(value)} is loaded`;
      stack.push(value);
    }
  }
  return undefined;
}
