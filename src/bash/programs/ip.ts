import type { Word } from '../types.js';
import { NONE } from './effect-helpers.js';
import type { ProgramModule } from './module.js';
import { grammar, type Parsed } from './options.js';
import { type ProgramSpec, readOnly, type SubcommandSpec } from './program.js';

/**
 * iproute2 ip's options, as `ip -h` lists them, in their full spellings and the short ones the help shows (ip also
 * reads other prefixes of each name: those make the command unknown).
 */
const IP = grammar({
  words:
    '-4 -6 -0 -M -B -s -stats -statistics -d -details -r -resolve -h -human -human-readable -iec -j -json -p ' +
    '-pretty -br -brief -o -oneline -t -timestamp -ts -tshort -N -Numeric -a -all -c -color -V -Version ' +
    '-f= -family= -n= -netns= -b= -batch= -l= -loops= -rc= -rcvbuf= -force',
  abbreviate: false,
});

/** Commands that print an object's state; with none, ip shows it. `route get` looks a route up. */
const SHOWS = new Set(['show', 'list', 'lst']);

function showsOnly(lookup: boolean) {
  return (parsed: Parsed, words: readonly Word[]): string | undefined => {
    const first = parsed.operands[0];
    if (first === undefined) return undefined;
    const word = words[first]!;
    if (word.static && (SHOWS.has(word.value) || (lookup && word.value === 'get'))) return undefined;
    return `ip ${word.text} may change the object`;
  };
}

const NONE_GRAMMAR = grammar({ abbreviate: false });

function object(lookup = false): SubcommandSpec {
  return {
    grammar: NONE_GRAMMAR,
    permute: false,
    readOnly: readOnly('', 'inert', { check: showsOnly(lookup) }),
  };
}

const spec: ProgramSpec = {
  name: 'ip',
  grammar: IP,
  permute: false,
  readOnly: readOnly(
    '-4 -6 -0 -M -B -s -stats -statistics -d -details -h -human -human-readable -iec -j -json -p ' +
      '-pretty -br -brief -o -oneline -t -timestamp -ts -tshort -N -Numeric -a -all -c -color -V -Version -f ' +
      '-family',
    'inert',
    {
      why: {
        '-b': 'runs the commands of a file',
        '-batch': 'runs the commands of a file',
        '-force': 'goes on after a failing command of a batch',
        '-n': 'switches to another network namespace',
        '-netns': 'switches to another network namespace',
        '-r': 'resolves addresses through DNS, over the network',
        '-resolve': 'resolves addresses through DNS, over the network',
      },
    },
  ),
  subcommands: {
    address: object(),
    link: object(),
    route: object(true),
    neighbour: object(),
    rule: object(),
    maddress: object(),
    netconf: object(),
  },
  subcommandAliases: {
    a: 'address',
    addr: 'address',
    l: 'link',
    r: 'route',
    ro: 'route',
    n: 'neighbour',
    neigh: 'neighbour',
    neighbor: 'neighbour',
    ru: 'rule',
    m: 'maddress',
    maddr: 'maddress',
  },
};

/** ip shows the machine's network interfaces, addresses and routes. */
export const IP_MODULE: ProgramModule = {
  names: ['ip'],
  spec,
  effects: () => NONE,
  oracle: {
    cases: ['ip addr', 'ip a', 'ip -br addr show', 'ip route', 'ip -j link show', 'ip route get 127.0.0.1'],
  },
};
