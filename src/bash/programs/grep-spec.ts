import { grammar } from './options.js';
import { everyOptionBut, type ProgramSpec, readOnly } from './program.js';

const FOLLOWS_LINKS = 'follows links below the folder, to files no rule can be checked against';
const READS_PATTERNS = 'reads patterns from a file no rule names';

export const GREP = grammar({
  flags: 'EFGPiywxzsvVbnHhoqaIrRLlcTZUu',
  values: 'efmABCDd',
  long:
    'extended-regexp/E fixed-strings/F basic-regexp/G perl-regexp/P regexp=/e file=/f ignore-case/i ' +
    'no-ignore-case word-regexp/w line-regexp/x null-data/z no-messages/s invert-match/v version/V help ' +
    'max-count=/m byte-offset/b line-number/n no-line-number line-buffered with-filename/H no-filename/h ' +
    'label= only-matching/o quiet/q silent/q binary-files= text/a devices=/D directories=/d exclude= ' +
    'exclude-from= exclude-dir= include= recursive/r dereference-recursive/R files-without-match/L ' +
    'files-with-matches/l count/c initial-tab/T null/Z after-context=/A before-context=/B context=/C ' +
    'color? colour? binary/U group-separator= no-group-separator',
  numeric: true,
});

const grep = (name: string): ProgramSpec => ({
  name,
  grammar: GREP,
  readOnly: readOnly(everyOptionBut(GREP, 'f --exclude-from R'), 'files', {
    why: { f: READS_PATTERNS, '--exclude-from': READS_PATTERNS, R: FOLLOWS_LINKS },
  }),
});

/** ripgrep; options it does not list here are flags. */
export const RG = grammar({
  flags: 'aBcFHhiIjlLnNoOpqsSuUvVwxz0',
  values: 'efgtTABCEmjMrd',
  long:
    'regexp=/e file=/f glob=/g iglob= type=/t type-not=/T type-add= type-clear= after-context=/A ' +
    'before-context=/B context=/C context-separator= field-context-separator= field-match-separator= ' +
    'encoding=/E max-count=/m max-depth=/d maxdepth=/d max-filesize= max-columns=/M replace=/r threads=/j ' +
    'color= colors= sort= sortr= path-separator= pre= pre-glob= engine= dfa-size-limit= regex-size-limit= ' +
    'ignore-file= hyperlink-format= generate= hostname-bin= files type-list',
  unlistedFlags: /./,
  abbreviate: false,
});

const RG_READ_ONLY =
  'a B c F H h i I j l n N o O p q s S u U v V w x 0 e g t T A C E m M r d --iglob --type-add ' +
  '--type-clear --context-separator --field-context-separator --field-match-separator --max-filesize ' +
  '--color --colors --sort --sortr --path-separator --engine --dfa-size-limit --regex-size-limit ' +
  '--hyperlink-format --files --type-list --hidden --no-hidden --no-ignore --no-ignore-vcs --no-ignore-dot ' +
  '--no-ignore-global --no-ignore-parent --no-ignore-exclude --no-ignore-files --ignore --ignore-vcs ' +
  '--no-messages --no-filename --with-filename --heading --no-heading --line-number --no-line-number ' +
  '--column --no-column --count --count-matches --files-with-matches --files-without-match --json --no-json ' +
  '--vimgrep --byte-offset --only-matching --passthru --passthrough --trim --no-trim --stats --no-stats ' +
  '--smart-case --case-sensitive --ignore-case --fixed-strings --no-fixed-strings --word-regexp ' +
  '--line-regexp --invert-match --multiline --no-multiline --multiline-dotall --crlf --no-crlf --null ' +
  '--null-data --pcre2 --no-pcre2 --auto-hybrid-regex --text --no-text --binary --no-binary --unrestricted ' +
  '--max-columns-preview --no-max-columns-preview --one-file-system --no-one-file-system --quiet ' +
  '--block-buffered --line-buffered --no-block-buffered --no-line-buffered --mmap --no-mmap --debug --trace ' +
  '--no-config --no-unicode --unicode --no-encoding --include-zero --no-include-zero --sort-files ' +
  '--no-sort-files --glob-case-insensitive --no-glob-case-insensitive --pretty --help --version ' +
  '--no-require-git --require-git --invert-match --no-context-separator';

const RG_SPEC: ProgramSpec = {
  name: 'rg',
  grammar: RG,
  readOnly: readOnly(RG_READ_ONLY, 'files', {
    why: {
      L: FOLLOWS_LINKS,
      '--follow': FOLLOWS_LINKS,
      '--pre': 'runs a program on every file',
      '--hostname-bin': 'runs a program',
      z: 'runs decompression programs',
      '--search-zip': 'runs decompression programs',
      f: READS_PATTERNS,
      '--ignore-file': 'reads ignore rules from a file no rule names',
    },
  }),
};

export const GREP_SPECS: readonly ProgramSpec[] = [grep('grep'), grep('egrep'), grep('fgrep'), RG_SPEC];
