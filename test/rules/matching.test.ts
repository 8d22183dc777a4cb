import { describe, expect, it } from 'vitest';
import {
  type BashPattern,
  matchBashPattern,
  matchDomain,
  matchMcpTool,
  matchParamRule,
  matchPathRule,
  matchRuleTool,
  type ParsedPermission,
  parseBashPattern,
  parseDomainPattern,
  parseMcpName,
  parsePathPattern,
  parsePermissionRule,
} from '../../src/rules/index.js';

const bash = (specifier: string): BashPattern => parseBashPattern(specifier).pattern;
const matches = (specifier: string, line: string) => matchBashPattern(bash(specifier), line);

describe('matchBashPattern', () => {
  it('matches an exact pattern only against the same command line', () => {
    expect(matches('npm run build', 'npm run build')).toBe(true);
    expect(matches('npm run build', 'npm run build --watch')).toBe(false);
    expect(matches('npm run build', 'npm run buil')).toBe(false);
  });

  it('lets * match any characters, spaces included, anywhere', () => {
    expect(matches('git * main', 'git push origin main')).toBe(true);
    expect(matches('git * main', 'git push origin main2')).toBe(false);
    expect(matches('* install', 'npm install')).toBe(true);
    expect(matches('* install', 'npm install lodash')).toBe(false);
    expect(matches('echo *', 'echo a\nb')).toBe(true);
  });

  it('requires a word boundary before a trailing " *"', () => {
    expect(matches('ls *', 'ls')).toBe(true);
    expect(matches('ls *', 'ls -la')).toBe(true);
    expect(matches('ls *', 'lsof')).toBe(false);
    expect(matches('ls*', 'lsof')).toBe(true);
    expect(matches('ls*', 'ls -la')).toBe(true);
  });

  it('reads a trailing :* like a trailing " *"', () => {
    expect(matches('npm run test:*', 'npm run test')).toBe(true);
    expect(matches('npm run test:*', 'npm run test -- --watch')).toBe(true);
    expect(matches('npm run test:*', 'npm run testing')).toBe(false);
    expect(matches('npm run test:*', 'npm run test:unit')).toBe(false);
    expect(bash('npm run test:*').regex).toBe(bash('npm run test *').regex);
  });

  it('takes a :* in the middle literally', () => {
    expect(matches('git:* push', 'git:x push')).toBe(true);
    expect(matches('git:* push', 'git x push')).toBe(false);
  });

  it('escapes regex characters in the literal parts', () => {
    expect(matches('echo a.b', 'echo axb')).toBe(false);
    expect(matches('grep (x|y) *', 'grep (x|y) file')).toBe(true);
    expect(matches('grep (x|y) *', 'grep x file')).toBe(false);
  });

  it('collapses runs of whitespace in the pattern', () => {
    expect(matches('git   status', 'git status')).toBe(true);
  });

  it('lists the literal words before the first wildcard', () => {
    expect(bash('git commit *').prefixWords).toEqual(['git', 'commit']);
    expect(bash('npm run build').prefixWords).toEqual(['npm', 'run', 'build']);
    expect(bash('git * main').prefixWords).toEqual(['git']);
    expect(bash('ls*').prefixWords).toEqual([]);
    expect(bash('python3 -m*').prefixWords).toEqual(['python3']);
    expect(bash('* install').prefixWords).toEqual([]);
  });
});

