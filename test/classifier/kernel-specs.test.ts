import { describeDecisions } from './helpers.js';

const ALLOWED = [
  'sysctl kernel.hostname',
  'sysctl -n kernel.ostype',
  'sysctl -N kernel.hostname',
  'sysctl -e no.such.key',
  'sysctl -n hw.model machdep.cpu.brand_string',
  'sysctl --values --binary kernel.osrelease',
  'ifconfig',
  'ifconfig -a',
  'ifconfig -s',
  'ifconfig -v lo',
  'ifconfig en0',
];

/** Setting a variable or an interface, loading settings, every variable (a key among them). */
const NOT_ALLOWED = [
  'sysctl',
  'sysctl -a',
  'sysctl -A',
  'sysctl -w vm.swappiness=10',
  'sysctl vm.swappiness=10',
  'sysctl -p',
  'sysctl -p /etc/sysctl.d/x.conf',
  'sysctl --system',
  'sysctl --load=x.conf',
  'sysctl net.ipv6.conf.all.stable_secret',
  'sysctl "$NAME"',
  'ifconfig eth0 down',
  'ifconfig eth0 192.0.2.1 netmask 255.255.255.0',
  'ifconfig en0 ether 00:11:22:33:44:55',
  'ifconfig lo up',
  'ifconfig lo mtu 1400',
];

describeDecisions('sysctl and ifconfig', ALLOWED, NOT_ALLOWED);
