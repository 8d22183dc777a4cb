import type { CommandView, EffectsResult } from '../../types.js';
import { UNKNOWN } from '../effect-helpers.js';
import type { ProgramModule } from '../module.js';
import { checkProgram } from '../read-only.js';
import { AZ_SPEC } from './spec.js';

/**
 * The files an az command touches: none named on its command line for the commands that only read the
 * service (no `@FILE` value, no option writing a file). az keeps its own state under ~/.azure (its profile,
 * token cache, logs, command index), as every run does; any other command's files are not worked out: unknown.
 */
function azEffects(cmd: CommandView): EffectsResult {
  return checkProgram(AZ_SPEC, cmd.argv, false, 'serviceRead').readOnly
    ? { effects: [], known: true }
    : UNKNOWN;
}

/** Azure CLI. Not installed where the effect oracle runs (a Python package), so it has no oracle cases. */
export const AZ: ProgramModule = {
  names: ['az'],
  spec: AZ_SPEC,
  effects: azEffects,
  network: () => true,
};