describe('matchPathRule', () => {
  const ctx = { cwd: '/proj', home: '/home/me' };
  const path = (specifier: string, root?: string) => parsePathPattern(specifier, root);
  const covers = (specifier: string, file: string, root?: string) =>
    matchPathRule(path(specifier, root), file, ctx);

  it('anchors //path at the filesystem root', () => {
    expect(covers('//etc/passwd', '/etc/passwd')).toBe(true);
    expect(covers('//etc/**', '/etc/ssh/sshd_config')).toBe(true);
    expect(covers('//etc/passwd', '/proj/etc/passwd')).toBe(false);
  });

  it('anchors ~/path at the home folder', () => {
    expect(covers('~/.ssh/**', '/home/me/.ssh/id_rsa')).toBe(true);
    expect(covers('~/.ssh/**', '/proj/.ssh/id_rsa')).toBe(false);
    expect(covers('~', '/home/me/anything/at/all')).toBe(true);
  });

  it('anchors /path at the settings root, falling back to the working folder', () => {
    expect(covers('/src/**', '/repo/src/a.ts', '/repo')).toBe(true);
    expect(covers('/src/**', '/proj/src/a.ts', '/repo')).toBe(false);
    expect(covers('/src/**', '/proj/src/a.ts')).toBe(true);
  });

  it('anchors ./path and path/with/slash at the working folder', () => {
    expect(covers('./src/**', '/proj/src/deep/a.ts')).toBe(true);
    expect(covers('src/*.ts', '/proj/src/a.ts')).toBe(true);
    expect(covers('src/*.ts', '/proj/lib/src/a.ts')).toBe(false);
    expect(covers('src/*.ts', '/proj/src/sub/a.ts')).toBe(false);
    expect(covers('../shared/**', '/shared/x')).toBe(true);
  });

  it('does not fall into the sibling-prefix trap', () => {
    expect(covers('./src/**', '/proj/src-evil/x')).toBe(false);
    expect(covers('//proj/src', '/proj/src-evil')).toBe(false);
  });

  it('matches a bare name at any depth below the working folder, and what is inside it', () => {
    expect(covers('.env', '/proj/.env')).toBe(true);
    expect(covers('.env', '/proj/a/b/.env')).toBe(true);
    expect(covers('.env', '/proj/.env.local')).toBe(false);
    expect(covers('.env', '/elsewhere/.env')).toBe(false);
    expect(covers('node_modules', '/proj/a/node_modules/pkg/index.js')).toBe(true);
    expect(covers('*.pem', '/proj/certs/server.pem')).toBe(true);
  });

  it('matches dot files and dot folders with ** and *', () => {
    expect(covers('./**', '/proj/.git/config')).toBe(true);
    expect(covers('./*', '/proj/.npmrc')).toBe(true);
    expect(covers('//proj/**/*.json', '/proj/.claude/settings.json')).toBe(true);
  });

  it('treats a trailing slash as "inside a folder of that name"', () => {
    expect(covers('build/', '/proj/build/out.js')).toBe(true);
    expect(covers('build/', '/proj/build')).toBe(false);
  });

  it('takes parentheses, braces and ! in names literally', () => {
    expect(covers('./My (old)/**', '/proj/My (old)/a')).toBe(true);
    expect(covers('./{a,b}', '/proj/a')).toBe(false);
    expect(covers('./!x', '/proj/!x')).toBe(true);
    expect(matchPathRule(path('./**'), '/proj (2)/a', { cwd: '/proj (2)', home: '/h' })).toBe(true);
  });

  it('accepts a parsed rule and ignores rules of another kind', () => {
    const rule = { parsed: parsePermissionRule('Read(./secrets/**)', { behavior: 'deny' }).parsed! };
    expect(matchPathRule(rule, '/proj/secrets/key', ctx)).toBe(true);
    const other = { parsed: parsePermissionRule('Bash(ls)', { behavior: 'deny' }).parsed! };
    expect(matchPathRule(other, '/proj/secrets/key', ctx)).toBe(false);
  });
});

