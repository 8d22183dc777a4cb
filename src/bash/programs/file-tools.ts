import { grammar } from './options.js';
import type { ProgramSpec } from './program.js';

const HELP = 'help version';

export const MV = grammar({
  flags: 'bfinuvTZ',
  values: 'St',
  long:
    'backup? debug exchange force/f interactive/i no-clobber/n no-copy strip-trailing-slashes suffix=/S ' +
    `target-directory=/t no-target-directory/T update? verbose/v context/Z ${HELP}`,
});

export const RM = grammar({
  flags: 'fiIrRdv',
  long: `force/f interactive? one-file-system no-preserve-root preserve-root? recursive/r dir/d verbose/v ${HELP}`,
  implies: { R: 'r' },
});

/** chmod MODE FILE: a mode may start with `-` (`chmod -x f`); chmod's getopt reads its letters as options. */
export const CHMOD = grammar({
  flags: 'cfvR',
  optional: 'rwxXstugoa,+=01234567',
  long: `changes/c silent/f quiet/f verbose/v no-preserve-root preserve-root recursive/R reference= ${HELP}`,
});

export const CHOWN = grammar({
  flags: 'cfvRHLPh',
  long:
    'changes/c silent/f quiet/f verbose/v dereference no-dereference/h from= no-preserve-root preserve-root ' +
    `recursive/R reference= ${HELP}`,
});

/** mkfs and its dotted variants (`mkfs.ext4`): deny and ask rules on `mkfs` see them all. */
const MKFS = grammar({ flags: 'Vvh', values: 't', long: 'type=/t verbose/V help/h version' });

export const CHGRP = grammar({
  flags: 'cfvRHLPh',
  long:
    'changes/c silent/f quiet/f verbose/v dereference no-dereference/h no-preserve-root preserve-root ' +
    `recursive/R reference= ${HELP}`,
});

export const FILE_TOOL_SPECS: readonly ProgramSpec[] = [
  { name: 'mkfs', dottedVariants: true, grammar: MKFS },
  { name: 'mv', grammar: MV },
  { name: 'rm', grammar: RM },
  { name: 'chmod', grammar: CHMOD },
  { name: 'chown', grammar: CHOWN },
  { name: 'chgrp', grammar: CHGRP },
];
