import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  coveredBy,
  intersects,
  type Language,
  regexLanguage,
  wildcardLanguage,
  witness,
} from '../../src/critique/automata.js';
import { globRegex, regexPrefix } from '../../src/critique/model.js';
import { terms } from '../../src/critique/prose.js';
import { insideWordWitness } from '../../src/critique/regex-checks.js';
import type { Finding } from '../../src/critique/types.js';
import { matchBashPattern, parseBashPattern } from '../../src/rules/permission/bash.js';
import { absoluteGlob, matchPathRule, parsePathPattern } from '../../src/rules/permission/path.js';
import { type Box, critiqueFiles, makeBox, removeBox } from './helpers.js';

function lang(source: string): Language {
  const result = regexLanguage(source);
  if ('error' in result) throw new Error(result.error);
  return result.language;
}

function bash(spec: string): Language {
  const { pattern } = parseBashPattern(spec);
  const body = pattern.legacyColonStar
    ? pattern.source.slice(0, -2).trimEnd()
    : pattern.wordBoundary
      ? pattern.source.slice(0, -2)
      : pattern.source;
  return wildcardLanguage(body, pattern.wordBoundary, pattern.regex, (l) => matchBashPattern(pattern, l));
}

describe('automata over subjects', () => {
  it('a wildcard rule built directly is the language of its compiled regex', () => {
    for (const spec of ['git *', 'npm run test:*', 'git * main', '* install', 'ls*', 'npm test', 'a*b*c *']) {
      const direct = bash(spec);
      const viaRegex = lang(parseBashPattern(spec).pattern.regex);
      expect(coveredBy(direct, [viaRegex]), spec).toBe(true);
      expect(coveredBy(viaRegex, [direct]), spec).toBe(true);
    }
  });

  it('anchors anywhere in a regex, including inside alternations', () => {
    const yolo = lang('(^| )(--yolo|--dangerously-skip-permissions)( |$)');
    expect(yolo.approximation).toBeUndefined();
    expect(witness(yolo)).toBe('--yolo');
    expect(intersects(yolo, bash('gemini *'))).toBe(true);
    expect(witness(yolo, bash('gemini *'))).toBe('gemini --yolo');
    const either = lang('x$|^y');
    expect(['x', 'y']).toContain(witness(either));
    expect(lang('a^b').nfa.isEmpty).toBe(true);
    expect(lang('npm$ test').nfa.isEmpty).toBe(true);
  });

  it('witnesses are confirmed by the real regex, readable and short', () => {
    const w = witness(bash('git *'), bash('git push --force *'));
    expect(w).toBe('git push --force');
    expect(witness(lang('^rm( -[-a-zA-Z]+)* (/|~)( |$)'))).toMatch(/^rm [/~]$/);
  });

  it('lookarounds refa can apply stay exact; others make an approximation', () => {
    expect(lang('\\brm\\b').approximation).toBeUndefined();
    expect(lang('(?<![\\w-])rm(?![\\w-])').approximation).toBeUndefined();
    expect(lang('^git (?!status)\\w+').approximation).toBe('assertion (?!status)');
    expect(lang('(a+)b\\1').approximation).toBe('backreference \\1');
  });

  it('coverage: one rule, or several together', () => {
    expect(coveredBy(bash('git push --force *'), [bash('git *')])).toBe(true);
    expect(coveredBy(bash('git *'), [bash('git push --force *')])).toBe(false);
    const status = bash('git status *');
    expect(coveredBy(bash('git st*'), [status, bash('git stash *')])).toBe(false);
    expect(coveredBy(lang('^rm -(r|f)$'), [lang('^rm -r$'), lang('^rm -f$')])).toBe(true);
  });

  it('regex prefixes are the literal text every match starts with', () => {
    expect(regexPrefix('^git push( |$)')).toBe('git push');
    expect(regexPrefix('^terraform (apply|destroy)')).toBe('terraform ');
    expect(regexPrefix('^npm tests?')).toBe('npm test');
    expect(regexPrefix('rm')).toBe('');
    expect(regexPrefix('^\\/bin\\/rm')).toBe('/bin/rm');
  });
});

describe('path rules as automata agree with matchPathRule', () => {
  const ctx = { cwd: '/proj', home: '/home/u' };
  const specs = [
    'src/**',
    '/src/*.ts',
    '~/.ssh/id_*',
    '.env',
    '.env.*',
    '//etc/passwd',
    'build/',
    'a/**/b',
    'x?.md',
  ];
  const paths = [
    '/proj/src/a.ts',
    '/proj/src/deep/b.ts',
    '/proj/src',
    '/proj/.env',
    '/proj/sub/.env',
    '/proj/.env.local',
    '/home/u/.ssh/id_rsa',
    '/home/u/.ssh/known_hosts',
    '/etc/passwd',
    '/etc/passwd/x',
    '/proj/build/out.js',
    '/proj/build',
    '/proj/a/b',
    '/proj/a/x/y/b',
    '/proj/a/bb',
    '/proj/xa.md',
    '/proj/xab.md',
  ];
  for (const spec of specs) {
    it(spec, () => {
      const pattern = parsePathPattern(spec, '/proj');
      const re = new RegExp(globRegex(absoluteGlob(pattern, ctx), pattern.directoryOnly));
      for (const p of paths) expect(re.test(p), `${spec} on ${p}`).toBe(matchPathRule(pattern, p, ctx));
    });
  }
});

