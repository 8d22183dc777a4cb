import type { CommandView, EffectsResult } from '../../types.js';
import { credentialOptionNames } from '../credential-options.js';
import { NONE, option, UNKNOWN } from '../effect-helpers.js';
import type { ProgramModule } from '../module.js';
import { checkProgram } from '../read-only.js';
import { leadingText, syntheticWord } from '../words.js';
import { AWS_SPEC, loadedFile, valueText } from './spec.js';

/**
 * aws signs every request with the profile's credentials: an option that sends them to another endpoint, or
 * drops the check of whom they go to, reads them. argparse reads any unique prefix of a long option as the
 * option (`--endpoint` is `--endpoint-url`) and an ambiguous one is an error, so every prefix counts.
 */
const AWS_REDIRECTS = credentialOptionNames('aws');

/**
 * A read of the service or a manual touches no file of the user's (the CLI's own configuration it reads to sign
 * is not the agent's read) but the files its values name for the CLI to load (`--key file://key.json`): read,
 * and sent to the service in the request. Of any other command the files are not known here.
 */
function awsEffects(cmd: CommandView): EffectsResult {
  const at = cmd.argv.findIndex((w, i) => {
    const name = /^--[^=]+/.exec(leadingText(w))?.[0];
    return (
      i > 0 && name !== undefined && name.length > 2 && AWS_REDIRECTS.some((full) => full.startsWith(name))
    );
  });
  if (at >= 0) {
    return {
      effects: [option('read', syntheticWord('~/.aws/credentials', cmd.argv[at]!.span))],
      known: false,
    };
  }
  if (!checkProgram(AWS_SPEC, cmd.argv, false, 'serviceRead').readOnly) return UNKNOWN;
  const reads = cmd.argv.slice(1).flatMap((word) => {
    const path = loadedFile(valueText(word.value));
    return path === undefined ? [] : [option('read', syntheticWord(path, word.span))];
  });
  return reads.length === 0 ? NONE : { effects: reads, known: true };
}

/**
 * aws-cli: the global options from `aws help`, services and their read operations from the CLI's own command
 * tables (scripts/aws-commands.py), each read a service read (`serviceRead`), counted only where the settings
 * turn on reads of the user's services. `aws help` and the manuals of services and operations print only.
 */
export const AWS_MODULE: ProgramModule = {
  names: ['aws'],
  spec: AWS_SPEC,
  effects: awsEffects,
  oracle: {
    cases: ['aws help', 'aws s3 help', 'aws ec2 describe-instances help', 'aws sts help'],
  },
};
