import type { Word } from '../../types.js';
import type { ProgramModule } from '../module.js';
import { grammar, has, type Parsed } from '../options.js';
import { type ProgramSpec, readOnly } from '../program.js';

/**
 * textutil(1), macOS's text-document converter: `-info` prints a document's attributes, `-help` the usage;
 * `-convert FMT` and `-cat FMT` write a new file beside the input (or to `-output`) unless `-stdout` sends the
 * result to standard output. Reading HTML or a web archive may load the resources it links from the network
 * unless `-noload` is given. Options that only shape the output (`-encoding`, `-inputencoding`, `-format`,
 * `-font`, `-fontsize`, `-strip`) are read-only; `-output` and `-extension` name what is written.
 */
const TEXTUTIL = grammar({
  words:
    '-help -info -convert= -cat= -stdout -noload -nostore -encoding= -inputencoding= -format= -font= ' +
    '-fontsize= -strip -output= -extension=',
  abbreviate: false,
});

const WEB = /\.(html?|xhtml|webarchive|xml)$/i;

function printsOnly(parsed: Parsed, words: readonly Word[]): string | undefined {
  if (has(parsed, '-convert', '-cat')) {
    if (!has(parsed, '-stdout')) return 'textutil without -stdout writes the converted file';
    const web = parsed.operands.map((at) => words[at]!).find((word) => !word.static || WEB.test(word.value));
    if (web && !has(parsed, '-noload')) return `textutil may load what ${web.text} links to from the network`;
    return undefined;
  }
  return has(parsed, '-info', '-help') ? undefined : 'textutil without -info, -convert or -cat';
}

const spec: ProgramSpec = {
  name: 'textutil',
  grammar: TEXTUTIL,
  readOnly: readOnly(
    '-help -info -convert -cat -stdout -noload -nostore -encoding -inputencoding -format -font -fontsize -strip',
    'files',
    {
      check: printsOnly,
      why: { '-output': 'writes the result to a file', '-extension': 'writes files beside the inputs' },
    },
  ),
};

/** textutil: document attributes, and conversions printed to stdout. */
export const TEXTUTIL_MODULE: ProgramModule = {
  names: ['textutil'],
  spec,
  network: () => false,
  oracle: { cases: ['textutil -info a.rtf', 'textutil -convert txt a.rtf'] },
};
