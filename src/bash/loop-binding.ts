import type { SyntaxNode as Node } from './syntax.js';
import type { Word } from './types.js';
import { spanOf } from './words.js';

/**
 * `for f in src/*.ts; do wc -l "$f"; done`: inside the body, `"$f"` is one of the loop's words, so a command
 * reading it reads what the words name. The binding holds only while nothing in the body can give the variable
 * another value or change where a relative name leads: every command there is a program (a bash builtin only
 * when it assigns no variable and changes no state), no assignment, declaration, `unset`, arithmetic or `${f=…}`
 * names the variable, and no function is defined or called.
 */
export interface LoopBinding {
  name: string;
  /** The loop's words, each static or a glob (a file name it matches, or the pattern itself). */
  words: readonly Word[];
}

/** Words a loop is unrolled over at most, across nested loops. */
export const MAX_UNROLLED = 8;

/** Builtins and keywords of bash 5 (`compgen -b`, `compgen -k`): a command of such a name is not a program. */
export const BASH_BUILTINS: ReadonlySet<string> = new Set(
  (
    '. : [ alias bg bind break builtin caller cd command compgen complete compopt continue declare dirs disown ' +
    'echo enable eval exec exit export false fc fg getopts hash help history jobs kill let local logout mapfile ' +
    'popd printf pushd pwd read readarray readonly return set shift shopt source suspend test times trap true ' +
    'type typeset ulimit umask unalias unset wait ! [[ ]] { } case coproc do done elif else esac fi for function ' +
    'if in select then time until while'
  ).split(' '),
);

/** Builtins that assign no variable and change no shell state (printf without `-v`). */
const INERT_BUILTINS = new Set(['echo', 'printf', 'test', '[', 'true', 'false', ':', 'break', 'continue']);

const NAME = /^[A-Za-z_]\w*$/;

/**
 * The binding a `for` loop gives its variable in its body, or undefined when the body could change it or a word
 * is not one the binding can stand for. `functions`: the functions defined so far on the line.
 */
export function loopBinding(
  variable: Node,
  words: readonly Word[],
  body: Node,
  functions: readonly string[],
): LoopBinding | undefined {
  const name = variable.text;
  if (!NAME.test(name) || words.length === 0) return undefined;
  if (!words.every((w) => w.static || w.dynamic.every((k) => k === 'glob'))) return undefined;
  return keepsValue(body, name, new Set(functions)) ? { name, words } : undefined;
}

function keepsValue(node: Node, name: string, functions: ReadonlySet<string>): boolean {
  switch (node.type) {
    case 'declaration_command':
    case 'unset_command':
    case 'function_definition':
      return false;
    case 'command':
      if (!runsProgramOrInert(node, functions)) return false;
      break;
    case 'variable_name':
      if (node.text === name && !readsOnly(node)) return false;
      break;
  }
  for (const child of node.namedChildren) if (child && !keepsValue(child, name, functions)) return false;
  return true;
}

/** `$f`, `${f}` and `${f…}` forms that do not assign (`${f=x}`, `${f:=x}` do). */
function readsOnly(node: Node): boolean {
  const parent = node.parent;
  if (parent?.type === 'simple_expansion') return true;
  if (parent?.type !== 'expansion') return false;
  return !/^\$\{[A-Za-z_]\w*:?=/.test(parent.text);
}

function runsProgramOrInert(node: Node, functions: ReadonlySet<string>): boolean {
  const nameNode = node.childForFieldName('name');
  const word = nameNode?.namedChild(0);
  if (word?.type !== 'word') return false;
  const program = word.text;
  if (functions.has(program)) return false;
  if (!BASH_BUILTINS.has(program)) return true;
  if (!INERT_BUILTINS.has(program)) return false;
  if (program !== 'printf') return true;
  return !node.namedChildren.some((c) => c?.type !== 'command_name' && /^-\w*v/.test(c?.text ?? ''));
}

/**
 * The word a loop binding gives `"$f"` or `"${f}"` written as a whole word, or undefined. Unquoted, the value
 * would be split and globbed again, so `$f` stays a value only known at run time.
 */
export function boundWord(node: Node, bound: ReadonlyMap<string, Word>): Word | undefined {
  if (node.type !== 'string' || node.namedChildCount !== 1) return undefined;
  const m = /^"\$(?:([A-Za-z_]\w*)|\{([A-Za-z_]\w*)\})"$/.exec(node.text);
  const name = m?.[1] ?? m?.[2];
  const word = name === undefined ? undefined : bound.get(name);
  if (!word) return undefined;
  return {
    text: node.text,
    value: word.value,
    static: word.static,
    dynamic: [...word.dynamic],
    span: spanOf(node),
  };
}
