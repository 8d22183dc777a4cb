import { beforeAll, describe, expect, test } from 'vitest';
import { analyze, loadBash } from '../../../src/bash/analyze.js';
import { checkProgram } from '../../../src/bash/programs/read-only.js';
import { programSpec } from '../../../src/bash/programs/registry.js';

beforeAll(loadBash);

function verdict(line: string): { readOnly: boolean; reason: string } {
  const cmd = analyze(line).commands[0]!;
  const { readOnly, reason } = checkProgram(programSpec(cmd.name!.program)!, cmd.argv, true);
  return { readOnly, reason };
}

describe('ip shows the network state', () => {
  test.each([
    'ip tunnel',
    'ip tunnel show',
    'ip tun show',
    'ip tuntap',
    'ip tuntap list',
    'ip tunt',
    'ip mroute show',
    'ip mr',
    'ip stats',
    'ip stats show dev lo',
    'ip stats show group link',
    'ip st',
    'ip netns',
    'ip netns list',
    'ip netns list-id',
    'ip netns identify',
    'ip netns identify 1234',
    'ip netns pids blue',
    'ip netc',
    'ip neigh get 10.0.0.1 dev eth0',
    'ip -s -d link show',
    'ip --brief addr',
    'ip --human-readable -s link',
    'ip --json --pretty route show',
    'ip monitor',
    'ip monitor all',
    'ip monitor link',
    'ip monitor address route neigh',
    'ip -t monitor all-nsid label dev eth0',
    'ip mo',
    'ip mon ro',
    'ip -rc 1000 route',
    'ip -n blue addr',
    'ip --netns blue route show',
  ])('%s only reads', (line) => {
    expect(verdict(line).readOnly).toBe(true);
  });

  test.each([
    ['ip netns exec blue sh', /may change the object/],
    ['ip netns add blue', /may change the object/],
    ['ip netns delete blue', /may change the object/],
    ['ip tunnel add t0 mode gre remote 10.0.0.2', /may change the object/],
    ['ip tuntap add dev tap0 mode tap', /may change the object/],
    ['ip stats set dev lo l3_stats on', /may change the object/],
    ['ip neigh flush all', /may change the object/],
    ['ip monitor file dump.bin', /not a read-only word/],
    ['ip monitor fi dump.bin', /not a read-only word/],
    ['ip monitor $WHAT', /only known at run time/],
    ['ip -n "$NS" addr', /only known at run time/],
    ['ip -n blue addr add 10.0.0.1/24 dev eth0', /may change the object/],
    ['ip -n blue netns exec red sh', /may change the object/],
    ['ip --batch cmds.txt', /runs the commands of a file/],
    ['ip --resolve route', /DNS/],
  ])('%s does not (%s)', (line, why) => {
    const found = verdict(line);
    expect(found.readOnly).toBe(false);
    expect(found.reason).toMatch(why);
  });
});
