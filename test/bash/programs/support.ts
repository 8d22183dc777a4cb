import { analyze } from '../../../src/bash/analyze.js';
import { optionNames } from '../../../src/bash/programs/options.js';
import type { SubcommandSpec } from '../../../src/bash/programs/program.js';

/** The first command of a line as the tests compare it: whether its effects are known, its files, its code. */
export function shown(line: string): { known: boolean; effects: string[]; code: string[] } {
  const cmd = analyze(line).commands[0]!;
  return {
    known: cmd.effectsKnown,
    effects: cmd.effects.map((e) => `${e.access} ${e.path.value}`),
    code: cmd.executes.map((e) => `${e.kind} ${e.via}`),
  };
}

export interface OptionLine {
  line: string;
  /** The subcommand words, space-separated. */
  path: string;
  /** The option's name as the grammar reports it. */
  option: string;
}

/**
 * A command line for every option of every level of a spec, an option taking a value given `v.txt`:
 * `leavesOnly` walks the options of the last level only (docker's upper levels take none of their own).
 */
export function optionLines(program: string, root: SubcommandSpec, leavesOnly: boolean): OptionLine[] {
  const lines: OptionLine[] = [];
  const walk = (spec: SubcommandSpec, path: string[]) => {
    if (!leavesOnly || !spec.subcommands) {
      for (const name of optionNames(spec.grammar)) {
        const arity = name.startsWith('--')
          ? spec.grammar.long.get(name.slice(2))?.arity
          : spec.grammar.values.includes(name)
            ? 'value'
            : 'flag';
        const written = name.startsWith('--') ? name : `-${name}`;
        const option = arity === 'value' ? `${written}=v.txt` : written;
        const tail = spec.subcommands ? '' : ' a b';
        lines.push({
          line: `${program} ${path.join(' ')} ${option}${tail}`,
          path: path.join(' '),
          option: name,
        });
      }
    }
    for (const [name, sub] of Object.entries(spec.subcommands ?? {})) walk(sub, [...path, name]);
  };
  walk(root, []);
  return lines;
}
