import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Classifier } from '../../src/classifier/index.js';
import { caseClassifier, makeSandbox, removeSandbox, type Sandbox } from './helpers.js';

/**
 * Property: adding a denied command anywhere in a compound command (any position, any nesting, any spelling)
 * never yields allow, and yields deny whenever the analysis is not opaque. The allow rules are broad enough that
 * a naive prefix matcher would allow most of the generated commands.
 */

const SEED = 20_261_104;
const RUNS = 400;

const SETTINGS = {
  permissions: {
    allow: [
      'Bash(git status *)',
      'Bash(npm test)',
      'Bash(echo *)',
      'Bash(ls *)',
      'Bash(cat *)',
      'Bash(sudo *)',
      'Bash(timeout *)',
      'Bash(bash *)',
      'Bash(sh *)',
      'Bash(xargs *)',
      'Bash(eval *)',
      'Bash(find *)',
      'Bash(git *)',
      'Bash(env *)',
      'Bash(nice *)',
    ],
    deny: ['Bash(rm -rf *)'],
  },
};

/** Allowed leaves: each is allowed on its own by a rule or the read-only defaults. */
const ALLOWED = ['git status', 'npm test', 'echo hi', 'ls -la', 'git status --short', 'cat README.md'];

/** The denied command `rm -rf /tmp/x`, spelled and carried in different ways; each is a complete command. */
const DENIED = [
  'rm -rf /tmp/x',
  'rm -fr /tmp/x',
  'rm -r -f /tmp/x',
  'rm --recursive --force /tmp/x',
  '/bin/rm -rf /tmp/x',
  '\\rm -r -f /tmp/x',
  "'rm' -rf /tmp/x",
  'sudo rm -rf /tmp/x',
  'sudo -u bob rm -rf /tmp/x',
  'timeout 5 rm -rf /tmp/x',
  "bash -c 'rm -rf /tmp/x'",
  "sh -c 'rm -fr /tmp/x'",
  'echo $(rm -rf /tmp/x)',
  'echo "$(rm -rf /tmp/x)"',
  'echo `rm -rf /tmp/x`',
  '{ cat <<EOF\n$(rm -rf /tmp/x)\nEOF\n}',
  '{ f() { rm -rf /tmp/x; }; f; }',
  'echo /tmp/x | xargs rm -rf',
  "eval 'rm -rf /tmp/x'",
  'env FOO=1 rm -rf /tmp/x',
  'nice -n 5 nohup rm -rf /tmp/x',
  'find /tmp -name x -exec rm -rf {} \\;',
  "git -c core.pager='rm -rf /tmp/x' log",
  "PAGER='rm -rf /tmp/x' git log",
  "trap 'rm -rf /tmp/x' EXIT",
  "{ bash <<'EOF'\nrm -rf /tmp/x\nEOF\n}",
  "alias ll='rm -rf /tmp/x'",
];

const LIST_OPS = [' && ', ' || ', '; ', ' & ', '\n', ' | ', ' |& '];

const WRAPS = [
  'subshell',
  'group',
  'cmdsub',
  'backtick',
  'bash-c',
  'sudo-sh-c',
  'eval',
  'if',
  'for',
  'while',
  'case',
  'function',
  'time',
  'background',
  'procsub',
] as const;

type Tree =
  | { t: 'leaf'; leaf: number }
  | { t: 'list'; op: number; a: Tree; b: Tree }
  | { t: 'wrap'; kind: number; a: Tree };

