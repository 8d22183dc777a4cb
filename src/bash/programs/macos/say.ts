import { fileCommand, UNKNOWN } from '../effect-helpers.js';
import type { ProgramModule } from '../module.js';
import { grammar } from '../options.js';
import { type ProgramSpec, readOnly } from '../program.js';
import { checkProgram } from '../read-only.js';

/**
 * say(1), macOS's text-to-speech: speaks its words, or the file `-f` names (standard input when neither),
 * with the voice (`-v`, `-v ?` lists them), rate and audio device chosen. Not `-o`/`--output-file` (writes
 * the audio to a file), `-n`/`--network-send` (sends it to another machine), nor the file-format options
 * that only go with `-o`.
 */
const SAY = grammar({
  values: 'vrfao',
  long: 'voice=/v rate=/r input-file=/f audio-device=/a output-file=/o progress',
  abbreviate: false,
});

const spec: ProgramSpec = {
  name: 'say',
  grammar: SAY,
  readOnly: readOnly('v r f a --progress', 'inert', { why: { o: 'writes the audio to a file' } }),
};

const files = fileCommand({ grammar: SAY, fileOptions: { f: 'read' }, operands: () => [] });

/** say: speaking text, or a file read aloud. */
export const SAY_MODULE: ProgramModule = {
  names: ['say'],
  spec,
  effects: (cmd) => (checkProgram(spec, cmd.argv, false).readOnly ? files(cmd) : UNKNOWN),
  network: () => false,
  oracle: { cases: ['say hello', 'say -f a.txt', 'say -o out.aiff hello'] },
};
