import { describe, expect, it } from 'vitest';
import {
  bashRuleIssues,
  gluedOptionStar,
  shellOperators,
  splitCommands,
} from '../../src/rules/permission/bash-checks.js';
import { parsePermissionRule } from '../../src/rules/permission/parse.js';

describe('shell operators in a Bash rule', () => {
  it.each([
    ['curl *|bash*', ['|']],
    ['bash <(curl *)', ['<(']],
    ['wget * && sh *', ['&&']],
    ['make || true', ['||']],
    ['a; b', [';']],
    ['sleep 1 &', ['&']],
    ['echo $(id)', ['$(']],
    ['echo "$(id)"', ['$(']],
    ['echo `id`', ['`']],
    ['rm -rf / > /dev/null', ['>']],
    ['cmd 2>&1', ['>&']],
    ['sort < in', ['<']],
    ['cat > >(tee x)', ['>', '>(']],
  ])('%s holds %j', (source, expected) => {
    expect(shellOperators(source)).toEqual(expected);
  });

  it.each([
    'git push --force *',
    'grep -E "a|b" *',
    "git commit -m 'x; y'",
    'find * -exec rm * ;',
    'echo a\\|b',
    "echo '$(id)'",
  ])('%s holds none', (source) => {
    expect(shellOperators(source)).toEqual([]);
  });

  it.each([
    ['curl *|bash*', ['curl *', 'bash*']],
    ['bash <(curl *)', ['bash *', 'curl *']],
    ['x $(a $(b)) y', ['x * y', 'b', 'a *']],
    ['rm -rf / > /dev/null 2>&1', ['rm -rf /']],
  ])('%s splits into %j', (source, expected) => {
    expect(splitCommands(source)).toEqual(expected);
  });
});

describe('a star glued to an option', () => {
  it.each([
    ['git push --force*', '--force*'],
    ['rm -rf*', '-rf*'],
    ['git push --force *', undefined],
    ['ls*', undefined],
    ['npm run test*', undefined],
  ])('%s: %s', (source, expected) => {
    expect(gluedOptionStar(source)).toBe(expected);
  });
});

describe('the rule loader reports them', () => {
  it('as warnings with their own codes', () => {
    expect(bashRuleIssues('curl *|bash*').map((i) => i.code)).toEqual(['shell-operator']);
    expect(bashRuleIssues('git push --force*').map((i) => i.code)).toEqual(['glued-option-star']);
    expect(bashRuleIssues('git push --force *')).toEqual([]);
    const parsed = parsePermissionRule('Bash(curl *|bash*)', { behavior: 'deny' });
    expect(parsed.issues.map((i) => [i.severity, i.code])).toEqual([['warning', 'shell-operator']]);
  });
});
