import type { ProgramModule } from '../module.js';
import { grammar } from '../options.js';
import { type ProgramSpec, readOnly } from '../program.js';

/**
 * symbols(1), from Apple's developer tools: prints the symbols of binaries (or of a running process by pid),
 * with `-arch`, `-uuid`, `-lookup ADDRESS|NAME`, `-printSignature` and the output switches its usage text
 * lists. Not `-saveSignature FILE` (writes a file) nor `-symbolsPackageDir` (writes a symbols package): unknown
 * here, so asked. A binary outside the working folder is a read decided by its path.
 */
const SYMBOLS = grammar({
  words: '-help -h -v -w -arch= -uuid -noHeaders -noSources -noDemangling -lookup= -printSignature',
  abbreviate: false,
});

const spec: ProgramSpec = {
  name: 'symbols',
  grammar: SYMBOLS,
  permute: true,
  readOnly: readOnly(
    '-help -h -v -w -arch -uuid -noHeaders -noSources -noDemangling -lookup -printSignature',
    'files',
  ),
};

/** symbols: printing a binary's symbols. */
export const SYMBOLS_MODULE: ProgramModule = {
  names: ['symbols'],
  spec,
  network: () => false,
  oracle: { cases: ['symbols -uuid a.out', 'symbols -saveSignature sig a.out'] },
};
