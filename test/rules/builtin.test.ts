import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { patternChecks, readPatternRules } from '../../src/rules/pattern/rules.js';
import { builtinOptions } from '../../src/rules/settings/builtin.js';
import { settingsLookValid, settingsSchemaIssues } from '../../src/rules/settings/check.js';
import { readDocument } from '../../src/rules/settings/document.js';
import { loadSettingsFiles } from '../../src/rules/settings/load.js';
import { toMode } from '../../src/shared/index.js';

describe('shipped rules', () => {
  it('pass the full checks that user rule files get (schema, backtracking, examples)', async () => {
    const file = builtinOptions().builtins.ruleFiles[0]!;
    const outcome = await readDocument(file);
    expect(outcome.status).toBe('ok');
    if (outcome.status !== 'ok') return;
    const { rules, diagnostics } = readPatternRules(
      outcome.document,
      { source: 'ruleFile', file, root: '/' },
      await patternChecks(),
    );
    expect(diagnostics).toEqual([]);
    expect(rules.length).toBeGreaterThan(5);
  });

  it('load without warnings or errors', async () => {
    const settings = await loadSettingsFiles({
      cwd: '/nonexistent/automode-test',
      home: '/nonexistent/automode-test',
      managedPath: '/nonexistent/automode-test/managed.json',
      env: {},
      ...builtinOptions(),
    });
    expect(settings.diagnostics).toEqual([]);
    expect(settings.rules.filter((r) => r.provenance.source === 'defaults').length).toBeGreaterThan(40);
  });
});

const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom(null, true, false, 0, 'x', 'default', 'disable', 'auto', 'manual'),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(
      fc.constantFrom('allow', 'ask', 'deny', 'defaultMode', 'matcher', 'hooks', 'type', 'PATH', 'x'),
      tie('value'),
      { maxKeys: 4 },
    ),
  ),
})).value;

const settingsLike = fc.record(
  {
    permissions: fc.oneof(
      json,
      fc.record(
        {
          allow: fc.oneof(fc.array(fc.string(), { maxLength: 2 }), json),
          deny: fc.oneof(fc.array(fc.string(), { maxLength: 2 }), json),
          defaultMode: fc.oneof(fc.constantFrom('default', 'plan', 'manual', 'bogus'), json),
          disableBypassPermissionsMode: fc.oneof(fc.constant('disable'), json),
          additionalDirectories: fc.oneof(fc.array(fc.string(), { maxLength: 2 }), json),
        },
        { requiredKeys: [] },
      ),
    ),
    autoMode: fc.oneof(
      json,
      fc.record(
        { allow: fc.array(fc.string(), { maxLength: 2 }), classifyAllShell: fc.oneof(fc.boolean(), json) },
        { requiredKeys: [] },
      ),
    ),
    automode: fc.oneof(
      json,
      fc.record(
        { disableShippedRules: fc.oneof(fc.array(fc.string(), { maxLength: 2 }), json) },
        { requiredKeys: [] },
      ),
    ),
    allowManagedPermissionRulesOnly: fc.oneof(fc.boolean(), json),
    hooks: fc.oneof(
      json,
      fc.dictionary(
        fc.constantFrom('PreToolUse', 'PostToolUse'),
        fc.array(
          fc.record(
            {
              matcher: fc.oneof(fc.string(), json),
              hooks: fc.oneof(fc.array(fc.record({ type: fc.oneof(fc.string(), json) })), json),
            },
            { requiredKeys: [] },
          ),
          { maxLength: 2 },
        ),
        { maxKeys: 2 },
      ),
    ),
    env: fc.oneof(json, fc.dictionary(fc.string(), fc.oneof(fc.string(), json), { maxKeys: 2 })),
    sandbox: fc.oneof(
      json,
      fc.record(
        {
          enabled: fc.oneof(fc.boolean(), json),
          excludedCommands: fc.oneof(fc.array(fc.string(), { maxLength: 2 }), json),
          filesystem: fc.oneof(
            json,
            fc.record(
              { allowWrite: fc.oneof(fc.array(fc.string(), { maxLength: 2 }), json) },
              { requiredKeys: [] },
            ),
          ),
          network: fc.oneof(
            json,
            fc.record(
              {
                allowedDomains: fc.oneof(fc.array(fc.string(), { maxLength: 2 }), json),
                allowLocalBinding: fc.oneof(fc.boolean(), json),
                httpProxyPort: fc.oneof(fc.integer({ min: -2, max: 70000 }), fc.double(), json),
              },
              { requiredKeys: [] },
            ),
          ),
        },
        { requiredKeys: [] },
      ),
    ),
  },
  { requiredKeys: [] },
);

describe('the quick settings check', () => {
  it('agrees with the zod schema, so skipping zod never lets an invalid file through', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(settingsLike, json), async (value) => {
        const issues = await settingsSchemaIssues(value);
        expect(settingsLookValid(value)).toBe(issues.length === 0);
      }),
      { numRuns: 2000, seed: 20261129 },
    );
  });
});

describe('mode names', () => {
  it('read `manual` as `default` and refuse names that are not modes', () => {
    expect(toMode('manual')).toBe('default');
    expect(toMode('acceptEdits')).toBe('acceptEdits');
    expect(toMode('bypassPermissions')).toBe('bypassPermissions');
    expect(toMode('Auto')).toBeUndefined();
    expect(toMode(3)).toBeUndefined();
  });
});
