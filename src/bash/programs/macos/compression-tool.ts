import { fileCommand, UNKNOWN } from '../effect-helpers.js';
import type { ProgramModule } from '../module.js';
import { grammar, has } from '../options.js';
import { type ProgramSpec, readOnly } from '../program.js';
import { checkProgram } from '../read-only.js';

/**
 * compression_tool(1), macOS's front end to the Compression library: `-encode` or `-decode` the file `-i`
 * names (standard input by default) to standard output, with the algorithm (`-a`, `-A`) and block size (`-b`)
 * chosen; `-h` prints the usage. `-o FILE` writes the result to a file: not listed.
 */
const COMPRESSION_TOOL = grammar({ words: '-encode -decode -i= -o= -a= -A= -b= -v -h', abbreviate: false });

const spec: ProgramSpec = {
  name: 'compression_tool',
  grammar: COMPRESSION_TOOL,
  readOnly: readOnly('-encode -decode -i -a -A -b -v -h', 'none', {
    check: (parsed) =>
      has(parsed, '-encode', '-decode', '-h') ? undefined : 'compression_tool without -encode or -decode',
    why: { '-o': 'writes the result to a file' },
  }),
};

const files = fileCommand({ grammar: COMPRESSION_TOOL, fileOptions: { '-i': 'read' }, operands: () => [] });

/** compression_tool: compressing or expanding a file to stdout. */
export const COMPRESSION_TOOL_MODULE: ProgramModule = {
  names: ['compression_tool'],
  spec,
  effects: (cmd) => (checkProgram(spec, cmd.argv, false).readOnly ? files(cmd) : UNKNOWN),
  network: () => false,
  oracle: { cases: ['compression_tool -encode -i a.txt', 'compression_tool -encode -i a.txt -o a.lzfse'] },
};
