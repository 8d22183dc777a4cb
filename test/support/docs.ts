import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The user documentation: the README (the guide) and the reference pages in docs/. */
export const DOC_FILES: readonly string[] = [
  'README.md',
  ...readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
];

export function readDoc(file: string): string {
  return readFileSync(path.join(ROOT, file), 'utf8');
}

/** Every documentation page, one after the other: for a test that looks for a block wherever it lives. */
export function allDocs(): string {
  return DOC_FILES.map(readDoc).join('\n');
}