describe('regex checks', () => {
  it('a literal matches inside longer words; anchored and bounded forms do not', () => {
    expect(insideWordWitness('rm')).toEqual({ value: 'arm', start: true });
    expect(insideWordWitness('(^| )rm( |$)')).toBeUndefined();
    expect(insideWordWitness('\\brm\\b')).toBeUndefined();
    expect(insideWordWitness('^rm( |$)')).toBeUndefined();
    expect(insideWordWitness('^git \\w+')).toBeUndefined();
    expect(insideWordWitness('--yolo')?.start).toBe(false);
  });
});

describe('prose terms', () => {
  it('stems and drops stop words, and splits hyphenated words', () => {
    expect([...terms('Force-pushing to feature branches is allowed')].sort()).toEqual(
      ['branch', 'feature', 'force', 'force-push', 'push'].sort(),
    );
  });
});

describe('overlaps outside Bash', () => {
  let box: Box;
  beforeAll(async () => {
    box = await makeBox();
  });
  afterAll(async () => {
    await removeBox(box);
  });

  async function findings(settings: object): Promise<Finding[]> {
    const file = path.join(box.root, `s${Math.random().toString(36).slice(2)}.json`);
    await writeFile(file, JSON.stringify(settings, null, 2));
    return (await critiqueFiles(box, [file])).findings;
  }

  it('an Edit allow under a Read deny never fires (a Read deny also blocks writes)', async () => {
    const f = await findings({ permissions: { allow: ['Edit(secrets/**)'], deny: ['Read(secrets/**)'] } });
    const dead = f.find((x) => x.code === 'dead-rule');
    expect(dead?.witness?.kind).toBe('path');
    expect(dead?.witness?.value).toBe(path.join(box.cwd, 'secrets'));
  });

  it('a narrower path allow is redundant', async () => {
    const f = await findings({ permissions: { allow: ['Read(src/**)', 'Read(./src/app/**)'] } });
    expect(f.find((x) => x.code === 'redundant-rule')?.location.rule).toBe('Read(./src/app/**)');
  });

  it('WebFetch domains and MCP servers', async () => {
    const f = await findings({
      permissions: {
        allow: ['WebFetch(domain:api.example.com)', 'mcp__github__create_issue'],
        deny: ['WebFetch(domain:*.example.com)', 'mcp__github'],
      },
    });
    const dead = f.filter((x) => x.code === 'dead-rule').map((x) => x.witness?.value);
    expect(dead).toEqual(expect.arrayContaining(['api.example.com', 'mcp__github__create_issue']));
  });

  it('a bare tool deny covers the tool’s other rules', async () => {
    const f = await findings({ permissions: { ask: ['Agent(Explore)'], deny: ['Agent'] } });
    const dead = f.find((x) => x.code === 'dead-rule');
    expect(dead?.witness).toEqual({ kind: 'tool', value: 'any call to Agent' });
  });

  it('an approximate automaton never claims coverage, but overlaps need a confirmed witness', async () => {
    const file = path.join(box.root, 'approx.yaml');
    await writeFile(
      file,
      'rules:\n  - tool: Bash\n    command_pattern: "^git (?!status)\\\\w+"\n    decision: allow\n    label: "git"\n',
    );
    const settings = path.join(box.root, 'deny-git.json');
    await writeFile(settings, JSON.stringify({ permissions: { deny: ['Bash(git *)', 'Bash(git status)'] } }));
    const report = await critiqueFiles(box, [file, settings]);
    const codes = report.findings.map((x) => x.code);
    expect(codes).toContain('partial-analysis');
    expect(codes).not.toContain('dead-rule');
    const overlap = report.findings.find((x) => x.code === 'allow-deny-overlap');
    expect(overlap?.related.map((r) => r.rule)).toEqual(['Bash(git *)']);
  });

  it('an allow pattern that is not anchored at the start allows commands that merely contain it', async () => {
    const file = path.join(box.root, 'contains.yaml');
    await writeFile(
      file,
      'rules:\n  - tool: Bash\n    command_pattern: "(^| )npm test( |$)"\n    decision: allow\n    label: "Tests"\n',
    );
    const report = await critiqueFiles(box, [file]);
    const f = report.findings.find((x) => x.code === 'unanchored-pattern');
    expect(f?.witness?.value).toBe('rm -rf ~ npm test');
    expect(f?.location).toMatchObject({ line: 3, column: 22 });
  });

  it('findings about deny rules matched robustly say their witness is for the regex view', async () => {
    const f = await findings({ permissions: { allow: ['Bash(git *)'], deny: ['Bash(git push --force *)'] } });
    expect(f.find((x) => x.code === 'allow-deny-overlap')?.partial).toMatch(/regex view/);
  });
});
