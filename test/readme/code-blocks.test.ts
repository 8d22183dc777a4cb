import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { DOC_FILES, readDoc } from '../support/docs.js';

/**
 * The documentation's code (the README and docs/): every ```ts block type-checks with `tsc --strict` against the package (each entry mapped to
 * its shipped types), and so does every ```js block, as JavaScript (`checkJs`); every ```sh block that runs automode
 * parses (`bash -n`).
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The package's entries, as package.json "exports" names them, and their types as the package ships them (dist/,
 * which `npm test` builds first): what a user's editor checks their code against.
 */
const ENTRIES: Record<string, string> = {
  automode: 'dist/index.d.ts',
  'automode/classifier': 'dist/classifier-entry.d.ts',
  'automode/pipeline': 'dist/pipeline/index.d.ts',
  'automode/eval': 'dist/eval/index.d.ts',
  'automode/critique': 'dist/critique/index.d.ts',
  'automode/testing': 'dist/testing/index.d.ts',
  'automode/vitest': 'dist/vitest/index.d.ts',
};

interface Block {
  /** The page (README.md, docs/….md) and the line the block starts on. */
  doc: string;
  line: number;
  lang: string;
  code: string;
}

/** Fenced blocks, indented ones (inside a list) included, without their indentation. */
function blocks(doc: string, text: string): Block[] {
  const found: Block[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```(\w+)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const indent = open[1]!.length;
    const start = i + 1;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i]!.trim() !== '```'; i++) body.push(lines[i]!.slice(indent));
    found.push({ doc, line: start, lang: open[2]!, code: body.join('\n') });
  }
  return found;
}

const all = DOC_FILES.flatMap((doc) => blocks(doc, readDoc(doc)));
const fileOf = (b: Block) => `block-${DOC_FILES.indexOf(b.doc)}-${b.line}.${b.lang === 'js' ? 'js' : 'ts'}`;
const typescript = all.filter((b) => ['ts', 'typescript', 'js'].includes(b.lang));
const shell = all.filter((b) => {
  if (b.lang !== 'sh') return false;
  const first = b.code.split('\n').find((l) => l.trim() !== '' && !l.trim().startsWith('#')) ?? '';
  return /^(automode |node bin\/automode\.js |[A-Z_]+=\S* automode )/.test(first.trim());
});

describe('the documentation ```ts and ```js blocks', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'automode-readme-ts-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('are there to check', () => {
    expect(typescript.filter((b) => b.lang === 'ts').length).toBeGreaterThanOrEqual(4);
    expect(typescript.filter((b) => b.lang === 'js').length).toBeGreaterThanOrEqual(4);
  });

  it('type-check with tsc --strict against the package', () => {
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    writeFileSync(path.join(dir, 'package.json'), '{ "type": "module" }\n');
    const files = typescript.map((b) => {
      const file = fileOf(b);
      writeFileSync(path.join(dir, file), `${b.code}\nexport {};\n`);
      return file;
    });
    const paths = Object.fromEntries(
      Object.entries(ENTRIES).map(([name, source]) => [name, [path.join(ROOT, source)]]),
    );
    writeFileSync(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify({
        extends: path.join(ROOT, 'tsconfig.json'),
        compilerOptions: {
          noEmit: true,
          declaration: false,
          rootDir: '/',
          strict: true,
          allowJs: true,
          checkJs: true,
          paths,
        },
        include: [],
        files,
      }),
    );
    const r = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', dir], {
      encoding: 'utf8',
    });
    // An error names its block by the page and line the block starts on.
    const errors = r.stdout.replace(/\S*block-(\d+)-(\d+)\.[jt]s\((\d+),/g, (_, doc, start, line) => {
      return `${DOC_FILES[Number(doc)]}:${Number(start) + Number(line) - 1} (${line},`;
    });
    expect(errors).toBe('');
    expect(r.status).toBe(0);
  }, 600_000);
});

describe('the documentation ```sh blocks that run automode', () => {
  it('are there to check', () => {
    expect(shell.length).toBeGreaterThanOrEqual(2);
  });

  it.each(shell.map((b) => [`${b.doc}:${b.line}`, b.code] as const))('%s parses in bash', (_, code) => {
    const r = spawnSync('bash', ['-n'], { input: code, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});
