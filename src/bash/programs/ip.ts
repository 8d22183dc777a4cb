import type { Word } from '../types.js';
import { NONE } from './effect-helpers.js';
import type { ProgramModule } from './module.js';
import { grammar, type Parsed } from './options.js';
import { type ProgramSpec, readOnly, type SubcommandSpec } from './program.js';

/** Each option as written and with a second dash: ip.c drops one dash of `--NAME` (`ip --brief addr`). */
function bothSpellings(list: string): string {
  return list
    .split(' ')
    .flatMap((w) => [w, `-${w}`])
    .join(' ');
}

/**
 * iproute2 ip's options, as `ip -h` lists them, in their full spellings and the short ones the help shows (ip also
 * reads other prefixes of each name: those make the command unknown).
 */
const IP = grammar({
  words: bothSpellings(
    '-4 -6 -0 -M -B -s -stats -statistics -d -details -r -resolve -h -human -human-readable -iec -j -json -p ' +
      '-pretty -br -brief -o -oneline -t -timestamp -ts -tshort -N -Numeric -a -all -c -color -V -Version ' +
      '-f= -family= -n= -netns= -b= -batch= -l= -loops= -rc= -rcvbuf= -force',
  ),
  abbreviate: false,
});

/** Commands that print an object's state; with none, ip shows it. `route get` looks a route up. */
const SHOWS = new Set(['show', 'list', 'lst']);

function showsOnly(lookup: boolean, more: readonly string[] = []) {
  return (parsed: Parsed, words: readonly Word[]): string | undefined => {
    const namespace = namespaceNamed(words);
    if (namespace) return namespace;
    const first = parsed.operands[0];
    if (first === undefined) return undefined;
    const word = words[first]!;
    if (
      word.static &&
      (SHOWS.has(word.value) || (lookup && word.value === 'get') || more.includes(word.value))
    )
      return undefined;
    return `ip ${word.text} may change the object`;
  };
}

/**
 * `-n NAME` reads another network namespace of this machine: iproute2's netns_switch opens
 * /var/run/netns/NAME, enters it (setns, which needs privileges) and remounts /sys and binds /etc/netns/NAME in a
 * mount namespace of its own, which nothing else sees. The name must be known before the command runs.
 */
function namespaceNamed(words: readonly Word[]): string | undefined {
  for (let k = 1; k < words.length && words[k]!.value.startsWith('-'); k++) {
    if (!['-n', '--n', '-netns', '--netns'].includes(words[k]!.value)) continue;
    const name = words[k + 1];
    if (!name?.static || name.value === '')
      return `ip ${words[k]!.text} names a namespace only known at run time`;
  }
  return undefined;
}

/**
 * `ip monitor [all | OBJECTS] [label] [all-nsid] [dev DEVICE]`, as `ip monitor help` lists it: it listens to the
 * kernel's netlink events and prints them until stopped. ipmonitor.c reads each word as a prefix of its name.
 * Not `file FILE`, which replays a saved dump.
 */
const MONITOR_WORDS = [
  'all',
  'address',
  'link',
  'mroute',
  'neigh',
  'netconf',
  'nexthop',
  'nsid',
  'prefix',
  'route',
  'rule',
  'stats',
  'label',
  'all-nsid',
];

function monitorsOnly(parsed: Parsed, words: readonly Word[]): string | undefined {
  const namespace = namespaceNamed(words);
  if (namespace) return namespace;
  for (let k = 0; k < parsed.operands.length; k++) {
    const word = words[parsed.operands[k]!]!;
    if (!word.static) return `ip monitor ${word.text} is only known at run time`;
    if (word.value === 'dev' && k + 1 < parsed.operands.length) {
      k++;
      continue;
    }
    if (word.value === '' || !MONITOR_WORDS.some((name) => name.startsWith(word.value)))
      return `ip monitor ${word.text} is not a read-only word`;
  }
  return undefined;
}

const NONE_GRAMMAR = grammar({ abbreviate: false });

function object(lookup = false, more: readonly string[] = []): SubcommandSpec {
  return {
    grammar: NONE_GRAMMAR,
    permute: false,
    readOnly: readOnly('', 'inert', { check: showsOnly(lookup, more) }),
  };
}

const spec: ProgramSpec = {
  name: 'ip',
  grammar: IP,
  permute: false,
  readOnly: readOnly(
    bothSpellings(
      '-4 -6 -0 -M -B -s -stats -statistics -d -details -h -human -human-readable -iec -j -json -p ' +
        '-pretty -br -brief -o -oneline -t -timestamp -ts -tshort -N -Numeric -a -all -c -color -V -Version -f ' +
        '-family -rc -rcvbuf -n -netns',
    ),
    'inert',
    {
      why: {
        '-b': 'runs the commands of a file',
        '-batch': 'runs the commands of a file',
        '-force': 'goes on after a failing command of a batch',
        '-r': 'resolves addresses through DNS, over the network',
        '-resolve': 'resolves addresses through DNS, over the network',
        '--b': 'runs the commands of a file',
        '--batch': 'runs the commands of a file',
        '--force': 'goes on after a failing command of a batch',
        '--r': 'resolves addresses through DNS, over the network',
        '--resolve': 'resolves addresses through DNS, over the network',
      },
    },
  ),
  subcommands: {
    address: object(),
    link: object(),
    route: object(true),
    neighbour: object(true),
    rule: object(),
    maddress: object(),
    netconf: object(),
    tunnel: object(),
    tuntap: object(),
    mroute: object(),
    stats: object(),
    // Not `netns exec`, which runs a command, nor `add`, `delete`, `set`, `attach`.
    netns: object(false, ['identify', 'pids', 'list-id']),
    monitor: {
      grammar: NONE_GRAMMAR,
      permute: false,
      readOnly: readOnly('', 'inert', { check: monitorsOnly }),
    },
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
    // ip reads any prefix of an object's name as the first object, in its table's order, it begins.
    netc: 'netconf',
    netco: 'netconf',
    netcon: 'netconf',
    tun: 'tunnel',
    tunn: 'tunnel',
    tunne: 'tunnel',
    tunt: 'tuntap',
    tunta: 'tuntap',
    tap: 'tuntap',
    mr: 'mroute',
    mro: 'mroute',
    mrou: 'mroute',
    mrout: 'mroute',
    st: 'stats',
    sta: 'stats',
    stat: 'stats',
    netn: 'netns',
    mo: 'monitor',
    mon: 'monitor',
    moni: 'monitor',
    monit: 'monitor',
    monito: 'monitor',
  },
};

/** ip shows the machine's network interfaces, addresses and routes. */
export const IP_MODULE: ProgramModule = {
  names: ['ip'],
  spec,
  effects: () => NONE,
  oracle: {
    cases: [
      'ip addr',
      'ip a',
      'ip -br addr show',
      'ip --brief addr',
      'ip --human-readable -s link',
      'ip --json --pretty route show',
      'ip route',
      'ip -j link show',
      'ip route get 127.0.0.1',
      'ip tunnel show',
      'ip tuntap list',
      'ip mroute show',
      'ip stats show',
      'ip st',
      'ip netns',
      'ip netns list',
      'ip netns identify',
      'ip netc',
      'ip neigh get 127.0.0.1 dev lo',
      'ip -rc 1000 route',
      'ip -n blue addr',
      'timeout 1 ip monitor',
      'timeout 1 ip -t monitor all',
      'timeout 1 ip mo link address route neigh label dev lo',
    ],
  },
};