describe('matchDomain', () => {
  const domain = (value: string) => parseDomainPattern(value).pattern;

  it('matches the exact host of a URL or a bare host', () => {
    expect(matchDomain(domain('example.com'), 'https://example.com/a?b')).toBe(true);
    expect(matchDomain(domain('example.com'), 'https://EXAMPLE.com:8443/')).toBe(true);
    expect(matchDomain(domain('example.com'), 'example.com:80')).toBe(true);
    expect(matchDomain(domain('example.com'), 'https://api.example.com/')).toBe(false);
    expect(matchDomain(domain('example.com'), 'https://example.com.evil.net/')).toBe(false);
    expect(matchDomain(domain('example.com'), 'https://notexample.com/')).toBe(false);
  });

  it('lets *.domain match subdomains but not the apex', () => {
    expect(matchDomain(domain('*.example.com'), 'https://api.example.com/')).toBe(true);
    expect(matchDomain(domain('*.example.com'), 'https://a.b.example.com/')).toBe(true);
    expect(matchDomain(domain('*.example.com'), 'https://example.com/')).toBe(false);
    expect(matchDomain(domain('*.example.com'), 'https://evilexample.com/')).toBe(false);
  });

  it('never matches an unparseable URL', () => {
    expect(matchDomain(domain('example.com'), 'https://exa mple.com')).toBe(false);
  });
});

describe('MCP rules', () => {
  const rule = (name: string) => parseMcpName(name)!;

  it('matches a whole server, a server wildcard and one tool', () => {
    expect(matchMcpTool(rule('mcp__github'), 'mcp__github__create_issue')).toBe(true);
    expect(matchMcpTool(rule('mcp__github__*'), 'mcp__github__create_issue')).toBe(true);
    expect(matchMcpTool(rule('mcp__github__create_issue'), 'mcp__github__create_issue')).toBe(true);
    expect(matchMcpTool(rule('mcp__github__create_issue'), 'mcp__github__delete_repo')).toBe(false);
    expect(matchMcpTool(rule('mcp__github__get_*'), 'mcp__github__get_file')).toBe(true);
    expect(matchMcpTool(rule('mcp__github__get_*'), 'mcp__github__put_file')).toBe(false);
  });

  it('does not let one server stand for another that shares a prefix', () => {
    expect(matchMcpTool(rule('mcp__git'), 'mcp__github__create_issue')).toBe(false);
    expect(matchMcpTool(rule('mcp__github'), 'Bash')).toBe(false);
  });

  it('tells whether a parsed rule is about a tool', () => {
    const parsed = (text: string): ParsedPermission =>
      parsePermissionRule(text, { behavior: 'deny' }).parsed!;
    expect(matchRuleTool(parsed('mcp__github'), 'mcp__github__x')).toBe(true);
    expect(matchRuleTool(parsed('Bash(ls)'), 'Bash')).toBe(true);
    expect(matchRuleTool(parsed('Bash(ls)'), 'Read')).toBe(false);
  });
});

describe('matchParamRule', () => {
  const rule = (text: string) => {
    const parsed = parsePermissionRule(text, { behavior: 'deny' }).parsed;
    if (parsed?.kind !== 'param') throw new Error(`not a param rule: ${text}`);
    return parsed;
  };

  it('matches a top-level scalar field with * wildcards', () => {
    expect(matchParamRule(rule('Agent(subagent_type:general*)'), { subagent_type: 'general-purpose' })).toBe(
      true,
    );
    expect(matchParamRule(rule('Agent(subagent_type:general*)'), { subagent_type: 'Explore' })).toBe(false);
    expect(matchParamRule(rule('Bash(run_in_background:true)'), { run_in_background: true })).toBe(true);
    expect(matchParamRule(rule('Bash(timeout:600000)'), { timeout: 600000 })).toBe(true);
    expect(matchParamRule(rule('Bash(run_in_background:true)'), { run_in_background: false })).toBe(false);
  });

  it('ignores missing, nested and non-scalar fields', () => {
    const any = rule('mcp__db__query(options:*)');
    expect(matchParamRule(any, {})).toBe(false);
    expect(matchParamRule(any, { options: { a: 1 } })).toBe(false);
    expect(matchParamRule(any, { options: ['a'] })).toBe(false);
    expect(matchParamRule(any, { options: null })).toBe(false);
    expect(matchParamRule(rule('mcp__db__query(toString:*)'), {})).toBe(false);
  });

  it('matches the whole value, not a part of it', () => {
    expect(matchParamRule(rule('mcp__db__query(database:prod)'), { database: 'prod-replica' })).toBe(false);
  });
});
