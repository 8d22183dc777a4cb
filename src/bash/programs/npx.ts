import type { CommandView, NestedSpec } from '../types.js';
import type { ProgramModule } from './module.js';
import { grammar, lastValue, parseOptions } from './options.js';
import { PACKAGE_RUNNER_RELOCATION } from './relocation.js';
import { packageCommand } from './runners.js';
import { parseFailure, shellSpec } from './specs.js';

const NPX = grammar({
  flags: 'yq',
  values: 'pc',
  long: 'package=/p call=/c yes/y no quiet/q shell= workspace= prefix=',
  unlistedFlags: /./,
});

/** npx PKG ARGS runs a package's binary, possibly downloaded; `-c STRING` runs STRING with a shell. */
export function npx(cmd: CommandView, start = 1, via = 'npx'): NestedSpec[] {
  const parsed = parseOptions(cmd.argv, start, NPX, { unknown: 'flag' });
  if (!parsed.ok) return [parseFailure(cmd.program, parsed)];
  const call = lastValue(parsed, 'c');
  if (call) return [shellSpec(call, `${via} -c`)];
  return packageCommand(cmd, parsed.operands, via);
}

export const NPX_MODULE: ProgramModule = {
  names: ['npx'],
  nested: (cmd) => npx(cmd),
  relocation: PACKAGE_RUNNER_RELOCATION,
  oracle: {
    cases: ['npx -c "cat .env"', 'npx rm -rf x', 'npx -p typescript tsc', 'npx cowsay@1.2'],
  },
};

/** pnpx, pnpm's old npx. */
export const PNPX_MODULE: ProgramModule = {
  names: ['pnpx'],
  nested: (cmd) => npx(cmd, 1, 'pnpx'),
  relocation: PACKAGE_RUNNER_RELOCATION,
};
