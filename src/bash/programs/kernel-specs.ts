import type { Word } from '../types.js';
import { grammar, type Parsed } from './options.js';
import { everyOption, type ProgramSpec, readOnly } from './program.js';

/**
 * sysctl reading kernel variables by name: the options procps-ng's `sysctl --help` lists that only shape
 * what is printed (macOS's sysctl(8) reads `-n`, `-N`, `-e`, `-b`, `-d`, `-o`, `-x` the same way or rejects
 * them). Never `-w`, `-p`/`-f`/`--load`, `--system`, nor `NAME=VALUE` (each writes a variable), nor `-a`:
 * on Linux every variable includes `net.ipv6.conf.*.stable_secret`, a key.
 */
const SYSCTL = grammar({
  flags: 'bdeNnoxhV',
  values: 'r',
  long:
    'binary/b ignore/e names/N values/n pattern=/r deprecated help/h version/V all/a load?/p system write/w ' +
    'dry-run quiet/q',
  abbreviate: false,
});

function sysctlNames(parsed: Parsed, words: readonly Word[]): string | undefined {
  if (parsed.operands.length === 0) return 'sysctl without a variable lists every one';
  for (const index of parsed.operands) {
    const word = words[index]!;
    if (!word.static || !/^[A-Za-z0-9_.-]+$/.test(word.value))
      return `sysctl ${word.text} may set a variable`;
    if (/secret/i.test(word.value)) return `sysctl ${word.text} prints a key`;
  }
  return undefined;
}

/**
 * ifconfig with at most one interface shows it; any further word sets an address, flag or option of it. The
 * options net-tools' `ifconfig --help` lists: `-a` (every interface), `-s` (a short list), `-v`.
 */
const IFCONFIG = grammar({ flags: 'asv', abbreviate: false });

export const KERNEL_SPECS: readonly ProgramSpec[] = [
  {
    name: 'sysctl',
    grammar: SYSCTL,
    readOnly: readOnly('b d e N n o x h V --deprecated', 'inert', { check: sysctlNames }),
  },
  {
    name: 'ifconfig',
    grammar: IFCONFIG,
    readOnly: readOnly(() => everyOption(IFCONFIG), 'inert', { maxOperands: 1 }),
  },
];
