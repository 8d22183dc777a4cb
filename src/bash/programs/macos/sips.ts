import type { ProgramModule } from '../module.js';
import { grammar } from '../options.js';
import { type ProgramSpec, readOnly } from '../program.js';

/**
 * sips(1), the scriptable image processing system: `-g`/`--getProperty` prints an image's properties,
 * `-1`/`--oneLine` prints them on one line, `--verify` checks a color profile, `-h`, `-H` and `--formats`
 * print help. Only those are listed: every other function writes the image back in place or to `--out`
 * (`-s`, `-d`, `-r`, `-f`, `-c`, `-p`, `-z`, `-Z`, `-i`, `-e`, `-E`, `-m`, `-M`, `--deleteTag`, `--repair`…),
 * writes a profile or tag to a file (`-x`, `-X`), or runs JavaScript (`-j`): unknown here, so asked.
 */
const SIPS = grammar({
  flags: '1hH',
  values: 'g',
  long: 'getProperty=/g oneLine/1 help/h helpProperties/H formats verify debug',
  abbreviate: false,
});

const spec: ProgramSpec = {
  name: 'sips',
  grammar: SIPS,
  readOnly: readOnly('g 1 h H --formats --verify --debug', 'files'),
};

/** sips: printing image properties. */
export const SIPS_MODULE: ProgramModule = {
  names: ['sips'],
  spec,
  network: () => false,
  oracle: { cases: ['sips -g all a.png', 'sips -s format jpeg a.png --out b.jpg'] },
};
