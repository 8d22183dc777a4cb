import type { CommandView, EffectsResult } from '../../types.js';
import { UNKNOWN } from '../effect-helpers.js';
import type { ProgramModule } from '../module.js';
import { checkProgram } from '../read-only.js';
import { GCLOUD_SPEC } from './spec.js';

/**
 * The files a gcloud command touches: none named on its command line for the commands that only read the
 * service. gcloud keeps its own state under ~/.config/gcloud (the active configuration's name, an empty default
 * configuration, the cached answer whether it runs on Compute Engine, the survey prompt's date, a log of every
 * run under logs/), as every run does; any other command's files are not worked out: unknown.
 */
function gcloudEffects(cmd: CommandView): EffectsResult {
  return checkProgram(GCLOUD_SPEC, cmd.argv, false, 'serviceRead').readOnly
    ? { effects: [], known: true }
    : UNKNOWN;
}

/** Google Cloud CLI. */
export const GCLOUD: ProgramModule = {
  names: ['gcloud'],
  spec: GCLOUD_SPEC,
  effects: gcloudEffects,
  network: () => true,
  oracle: {
    cases: [
      'gcloud version',
      'gcloud info --anonymize',
      'gcloud auth list',
      'gcloud config get project',
      'gcloud config list core',
      'gcloud config configurations list',
      'gcloud compute instances list --format=json',
      'gcloud --project demo compute zones list --limit 5',
      'gcloud projects describe demo',
      'gcloud storage buckets list',
    ],
  },
};
