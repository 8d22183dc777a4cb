import { describe, expect, it } from 'vitest';
import { parsePermissionRule } from '../../src/rules/index.js';

const parse = (text: string, behavior: 'allow' | 'ask' | 'deny' = 'deny', root?: string) =>
  parsePermissionRule(text, { behavior, ...(root ? { root } : {}) });

describe('parsePermissionRule', () => {
  it('reads a bare tool name as the whole tool', () => {
    expect(parse('Bash')).toEqual({ parsed: { kind: 'tool', tool: 'Bash' }, issues: [] });
    expect(parse('WebSearch').parsed).toEqual({ kind: 'tool', tool: 'WebSearch' });
  });

  it('reads Bash(*) as the whole tool', () => {
    expect(parse('Bash(*)').parsed).toEqual({ kind: 'tool', tool: 'Bash' });
    expect(parse('Bash(:*)').parsed).toEqual({ kind: 'tool', tool: 'Bash' });
  });

  it('reads Bash specifiers as compiled patterns', () => {
    const { parsed, issues } = parse('Bash(git commit *)');
    expect(issues).toEqual([]);
    expect(parsed).toMatchObject({
      kind: 'bash',
      tool: 'Bash',
      pattern: { source: 'git commit *', exact: false, wordBoundary: true, prefixWords: ['git', 'commit'] },
    });
  });

  it('reads the legacy :* suffix as a word-boundary wildcard', () => {
    expect(parse('Bash(npm run test:*)').parsed).toMatchObject({
      kind: 'bash',
      pattern: { legacyColonStar: true, wordBoundary: true, prefixWords: ['npm', 'run', 'test'] },
    });
  });

  it('warns about :* in the middle of a pattern', () => {
    const { parsed, issues } = parse('Bash(git:* push)');
    expect(parsed?.kind).toBe('bash');
    expect(issues).toEqual([
      {
        severity: 'warning',
        code: 'legacy-colon-star',
        message:
          '":*" is only recognised at the end of a pattern; here ":" is literal and "*" is a wildcard (write "git * push"?)',
      },
    ]);
  });

  it('reads file rules with their anchors', () => {
    expect(parse('Read(//etc/passwd)').parsed).toMatchObject({
      kind: 'path',
      tool: 'Read',
      pattern: { anchor: 'absolute', glob: 'etc/passwd' },
    });
    expect(parse('Edit(~/notes/**)').parsed).toMatchObject({ pattern: { anchor: 'home', glob: 'notes/**' } });
    expect(parse('Edit(/src/**)', 'deny', '/proj').parsed).toMatchObject({
      pattern: { anchor: 'root', glob: 'src/**', root: '/proj' },
    });
    expect(parse('Read(./src/**)').parsed).toMatchObject({ pattern: { anchor: 'cwd', anyDepth: false } });
    expect(parse('Read(.env)').parsed).toMatchObject({
      pattern: { anchor: 'cwd', glob: '.env', anyDepth: true },
    });
    expect(parse('Read(src/*.ts)').parsed).toMatchObject({ pattern: { anyDepth: false } });
  });

  it('warns that path rules on Write and Glob are never consulted', () => {
    expect(parse('Write(./src/**)').issues).toEqual([
      {
        severity: 'warning',
        code: 'path-rule-ignored',
        message: 'Claude Code never consults path rules on Write; write Edit(./src/**) instead',
      },
    ]);
    expect(parse('Glob(./secret/**)').issues[0]?.message).toBe(
      'Claude Code never consults path rules on Glob; write Read(./secret/**) instead',
    );
    expect(parse('NotebookEdit(./nb/**)').issues).toEqual([]);
  });

  it('reads WebFetch domains', () => {
    expect(parse('WebFetch(domain:Example.COM)').parsed).toEqual({
      kind: 'domain',
      tool: 'WebFetch',
      pattern: { source: 'Example.COM', domain: 'example.com', subdomains: false },
    });
    expect(parse('WebFetch(domain:*.example.com)').parsed).toMatchObject({
      pattern: { domain: 'example.com', subdomains: true },
    });
  });

  it('warns about WebFetch specifiers that are not domains', () => {
    expect(parse('WebFetch(https://example.com)').issues).toEqual([
      {
        severity: 'warning',
        code: 'webfetch-specifier',
        message: 'WebFetch rules take the form WebFetch(domain:example.com)',
      },
    ]);
    expect(parse('WebFetch(domain:https://x.com/a)').issues[0]?.message).toBe(
      '"https://x.com/a" is not a host name: write WebFetch(domain:example.com)',
    );
  });

  it('reads MCP rules', () => {
    expect(parse('mcp__github').parsed).toEqual({ kind: 'mcp', tool: 'mcp__github', server: 'github' });
    expect(parse('mcp__github__*').parsed).toEqual({
      kind: 'mcp',
      tool: 'mcp__github__*',
      server: 'github',
      toolPattern: '*',
    });
    expect(parse('mcp__github__create_issue').parsed).toMatchObject({ toolPattern: 'create_issue' });
    expect(parse('mcp__my-server__get_*').parsed).toMatchObject({
      server: 'my-server',
      toolPattern: 'get_*',
    });
  });

  it('reads mcp__* as every MCP tool, and refuses any other wildcard in an MCP server name', () => {
    expect(parse('mcp__*')).toEqual({ parsed: { kind: 'mcp', tool: 'mcp__*', server: '*' }, issues: [] });
    expect(parse('mcp__git*').issues).toEqual([
      {
        severity: 'error',
        code: 'rule-syntax',
        message: '"*" in tool name "mcp__git*": only * and mcp__* name tools by a wildcard',
      },
    ]);
  });

  it('reads param rules', () => {
    expect(parse('Bash(run_in_background:true)').parsed).toEqual({
      kind: 'param',
      tool: 'Bash',
      param: 'run_in_background',
      value: 'true',
    });
    expect(parse('Agent(subagent_type:general*)').parsed).toMatchObject({
      kind: 'param',
      param: 'subagent_type',
    });
    expect(parse('Edit(replace_all:true)').parsed).toMatchObject({ kind: 'param', tool: 'Edit' });
    expect(parse('mcp__db__query(database:prod*)').parsed).toMatchObject({
      kind: 'param',
      tool: 'mcp__db__query',
    });
  });

  it('keeps Bash(name:*) as the legacy prefix form even when the name is a Bash input field', () => {
    expect(parse('Bash(timeout:*)').parsed).toMatchObject({
      kind: 'bash',
      pattern: { prefixWords: ['timeout'] },
    });
  });

  it('warns about param rules on a main field and in allow lists', () => {
    expect(parse('WebFetch(url:*evil*)').issues).toEqual([
      {
        severity: 'warning',
        code: 'param-main-field',
        message:
          '"url" is a main field: Claude Code never applies WebFetch(url:...) rules; write WebFetch(*evil*) instead',
      },
    ]);
    expect(parse('Bash(run_in_background:true)', 'allow').issues).toEqual([
      {
        severity: 'warning',
        code: 'param-allow-ignored',
        message: 'Bash(run_in_background:...) rules only apply to deny and ask',
      },
    ]);
  });

  it('keeps other specifiers verbatim', () => {
    expect(parse('Agent(Explore)').parsed).toEqual({
      kind: 'specifier',
      tool: 'Agent',
      specifier: 'Explore',
    });
    expect(parse('Skill(deploy)').parsed).toEqual({ kind: 'specifier', tool: 'Skill', specifier: 'deploy' });
  });

  it('suggests the closest known tool for an unknown name', () => {
    expect(parse('bash(ls)').issues).toEqual([
      { severity: 'warning', code: 'unknown-tool', message: 'unknown tool "bash"; did you mean "Bash"?' },
    ]);
    expect(parse('WebFech(domain:x.com)').issues[0]?.message).toBe(
      'unknown tool "WebFech"; did you mean "WebFetch"?',
    );
    expect(parse('Frobnicate').issues[0]?.message).toBe('unknown tool "Frobnicate"');
    expect(parse('mcp__anything__goes').issues).toEqual([]);
  });

  it('reports malformed rules as errors without a parsed form', () => {
    const cases: [string, string, string][] = [
      ['', 'rule-empty', 'empty rule'],
      ['   ', 'rule-empty', 'empty rule'],
      ['Bash()', 'rule-empty', 'empty specifier: write "Bash" for every use'],
      ['Bash(npm run', 'rule-syntax', 'missing ")" at the end of "Bash(npm run"'],
      [
        'Bash(echo (a)',
        'rule-syntax',
        'unbalanced parentheses in the specifier; escape literal ones as \\( and \\)',
      ],
      ['Bash ls', 'rule-syntax', 'invalid tool name "Bash ls": expected Tool or Tool(specifier)'],
      ['Bash)', 'rule-syntax', 'invalid tool name "Bash)": expected Tool or Tool(specifier)'],
      ['Ba*sh', 'rule-syntax', '"*" in tool name "Ba*sh": only * and mcp__* name tools by a wildcard'],
    ];
    for (const [text, code, message] of cases) {
      expect(parse(text), text).toEqual({ issues: [{ severity: 'error', code, message }] });
    }
  });

  it('unescapes escaped parentheses in the specifier', () => {
    expect(parse('Bash(echo \\(a\\))').parsed).toMatchObject({ pattern: { source: 'echo (a)' } });
  });
});
