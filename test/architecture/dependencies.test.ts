import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cruise, type IViolation } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const CONFIG = path.join(ROOT, '.dependency-cruiser.cjs');

/** The violations of the project's rules in `root`/src, as `rule: from -> to`. */
async function violations(root: string): Promise<string[]> {
  const options = await extractDepcruiseOptions(CONFIG);
  const result = await cruise(
    ['src'],
    { ...options, baseDir: root },
    {},
    { tsConfig: extractTSConfig(path.join(root, 'tsconfig.json')) },
  );
  if (typeof result.output === 'string') throw new Error('expected a cruise result');
  return result.output.summary.violations
    .map((v: IViolation) => `${v.rule.name}: ${v.from} -> ${v.to}`)
    .sort();
}

describe('the dependency rules', () => {
  it('hold for src/', async () => {
    expect(await violations(ROOT)).toEqual([]);
  }, 120_000);

  describe('on a tree that breaks each of them once', () => {
    let root: string;
    const files: Record<string, string> = {
      'tsconfig.json': JSON.stringify({
        compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext' },
      }),
      // A cycle through a type-only import.
      'src/bash/index.ts': "export { a } from './a.js';\nexport { w } from './words.js';\n",
      'src/bash/a.ts': "import { c } from './c.js';\nexport type A = number;\nexport const a = c;\n",
      'src/bash/c.ts': "import type { A } from './a.js';\nexport const c: A = 1;\n",
      'src/bash/words.ts': 'export const w = 1;\n',
      'src/policy/index.ts': "export { p } from './p.js';\nexport { q } from './q.js';\n",
      // A deep import into a lower folder, beside an allowed one through the index.
      'src/policy/p.ts':
        "import { a } from '../bash/index.js';\nimport { w } from '../bash/words.js';\nexport const p = a + w;\n",
      // An import() of a lazy entry of a lower folder (allowed), and one of a module that is not an entry.
      'src/policy/q.ts':
        "export const q = async () => (await import('../llm/client.js')).make();\n" +
        "export const v = async () => (await import('../bash/words.js')).w;\n",
      // A module importing its own folder's index.
      'src/policy/own.ts': "import { p } from './index.js';\nexport const own = p;\n",
      // An upward import.
      'src/rules/index.ts': "import { p } from '../policy/index.js';\nexport const r = p;\n",
      // An index that loads a lazy module at run time, and one that only names a lazy module's type: allowed.
      'src/llm/index.ts':
        "export { make } from './client.js';\nexport type { Recording } from './recording.js';\n",
      'src/llm/client.ts': 'export const make = () => 1;\n',
      'src/llm/recording.ts': 'export type Recording = string;\n',
      // The lean entry reaching past an index to a lazy entry.
      'src/classifier-entry.ts':
        "export { make } from './llm/client.js';\nexport { p } from './policy/index.js';\n",
      // An import that resolves to nothing.
      'src/llm/gone.ts': "export * from './missing.js';\n",
      // An optional package imported statically, beside its type named and an import() of it: allowed.
      'node_modules/@modelcontextprotocol/sdk/package.json': JSON.stringify({
        name: '@modelcontextprotocol/sdk',
        type: 'module',
        exports: { './client.js': { types: './client.d.ts', default: './client.js' } },
      }),
      'node_modules/@modelcontextprotocol/sdk/client.js': 'export class Client {}\n',
      'node_modules/@modelcontextprotocol/sdk/client.d.ts': 'export declare class Client {}\n',
      'src/pipeline/mcp.ts':
        "import { Client } from '@modelcontextprotocol/sdk/client.js';\nexport const c = new Client();\n",
      'src/pipeline/lazy.ts':
        "import type { Client } from '@modelcontextprotocol/sdk/client.js';\n" +
        "export const load = async (): Promise<Client> => new (await import('@modelcontextprotocol/sdk/client.js')).Client();\n",
    };

    beforeAll(async () => {
      root = await mkdtemp(path.join(tmpdir(), 'automode-deps-'));
      for (const [name, text] of Object.entries(files)) {
        await mkdir(path.dirname(path.join(root, name)), { recursive: true });
        await writeFile(path.join(root, name), text);
      }
    });
    afterAll(() => rm(root, { recursive: true, force: true }));

    it('reports exactly those', async () => {
      expect(await violations(root)).toEqual([
        'entry-only: src/policy/p.ts -> src/bash/words.ts',
        'entry-only: src/policy/q.ts -> src/bash/words.ts',
        'layers: src/rules/index.ts -> src/policy/index.ts',
        'lazy-stays-lazy: src/llm/index.ts -> src/llm/client.ts',
        'lean-entry: src/classifier-entry.ts -> src/llm/client.ts',
        'no-circular: src/bash/a.ts -> src/bash/c.ts',
        'no-own-index: src/policy/own.ts -> src/policy/index.ts',
        'not-to-unresolvable: src/llm/gone.ts -> ./missing.js',
        'optional-stays-optional: src/pipeline/mcp.ts -> node_modules/@modelcontextprotocol/sdk/client.d.ts',
      ]);
    }, 60_000);
  });
});
