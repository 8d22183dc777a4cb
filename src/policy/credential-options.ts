import { CREDENTIAL_REDIRECTS, familySpec } from '../bash/index.js';
import type { CommandViews } from './bash-match.js';

/** The index of the first word that is such an option, or undefined. */
export function credentialRedirect(v: CommandViews): number | undefined {
  const table = Object.hasOwn(CREDENTIAL_REDIRECTS, v.program) ? CREDENTIAL_REDIRECTS[v.program] : undefined;
  if (!table) return undefined;
  for (let i = 1; i < v.values.length; i++) {
    const word = v.values[i]!;
    // az reads `@FILE` into any argument, even after `--`.
    if (table.fileValues && /^@|^-[A-Za-z]@|^--[\w-]+=@/.test(word)) return i;
    if (word === '--') break;
    if (word.startsWith('--')) {
      const name = word.slice(2).split('=')[0]!;
      if (table.exact) {
        if (table.long.includes(name)) return i;
        continue;
      }
      // A prefix may be read as the whole name (getopt_long, argparse): fail closed on any prefix of three or more
      // but an option the program has by that very name.
      if (table.whole?.includes(name)) continue;
      if (name.length >= 3 && table.long.some((option) => option.startsWith(name))) return i;
      continue;
    }
    if (table.short && /^-[^-]/.test(word) && clusterHas(word, table.short, v.program)) return i;
  }
  return undefined;
}

/** Whether a cluster of short options (`-As`, `-sx`) holds `letter` before any option that takes the rest as its value. */
function clusterHas(word: string, letter: string, program: string): boolean {
  const values = familySpec(program)?.grammar.values ?? '';
  for (const c of word.slice(1)) {
    if (c === letter) return true;
    if (c === '=' || values.includes(c)) return false;
  }
  return false;
}
