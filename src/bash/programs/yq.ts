import type { Word } from '../types.js';
import { type EffectHandler, each, NONE, option, UNKNOWN } from './effect-helpers.js';
import { jqFilterSafety } from './jq/filter.js';
import type { ProgramModule } from './module.js';
import { grammar, has, operandWords, optionsNamed, type Parsed, parseOptions } from './options.js';
import { type ProgramSpec, readOnly } from './program.js';
import { is } from './words.js';

/** mikefarah's yq (Go); `yq e` and `yq eval` name the default subcommand. */
const YQ = grammar({
  flags: 'inPCMeNrj0vhVc',
  values: 'pIosS',
  long:
    'inplace/i null-input/n prettyPrint/P colors/C no-colors/M exit-status/e no-doc/N unwrapScalar? ' +
    'tojson/j nul-output/0 verbose/v help/h version/V input-format=/p output-format=/o indent=/I ' +
    'from-file= expression= front-matter= split-exp=/s csv-separator= xml-attribute-prefix= ' +
    'xml-content-name= lua-prefix= lua-unquoted properties-separator= header-preprocess? no-header',
  unlistedFlags: /./,
  abbreviate: false,
});

const YQ_SUBCOMMANDS = new Set(['e', 'eval', 'ea', 'eval-all']);

function yqProblem(parsed: Parsed, words: readonly Word[]): string | undefined {
  if (has(parsed, 'h', 'V')) return undefined;
  const operands = parsed.operands.map((index) => words[index]!);
  const first = operands[0]?.static && YQ_SUBCOMMANDS.has(operands[0].value) ? 1 : 0;
  const expression = operands[first];
  if (!expression) return undefined;
  if (!expression.static) return `yq expression ${expression.text} is only known at run time`;
  return jqFilterSafety(expression.value).reason?.replace(/^jq filter/, 'yq expression');
}

const spec: ProgramSpec = {
  name: 'yq',
  grammar: YQ,
  readOnly: readOnly(
    'P C M e N r j 0 v h V p o I --unwrapScalar --csv-separator --xml-attribute-prefix --xml-content-name ' +
      '--header-preprocess --no-header',
    'files',
    {
      check: yqProblem,
      why: {
        i: 'can write or run programs',
        s: 'writes a file for every document',
        '--from-file': 'reads its expression from a file',
      },
    },
  ),
};

/** yq [eval|eval-all] EXPRESSION [FILES]; -i writes the files in place. */
const effects: EffectHandler = (cmd) => {
  const start = is(cmd.argv[1], 'e', 'eval', 'ea', 'eval-all') ? 2 : 1;
  const parsed = parseOptions(cmd.argv, start, YQ, { permute: true, unknown: 'flag', dynamic: 'operand' });
  if (!parsed.ok) return UNKNOWN;
  if (has(parsed, 'h', 'V')) return NONE;
  const operands = operandWords(cmd.argv, parsed);
  const expressionGiven = has(parsed, '--from-file', '--expression') || has(parsed, 'n');
  const files = expressionGiven ? operands : operands.slice(1);
  const effects = [
    ...optionsNamed(parsed, '--from-file').map((found) => option('read', found.value!)),
    ...each(has(parsed, 'i') ? 'write' : 'read', files),
  ];
  return { effects, known: parsed.unknown.length === 0 && parsed.suspects.length === 0 };
};

export const YQ_MODULE: ProgramModule = {
  names: ['yq'],
  spec,
  effects,
  oracle: {
    cases: [
      'yq .a a.yaml',
      'yq e .a a.yaml b.yaml',
      'yq eval-all . a.yaml b.yaml',
      'yq -i .a=1 a.yaml',
      'yq --from-file prog.yq a.yaml',
      'yq -n .a=1',
      'yq -s .a a.yaml',
      "yq -n 'env(HOME)'",
    ],
  },
};
