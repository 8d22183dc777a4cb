import { type Assignment, type CommandView, DYN, type DynamicKind, type Word } from '../../src/bash/types.js';

/** A static word: its value is its text. Spans are fake but distinct within one command. */
export function word(text: string, value = text): Word {
  return { text, value, static: true, dynamic: [], span: { start: 0, end: text.length } };
}

/** A word known only at run time: `dyn('"$x"')`, `dyn('-u$U', '-u⟨$⟩')`, `dyn('*.py', '*.py', ['glob'])`. */
export function dyn(text: string, value = DYN, kinds: DynamicKind[] = ['parameter']): Word {
  return { text, value, static: false, dynamic: kinds, span: { start: 0, end: text.length } };
}

/** Places the words one after another, a space apart, so that every span is distinct. */
export function layout(items: (string | Word)[]): Word[] {
  let offset = 0;
  return items.map((item) => {
    const base = typeof item === 'string' ? word(item) : item;
    const span = { start: offset, end: offset + base.text.length };
    offset = span.end + 1;
    return { ...base, span };
  });
}

export function assignment(name: string, value: string | Word): Assignment {
  const v = typeof value === 'string' ? word(value) : value;
  return {
    name,
    append: false,
    value: v,
    array: false,
    span: { start: 0, end: name.length + 1 + v.text.length },
  };
}

/** A command view as the analyzer builds it: program is the basename of a static first word. */
export function command(items: (string | Word)[], assignments: Assignment[] = []): CommandView {
  const argv = layout(items);
  const first = argv[0];
  const program = first?.static ? first.value.slice(first.value.lastIndexOf('/') + 1) : '';
  return { argv, assignments, program };
}