function sq(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

function leaves(tree: Tree): number {
  if (tree.t === 'leaf') return 1;
  if (tree.t === 'list') return leaves(tree.a) + leaves(tree.b);
  return leaves(tree.a);
}

/** Renders the tree; the leaf numbered `denied` (in render order) becomes DENIED[variant]. */
function render(tree: Tree, denied: number, variant: number): string {
  let index = 0;
  let fn = 0;
  const go = (t: Tree): string => {
    switch (t.t) {
      case 'leaf': {
        const mine = index++;
        return mine === denied ? DENIED[variant]! : ALLOWED[t.leaf]!;
      }
      case 'list':
        return `${go(t.a)}${LIST_OPS[t.op]}${go(t.b)}`;
      case 'wrap': {
        const inner = go(t.a);
        switch (WRAPS[t.kind]!) {
          case 'subshell':
            return `( ${inner} )`;
          case 'group':
            return `{ ${inner}; }`;
          case 'cmdsub':
            return `echo $(${inner})`;
          case 'backtick':
            // Backticks cannot nest without escaping and mis-parse with newlines: keep them around simple text.
            return /[`\n\\]/.test(inner) ? `echo $(${inner})` : `echo \`${inner}\``;
          case 'bash-c':
            return `bash -c ${sq(inner)}`;
          case 'sudo-sh-c':
            return `sudo sh -c ${sq(inner)}`;
          case 'eval':
            return `eval ${sq(inner)}`;
          case 'if':
            return `if ${inner}; then git status; fi`;
          case 'for':
            return `for i in 1 2; do ${inner}; done`;
          case 'while':
            return `while ${inner}; do break; done`;
          case 'case':
            return `case a in a) ${inner};; esac`;
          case 'function': {
            const name = `g${fn++}`;
            return `${name}() { ${inner}; }; ${name}`;
          }
          case 'time':
            return `time { ${inner}; }`;
          case 'background':
            return `{ ${inner}; } &`;
          case 'procsub':
            return `cat <(${inner})`;
        }
      }
    }
    throw new Error('unreachable');
  };
  return go(tree);
}

const leafArb: fc.Arbitrary<Tree> = fc.record({
  t: fc.constant('leaf' as const),
  leaf: fc.nat(ALLOWED.length - 1),
});

const treeArb: fc.Arbitrary<Tree> = fc.letrec<{ tree: Tree }>((tie) => ({
  tree: fc.oneof(
    { maxDepth: 4, depthIdentifier: 'tree' },
    { arbitrary: leafArb, weight: 3 },
    {
      arbitrary: fc.record({
        t: fc.constant('list' as const),
        op: fc.nat(LIST_OPS.length - 1),
        a: tie('tree'),
        b: tie('tree'),
      }),
      weight: 3,
    },
    {
      arbitrary: fc.record({
        t: fc.constant('wrap' as const),
        kind: fc.nat(WRAPS.length - 1),
        a: tie('tree'),
      }),
      weight: 3,
    },
  ),
})).tree;

const caseArb = fc
  .record({ tree: treeArb, position: fc.nat(1_000), variant: fc.nat(DENIED.length - 1) })
  .map(({ tree, position, variant }) => ({
    command: render(tree, position % leaves(tree), variant),
    clean: render(tree, -1, 0),
  }));

describe('property: a denied command anywhere in a compound is never allowed', () => {
  let box: Sandbox;
  let classifier: Classifier;

  beforeAll(async () => {
    box = await makeSandbox();
    classifier = await caseClassifier(box, SETTINGS);
    expect(classifier.settings.failed).toEqual([]);
  });
  afterAll(async () => {
    await removeSandbox(box);
  });

  it('the settings allow the plain leaves and deny the plain rm', async () => {
    for (const leaf of ALLOWED) {
      expect((await classifier.classify({ tool: 'Bash', input: { command: leaf } })).decision, leaf).toBe(
        'allow',
      );
    }
    const rm = await classifier.classify({ tool: 'Bash', input: { command: 'rm -rf /tmp/x' } });
    expect(rm.decision).toBe('deny');
  });

  it('never allow; deny unless the analysis is opaque', async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, async ({ command }) => {
        const verdict = await classifier.classify({ tool: 'Bash', input: { command } });
        const opaque = verdict.analysis?.opaque ?? true;
        const detail = `${JSON.stringify(command)} -> ${verdict.decision} (${verdict.by}: ${verdict.reason})`;
        expect(verdict.decision, detail).not.toBe('allow');
        if (!opaque) expect(verdict.decision, detail).toBe('deny');
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('control: the same compounds without the denied command are never denied', async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, async ({ clean }) => {
        const verdict = await classifier.classify({ tool: 'Bash', input: { command: clean } });
        const detail = `${JSON.stringify(clean)} -> ${verdict.decision} (${verdict.by}: ${verdict.reason})`;
        expect(verdict.decision, detail).not.toBe('deny');
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});
