import { NONE } from './effect-helpers.js';
import type { ProgramModule } from './module.js';
import { grammar } from './options.js';
import { everyOptionBut, type ProgramSpec, readOnly } from './program.js';

/**
 * iproute2 ss, as `ss --help` lists it; its operands are a filter expression, whose host names it resolves
 * through DNS: read-only only without one.
 */
const SS = grammar({
  flags: 'hVnraloempTisbEZz460tMSudwxKHO',
  values: 'NfADF',
  long:
    'help/h version/V numeric/n resolve/r all/a listening/l options/o extended/e memory/m processes/p ' +
    'threads/T info/i tipcinfo summary/s tos cgroup bpf/b events/E context/Z contexts/z net=/N ipv4/4 ' +
    'ipv6/6 packet/0 tcp/t mptcp/M sctp/S udp/u dccp/d raw/w unix/x tipc vsock xdp family=/f kill/K ' +
    'no-header/H oneline/O inet-sockopt query=/A socket=/A diag=/D filter=/F',
});

const spec: ProgramSpec = {
  name: 'ss',
  grammar: SS,
  readOnly: readOnly(() => everyOptionBut(SS, 'K D F N r'), 'none', {
    why: {
      K: 'closes the sockets it lists',
      D: 'writes a dump to a file',
      F: 'reads a filter from a file no rule names',
      N: 'switches to another network namespace',
      r: 'resolves addresses and ports through DNS, over the network',
    },
  }),
};

/** ss lists the machine's sockets. */
export const SS_MODULE: ProgramModule = {
  names: ['ss'],
  spec,
  effects: () => NONE,
  oracle: { cases: ['ss -tlnp', 'ss -s', 'ss -xl', 'ss -a state listening', 'ss -r -t'] },
};
