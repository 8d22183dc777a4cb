import type { ProgramModule } from '../module.js';
import { grammar, has } from '../options.js';
import { type ProgramSpec, readOnly } from '../program.js';

/**
 * mdimport(1), Spotlight's importer: `-t` runs the importers over the files and prints what they find
 * without storing it (`-d1` to `-d3` say how much), `-L` lists the importer plugins, `-A` the attributes and
 * `-X` the schema. Without `-t`, files are imported into the Spotlight index; `-r` reimports, `-i` asks for
 * indexing, `-o` writes the attributes to a file and `-g` loads another plugin's code: none is listed.
 */
const MDIMPORT = grammar({ flags: 'tLAXrip', values: 'dgo', abbreviate: false });

const spec: ProgramSpec = {
  name: 'mdimport',
  grammar: MDIMPORT,
  readOnly: readOnly('t d L A X', 'files', {
    check: (parsed) =>
      parsed.operands.length === 0 || has(parsed, 't')
        ? undefined
        : 'mdimport without -t imports into the index',
    why: {
      r: 'reimports files into the index',
      i: 'asks Spotlight to index the files',
      o: 'writes the attributes to a file',
      g: "loads another plugin's code",
    },
  }),
};

/** mdimport: testing importers and listing Spotlight's schema. */
export const MDIMPORT_MODULE: ProgramModule = {
  names: ['mdimport'],
  spec,
  network: () => false,
  oracle: { cases: ['mdimport -t -d2 a.txt', 'mdimport a.txt'] },
};
