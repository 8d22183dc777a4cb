import { type Grammar, grammar } from './options.js';

/**
 * The options of a program that reads them with Go's flag package (terraform, packer): `-name` and `--name`
 * alike, a value attached or in the next word, no abbreviations; `-h`, `-help` and `--help` are reported as
 * `help`. Written `NAME` for a flag, `NAME=` for an option with a value, `NAME?` for a boolean flag also given a
 * value (`-write=false`: only attached, as the flag package reads it), `NAME/REPORT` to report it under another
 * name.
 */
export function goFlagGrammar(notation: string): Grammar {
  const words = `${notation} h/help help`
    .split(' ')
    .filter(Boolean)
    .flatMap((entry) => {
      const [written, report] = entry.split('/') as [string, string | undefined];
      const name = written.replace(/[=?]$/, '');
      const marker = /[=?]$/.test(written) ? written.at(-1) : '';
      const as = report ?? name;
      return [`-${name}${marker}/${as}`, `--${name}${marker}/${as}`];
    })
    .join(' ');
  return grammar({ words, abbreviate: false });
}
