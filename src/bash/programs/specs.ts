import type { Assignment, CodeExecution, CommandView, NestedSpec, Span, Word } from '../types.js';
import type { ParseResult } from './options.js';

export type Handler = (cmd: CommandView) => NestedSpec[];

export function argvSpec(
  words: Word[],
  via: string,
  options: { kind?: 'wrapper' | 'option'; extraArgs?: boolean; assignments?: Assignment[] } = {},
): NestedSpec {
  return {
    kind: 'argv',
    words,
    link: { kind: options.kind ?? 'wrapper', via, ...(options.extraArgs ? { extraArgs: true } : {}) },
    ...(options.assignments?.length ? { assignments: options.assignments } : {}),
  };
}

export function shellSpec(script: Word, via: string, extraArgs = false): NestedSpec {
  return { kind: 'shell', script, via, ...(extraArgs ? { extraArgs: true } : {}) };
}

export function codeSpec(
  kind: CodeExecution['kind'],
  program: string,
  via: string,
  at: Word | Span,
  code?: string,
): NestedSpec {
  const span = 'span' in at ? at.span : at;
  return {
    kind: 'code',
    exec: { kind, program, via, ...(code === undefined ? {} : { code }), span: { ...span } },
  };
}

/** Code carried by a word: its text when static. */
export function codeIn(kind: CodeExecution['kind'], program: string, via: string, word: Word): NestedSpec {
  return codeSpec(kind, program, via, word, word.static ? word.value : undefined);
}

export function unresolved(reason: string, at: Word | Span): NestedSpec {
  const span = 'span' in at ? at.span : at;
  return { kind: 'unresolved', reason, span: { ...span } };
}

export function parseFailure(program: string, parsed: ParseResult & { ok: false }): NestedSpec {
  return unresolved(`${program}: ${parsed.reason}`, parsed.span);
}
