import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createClassifier } from '../../src/classifier/index.js';
import { compileMatcher } from '../../src/hooks/matcher.js';
import { buildTool, ToolRegistry } from '../../src/pipeline/index.js';
import { canonicalToolName, loadSettingsFiles, TOOL_NAME_ALIASES } from '../../src/rules/index.js';
import { parsePermissionRule } from '../../src/rules/permission/parse.js';
import { caseClassifier, makeSandbox, removeSandbox } from '../classifier/helpers.js';

const ALIASES = Object.entries(TOOL_NAME_ALIASES);

describe('names a tool has gone by', () => {
  it.each(ALIASES)('a rule written %s is a rule about %s, with no unknown-tool warning', (alias, name) => {
    const { parsed, issues } = parsePermissionRule(alias, { behavior: 'deny' });
    expect(parsed).toEqual({ kind: 'tool', tool: name });
    expect(issues).toEqual([]);
  });

  it('keeps every other name as written', () => {
    for (const name of ['Edit', 'Bash', 'mcp__srv__tool', 'Agent', 'TaskStop', 'fileedit', 'Unknown']) {
      expect(canonicalToolName(name)).toBe(name);
    }
    expect(canonicalToolName('constructor')).toBe('constructor');
  });

  it('reads a path rule written with the design name as a path rule of the current name', () => {
    const { parsed } = parsePermissionRule('FileEdit(src/**)', { behavior: 'deny' });
    expect(parsed).toMatchObject({ kind: 'path', tool: 'Edit' });
  });

  it.each(ALIASES)(
    'a deny of %s denies a call of %s, and a deny of the new name denies a call of the old',
    async (alias, name) => {
      const box = await makeSandbox();
      try {
        const byOld = await caseClassifier(box, { permissions: { deny: [alias] } });
        const call = { input: { command: 'true' }, cwd: box.project };
        expect((await byOld.classify({ ...call, tool: name })).decision).toBe('deny');
        const byNew = await caseClassifier(box, { permissions: { deny: [name] } });
        expect((await byNew.classify({ ...call, tool: alias })).decision).toBe('deny');
      } finally {
        await removeSandbox(box);
      }
    },
  );

  it('applies a FileEdit path rule to Edit calls and an Edit path rule to FileEdit calls', async () => {
    const box = await makeSandbox();
    try {
      const classifier = await caseClassifier(box, {
        permissions: { deny: ['FileEdit(src/**)'], allow: ['Edit'] },
      });
      const edit = (tool: string, file: string) =>
        classifier.classify({
          tool,
          input: { file_path: `${box.project}/${file}`, old_string: 'a', new_string: 'b' },
          cwd: box.project,
        });
      expect((await edit('Edit', 'src/a.ts')).decision).toBe('deny');
      expect((await edit('FileEdit', 'src/a.ts')).decision).toBe('deny');
      expect((await edit('FileEdit', 'docs/a.md')).decision).toBe('allow');
    } finally {
      await removeSandbox(box);
    }
  });

  it('reads the tool of a pattern rule through the same table', async () => {
    const box = await makeSandbox();
    try {
      const ruleFile = path.join(box.project, 'rules.yaml');
      await writeFile(
        ruleFile,
        'rules:\n  - tool: FileRead\n    path_pattern: secret\n    decision: deny\n    label: no secrets\n',
      );
      const settings = await loadSettingsFiles({
        cwd: box.project,
        home: box.home,
        managedPath: box.managed,
        env: {},
        ruleFiles: [ruleFile],
      });
      expect(settings.diagnostics).toEqual([]);
      expect(settings.rules.find((r) => r.type === 'pattern')).toMatchObject({ tool: 'Read' });
      const read = await createClassifier(settings).classify({
        tool: 'Read',
        input: { file_path: `${box.project}/secret.txt` },
        cwd: box.project,
      });
      expect(read.decision).toBe('deny');
    } finally {
      await removeSandbox(box);
    }
  });

  it.each(ALIASES)('a hook matcher %s matches calls of %s', (alias, name) => {
    expect(compileMatcher(alias).test(name)).toBe(true);
    expect(compileMatcher(name).test(alias)).toBe(true);
    expect(compileMatcher(`Other|${alias}`).test(name)).toBe(true);
    expect(compileMatcher(alias).test('Other')).toBe(false);
  });

  it('finds a reference tool by a name it has gone by', () => {
    const edit = buildTool({
      name: 'Edit',
      description: 'edit',
      inputSchema: z.strictObject({}),
      async *call() {
        yield { type: 'result', data: null };
      },
    });
    const registry = new ToolRegistry([edit]);
    expect(registry.find('FileEdit')?.tool).toBe(edit);
    expect(registry.find('FileWrite')).toBeUndefined();
  });
});
