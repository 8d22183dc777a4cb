import type { CommandView, NestedSpec } from '../types.js';
import { firstOperand, scriptNamed } from './interpreters.js';
import type { ProgramModule } from './module.js';
import { grammar, has, optionsNamed, optionText, parseOptions } from './options.js';
import { PACKAGE_RUNNER_RELOCATION } from './relocation.js';
import { PLAIN, packageCommand, packageRunner } from './runners.js';
import { codeIn, codeSpec, parseFailure, unresolved } from './specs.js';

const BUN = grammar({
  flags: 'hvb',
  values: 'eprc',
  long: 'eval=/e print=/p preload=/r require=/r import=/r config=/c cwd= env-file= help/h version/v revision bun/b',
  unlistedFlags: /./,
});

const BUN_INSTALL = new Set(['install', 'i', 'add', 'a', 'update', 'link', 'remove', 'rm', 'create', 'c']);
const BUN_INERT = new Set([
  'build',
  'upgrade',
  'init',
  'pm',
  'outdated',
  'publish',
  'patch',
  'info',
  'audit',
  'help',
]);

function bun(cmd: CommandView): NestedSpec[] {
  const parsed = parseOptions(cmd.argv, 1, BUN, { unknown: 'flag' });
  if (!parsed.ok) return [parseFailure('bun', parsed)];
  const code = optionsNamed(parsed, 'e', 'p').map((option) =>
    codeIn('interpreter-code', 'bun', optionText(option.name), option.value!),
  );
  if (code.length) return code;
  if (has(parsed, 'h', 'v', '--revision')) return [];
  const top = firstOperand(cmd, 1, BUN);
  const sub = top.operand;
  if (!sub) return [];
  if (!sub.static) return [unresolved('bun subcommand only known at run time', sub)];
  const index = cmd.argv.indexOf(sub);
  if (BUN_INERT.has(sub.value)) return [];
  if (sub.value === 'repl') return [codeSpec('stdin', 'bun', 'repl', sub)];
  if (BUN_INSTALL.has(sub.value)) return [codeSpec('script-file', 'bun', 'bun install', sub)];
  if (sub.value === 'x') {
    const found = firstOperand(cmd, index + 1, BUN);
    const at = found.operand && found.sure ? cmd.argv.indexOf(found.operand) : -1;
    return at < 0 ? [scriptNamed(cmd, 'bunx', found, sub)] : packageCommand(cmd, [at], 'bunx');
  }
  if (['run', 'test'].includes(sub.value)) {
    return [scriptNamed(cmd, `bun ${sub.value}`, firstOperand(cmd, index + 1, BUN), sub)];
  }
  return [scriptNamed(cmd, 'bun run', top, sub)];
}

export const BUN_MODULE: ProgramModule = {
  names: ['bun'],
  nested: bun,
  relocation: { values: ['--cwd', '--config', '-c', '--preload', '-r', '--filter', '-F'] },
  oracle: {
    cases: ['bun -e "1"', 'bun run build', 'bun index.ts', 'bun x rm -rf x', 'bun x cowsay@1'],
  },
};

/** bunx PKG ARGS: a plain name may be a program on the PATH, run as npx runs it. */
export const BUNX_MODULE: ProgramModule = {
  names: ['bunx'],
  nested: packageRunner('bunx', PLAIN, 1, true),
  relocation: PACKAGE_RUNNER_RELOCATION,
  oracle: { cases: ['bunx cowsay', 'bunx rm -rf x'] },
};
