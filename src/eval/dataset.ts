import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { z } from 'zod';
import { type EvalCase, EvalCaseSchema, EvalFileSchema } from './case-schema.js';

/** The labelled dataset automode ships, and the synthetic oracle recording of its model exchanges. */
export const SHIPPED_DATASET = fileURLToPath(new URL('../../defaults/eval/cases.jsonl', import.meta.url));
export const SHIPPED_RECORDING = fileURLToPath(
  new URL('../../defaults/eval/oracle-recording.jsonl', import.meta.url),
);

export interface LoadedCase extends EvalCase {
  /** Where the case is written: file and, for JSONL, line. */
  source: { file: string; line?: number };
}

export interface DatasetProblem {
  file: string;
  line?: number;
  message: string;
}

export type Dataset = { ok: true; cases: LoadedCase[] } | { ok: false; problems: DatasetProblem[] };

function issueText(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid case';
  return `${issue.path.length ? `${issue.path.join('.')}: ` : ''}${issue.message}`;
}

/** Cases from a JSONL file: one per line; blank lines and lines starting with // are skipped. */
export function parseJsonl(text: string, file: string): { cases: LoadedCase[]; problems: DatasetProblem[] } {
  const cases: LoadedCase[] = [];
  const problems: DatasetProblem[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (!line || line.startsWith('//')) return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (e) {
      problems.push({ file, line: i + 1, message: `not JSON: ${(e as Error).message}` });
      return;
    }
    const parsed = EvalCaseSchema.safeParse(value);
    if (parsed.success) cases.push({ ...parsed.data, source: { file, line: i + 1 } });
    else problems.push({ file, line: i + 1, message: issueText(parsed.error) });
  });
  return { cases, problems };
}

async function parseDocument(
  text: string,
  file: string,
): Promise<{ cases: LoadedCase[]; problems: DatasetProblem[] }> {
  let value: unknown;
  try {
    if (/\.ya?ml$/i.test(file)) value = (await import('yaml')).parse(text);
    else value = JSON.parse(text);
  } catch (e) {
    return { cases: [], problems: [{ file, message: `cannot parse: ${(e as Error).message}` }] };
  }
  const parsed = EvalFileSchema.safeParse(value);
  if (!parsed.success) return { cases: [], problems: [{ file, message: issueText(parsed.error) }] };
  return { cases: parsed.data.cases.map((c) => ({ ...c, source: { file } })), problems: [] };
}

/** Reads every file (JSONL, JSON or YAML) and checks the cases; ids must be unique over all of them. */
export async function loadDataset(files: readonly string[]): Promise<Dataset> {
  const cases: LoadedCase[] = [];
  const problems: DatasetProblem[] = [];
  for (const given of files) {
    const file = path.resolve(given);
    let text: string;
    try {
      text = (await readFile(file, 'utf8')).replace(/^\uFEFF/, '');
    } catch (e) {
      problems.push({ file, message: `cannot read: ${(e as Error).message}` });
      continue;
    }
    const read = /\.jsonl$/i.test(file) ? parseJsonl(text, file) : await parseDocument(text, file);
    cases.push(...read.cases);
    problems.push(...read.problems);
  }
  const seen = new Map<string, LoadedCase>();
  for (const c of cases) {
    const first = seen.get(c.id);
    if (first) {
      const at = `${first.source.file}${first.source.line ? `:${first.source.line}` : ''}`;
      problems.push({ ...c.source, message: `duplicate id ${c.id} (first at ${at})` });
    } else seen.set(c.id, c);
  }
  if (problems.length > 0) return { ok: false, problems };
  if (cases.length === 0)
    return { ok: false, problems: files.map((file) => ({ file, message: 'no cases' })) };
  return { ok: true, cases };
}

export function formatProblem(p: DatasetProblem): string {
  return `${p.file}${p.line ? `:${p.line}` : ''}: ${p.message}`;
}
