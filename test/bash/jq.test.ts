import { describe, expect, test } from 'vitest';
import { jqConstructs, jqFilterSafety } from '../../src/bash/programs/jq/filter.js';

describe('jq filters that only compute are read-only', () => {
  test.each([
    '.',
    '.items[] | {name, id: .id, tags: (.tags // [] | join(","))}',
    'map(select(.age > 30)) | sort_by(.name) | .[0:3]',
    '[inputs | .a] | add',
    'def inc(f): f + 1; inc(.x)',
    'def addvalue($f): map(. + $f); addvalue(1)',
    'reduce .[] as $x (0; . + $x)',
    '"name: \\(.name | ascii_upcase) (\\(.id))"',
    '@base64 "x\\(.a)" | @sh',
    '.env, ."env", {env}',
    'try error("x") catch . | length',
    'to_entries | map("\\(.key)=\\(.value)") | .[]',
    'label $out | foreach .[] as $i (0; . + $i; if . > 3 then ., break $out else empty end)',
    '# a comment with env\n.a',
    '$__loc__',
    'paths(type == "number")',
  ])('%j', (filter) => {
    expect(jqFilterSafety(filter)).toMatchObject({ readOnly: true });
  });
});

describe('jq filters that reach the environment, modules or names not known', () => {
  test.each([
    ['$ENV.AWS_SECRET_ACCESS_KEY', ['$ENV']],
    ['env | keys', ['env']],
    ['{a: env.HOME}', ['env']],
    ['"\\(env.HOME)"', ['env']],
    ['{$ENV}', ['$ENV']],
    ['import "x" as x; x::f', ['import', 'unknown function x::f']],
    ['include "x"; .', ['include']],
    ['input_filename', ['input_filename']],
    ['get_search_list', ['get_search_list']],
    ['frobnicate(.)', ['unknown function frobnicate']],
    ['@evil "x"', ['@evil']],
    ['"unterminated', ['jq filter']],
    ['.a ` .b', ['jq filter']],
  ])('%j', (filter, constructs) => {
    expect(jqConstructs(filter)).toEqual(constructs);
    expect(jqFilterSafety(filter).readOnly).toBe(false);
  });
});
