import { readFile } from 'node:fs/promises';
import type { LocatedDocument } from '../rules/index.js';
import { isObject } from '../shared/index.js';
import type { CritiqueFile, Finding } from './types.js';

/** Settings files under review that set nothing: empty, blank, `{}` or only `$schema`. */
export async function emptyFileFindings(
  files: readonly CritiqueFile[],
  documents: ReadonlyMap<string, LocatedDocument>,
): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const file of files) {
    const value = documents.get(file.path)?.value;
    if (file.kind !== 'settings' || !isObject(value)) continue;
    if (Object.keys(value).some((key) => key !== '$schema')) continue;
    const text = await readFile(file.path, 'utf8').catch(() => undefined);
    if (text === undefined) continue;
    const blank = text.replace(/^\uFEFF/, '').trim() === '';
    findings.push({
      code: 'empty-settings',
      severity: 'note',
      message: blank
        ? `the file is ${text.length === 0 ? 'empty (0 bytes)' : 'blank'}: it sets nothing; it is not valid JSON, ` +
          `which automode reads as {} but a strict JSON reader refuses`
        : 'the file sets nothing: it holds no setting',
      location: { source: file.source, file: file.path, line: 1, column: 1 },
      related: [],
      fix: blank ? 'write {} in it, or remove the file' : 'add the settings you meant, or remove the file',
    });
  }
  return findings;
}
