import type { Word } from '../types.js';
import { levelEffects } from './macos/levels.js';
import type { ProgramModule } from './module.js';
import { type Grammar, grammar, has, type Parsed } from './options.js';
import { everyOption, everyOptionBut, type ProgramSpec, readOnly, type SubcommandSpec } from './program.js';

/**
 * macOS's own tools, in the forms that only print: each program's options and verbs from its manual page
 * (Apple's man pages as the macOS SDK ships them: pkgutil(1), plutil(1), xattr(1), tmutil(8), diskutil(8),
 * launchctl(1), scutil(8), sw_vers(1), codesign(1), spctl(8), lipo(1), hdiutil(1); networksetup(8) has none, its commands are those its
 * `-help` and `-printcommands` print). None of them runs where the effect oracle runs, so none has oracle
 * cases: every form listed here is one the manual says prints and changes nothing. A verb or option the
 * manual does not list, or that writes, keeps the command asked.
 */

/** A verb (`diskutil list`) whose words are its own whole-word options and data operands (device names). */
function verb(
  words: string,
  operands: 'files' | 'inert' | 'none',
  more: { max?: number; check?: (parsed: Parsed, words: readonly Word[]) => string | undefined } = {},
): SubcommandSpec {
  const g = grammar({ words, abbreviate: false });
  return {
    grammar: g,
    readOnly: readOnly(() => everyOption(g), operands, {
      ...(more.max !== undefined ? { maxOperands: more.max } : {}),
      ...(more.check ? { check: more.check } : {}),
    }),
  };
}

/** The program names its verb first; it reads no option before it. */
const VERB_FIRST: Grammar = grammar({ options: /(?!)/ });

/**
 * pkgutil(1): options first, then commands, each command's arguments after it. The receipt-database
 * commands print; `--forget`, `--learn`, `--edit-pkg` change the receipts, `--expand`, `--flatten` and `--bom`
 * write files, `--force` only matters to those. Package ids and paths alike are read as files, so a path
 * given to `--file-info`, `--payload-files` or `--check-signature` is decided as a read.
 */
const PKGUTIL = grammar({
  flags: 'hfv',
  long:
    'help/h force/f verbose/v volume= edit-pkg= only-files only-dirs regexp packages pkgs? pkgs-plist files ' +
    'export-plist pkg-info pkg-info-plist pkg-groups groups groups-plist group-pkgs file-info file-info-plist ' +
    'forget learn expand flatten bom payload-files check-signature',
  abbreviate: false,
});

/**
 * plutil(1): the first word names the operation. `-p`, `-lint` (the default), `-extract` and `-type` print;
 * `-convert`, `-insert`, `-replace`, `-remove` and `-create` write the file back, and `-o`/`-e` name where a
 * result is written. The key path and format words `-extract` takes are read as file names too: a word
 * that is not a file reads nothing.
 */
const PLUTIL = grammar({
  words:
    '-help -p -lint -convert= -insert= -replace= -remove= -extract= -type= -expect= -create= -append -s -r ' +
    '-o= -e= -n',
  abbreviate: false,
});

/** xattr(1): listing (`-l`) and printing (`-p NAME`) read; `-w`, `-d` and `-c` write or delete attributes. */
const XATTR = grammar({ flags: 'lprsvxwdch', long: 'help/h', abbreviate: false });

/** scutil(8) with one of its reporting options; without one it reads commands from stdin (`set`, `push` …). */
const SCUTIL = grammar({
  values: 'wtr',
  flags: 'W',
  long: 'get= set= dns proxy nwi prefs? nc=',
  abbreviate: false,
});

const SCUTIL_REPORTS = ['--get', '--dns', '--proxy', '--nwi', 'w'];

/** sw_vers(1): all of it, or one field. */
const SW_VERS = grammar({
  words: '-productName -productVersion -productVersionExtra -buildVersion',
  abbreviate: false,
});

/**
 * networksetup(8): the commands `networksetup -printcommands` lists that display settings, each with the
 * service, port or device it names. Every `-set…`, `-create…`, `-delete…`, `-remove…`, `-add…`, `-order…`,
 * `-switch…`, `-connect…`, `-disconnect…` and `-detectnewhardware` changes them. Proxy settings are printed
 * without passwords (those stay in the keychain). Its help spells some commands in mixed case (`-getMTU`):
 * the lower-case spelling is listed too, as the same command or one networksetup rejects.
 */
const NETWORKSETUP_READS = (
  '-listnetworkserviceorder -listallnetworkservices -listallhardwareports -getmacaddress -getcomputername ' +
  '-getinfo -getadditionalroutes -getv6additionalroutes -getdnsservers -getsearchdomains -getwebproxy ' +
  '-getsecurewebproxy -getsocksfirewallproxy -getproxybypassdomains -getproxyautodiscovery -getautoproxyurl ' +
  '-getairportnetwork -getairportpower -listpreferredwirelessnetworks -getnetworkserviceenabled -getMTU ' +
  '-listValidMTURange -getMedia -listValidMedia -listVLANs -listdevicesthatsupportVLAN -isBondSupported ' +
  '-listBonds -showBondStatus -listpppoeservices -showpppoestatus -listlocations -getcurrentlocation ' +
  '-version -help -printcommands'
).split(' ');

const NETWORKSETUP = grammar({
  words: [...new Set([...NETWORKSETUP_READS, ...NETWORKSETUP_READS.map((name) => name.toLowerCase())])].join(
    ' ',
  ),
  abbreviate: false,
});

/** One display command, and at most the one service, port or device it names. */
function networksetupReads(parsed: Parsed): string | undefined {
  if (parsed.options.length !== 1) return 'networksetup runs one command at a time';
  return parsed.operands.length > 1 ? 'networksetup with more words than a display command reads' : undefined;
}

/**
 * codesign(1): `-d` (display), `-v` (verify; again, or `--verbose`, more output) and `-h` (hosting) only
 * report. Never `-s` (signs), `-f`, `--remove-signature`, `--extract-certificates` (writes files), `-r FILE`,
 * nor `--entitlements FILE`: while displaying, those write the requirements or entitlements to the file; `-`
 * (or `:-`) writes them to stdout.
 */
const CODESIGN = grammar({
  flags: 'dvh',
  values: 'a',
  long:
    'display/d verify/v verbose?/v hosting/h deep strict? all-architectures architecture=/a entitlements= ' +
    'xml der validate-constraint',
  abbreviate: false,
});

function codesignReports(parsed: Parsed): string | undefined {
  if (!has(parsed, 'd', 'v', 'h', '--validate-constraint')) return 'codesign without -d, -v or -h';
  for (const option of parsed.options) {
    if (option.name !== '--entitlements') continue;
    const value = option.value;
    if (!value?.static || (value.value !== '-' && value.value !== ':-'))
      return 'codesign --entitlements writes the entitlements to that file';
  }
  return undefined;
}

/**
 * spctl(8): `--assess` (`-a`) evaluates files against the system policy, `--status` and `--disable-status`
 * report it. `--add`, `--remove`, `--enable`, `--disable`, `--global-enable` and `--global-disable` change the
 * policy, and are not listed.
 */
const SPCTL = grammar({
  flags: 'av',
  values: 't',
  long: 'assess/a status disable-status continue ignore-cache no-cache raw type=/t verbose?/v',
  abbreviate: false,
});

/** lipo(1): `-info`, `-detailed_info`, `-archs` and `-verify_arch` read the input file; every other command writes `-output`. */
const LIPO = grammar({ words: '-info -detailed_info -archs -verify_arch', abbreviate: false });

export const MACOS_SPECS: readonly ProgramSpec[] = [
  {
    name: 'codesign',
    grammar: CODESIGN,
    readOnly: readOnly(() => everyOption(CODESIGN), 'files', { check: codesignReports }),
  },
  {
    name: 'spctl',
    grammar: SPCTL,
    readOnly: readOnly(() => everyOption(SPCTL), 'files', {
      check: (parsed) =>
        has(parsed, 'a', '--status', '--disable-status') ? undefined : 'spctl without --assess or --status',
    }),
  },
  {
    name: 'lipo',
    grammar: LIPO,
    readOnly: readOnly(() => everyOption(LIPO), 'files', {
      check: (parsed) => (parsed.options.length > 0 ? undefined : 'lipo without a command'),
    }),
  },
  {
    name: 'networksetup',
    grammar: NETWORKSETUP,
    readOnly: readOnly(() => everyOption(NETWORKSETUP), 'inert', { check: networksetupReads }),
  },
  {
    name: 'pkgutil',
    grammar: PKGUTIL,
    readOnly: readOnly(
      () => everyOptionBut(PKGUTIL, 'f --edit-pkg --forget --learn --expand --flatten --bom'),
      'files',
      {
        check: (parsed) => (parsed.options.length === 0 ? 'pkgutil without a command' : undefined),
        why: {
          '--forget': 'removes a receipt',
          '--learn': 'changes a receipt',
          '--expand': 'writes the expanded package',
          '--flatten': 'writes a package',
          '--bom': "writes the package's bill of materials to a file",
        },
      },
    ),
  },
  {
    name: 'plutil',
    grammar: PLUTIL,
    permute: true,
    readOnly: readOnly('-help -p -lint -extract -type -expect -s -r -n', 'files', {
      why: {
        '-convert': 'writes the file back',
        '-insert': 'writes the file back',
        '-replace': 'writes the file back',
        '-remove': 'writes the file back',
        '-create': 'writes a file',
        '-o': 'writes the result to a file',
        '-e': 'writes the result to a file',
      },
    }),
  },
  {
    name: 'xattr',
    grammar: XATTR,
    readOnly: readOnly('l p r s v x h', 'files', {
      why: { w: 'writes an attribute', d: 'deletes an attribute', c: 'deletes every attribute' },
    }),
  },
  {
    name: 'scutil',
    grammar: SCUTIL,
    readOnly: readOnly('t --get --dns --proxy --nwi w', 'none', {
      check: (parsed) =>
        has(parsed, ...SCUTIL_REPORTS)
          ? undefined
          : 'scutil without a reporting option reads commands from stdin',
      why: {
        '--set': 'changes a system preference',
        '--prefs': 'reads commands that change the preferences from stdin',
        r: 'checks whether a host is reachable over the network',
        W: 'watches reachability until interrupted',
        '--nc': 'controls VPN connections',
      },
    }),
  },
  {
    name: 'sw_vers',
    grammar: SW_VERS,
    readOnly: readOnly(() => everyOption(SW_VERS), 'none'),
  },
];

const HDIUTIL_COMMON = '-verbose -quiet -debug -plist';

/** Programs whose first word is a verb: read-only verbs touch no file the command names, and reach no network. */
const VERB_SPECS: readonly ProgramSpec[] = [
  {
    // tmutil(8): the verbs that report on backups and settings; the rest start, stop, change or delete them.
    name: 'tmutil',
    grammar: VERB_FIRST,
    subcommands: {
      help: verb('', 'inert', { max: 1 }),
      version: verb('', 'none'),
      destinationinfo: verb('-X', 'none'),
      status: verb('-X', 'none'),
      currentphase: verb('', 'none'),
      machinedirectory: verb('', 'none'),
      latestbackup: verb('-m -t', 'none'),
      listbackups: verb('-m -t', 'none'),
      listlocalsnapshotdates: verb('', 'inert', { max: 1 }),
      listlocalsnapshots: verb('', 'inert', { max: 1 }),
      isexcluded: verb('-X', 'files'),
      // Sizes, checksums and differences of backups and snapshots: read from the paths named.
      uniquesize: verb('-X', 'files'),
      verifychecksums: verb('', 'files'),
      calculatedrift: verb('-X', 'files', { max: 1 }),
      compare: {
        grammar: grammar({ flags: '@acdefglmnstuEUX', values: 'DI', abbreviate: false }),
        readOnly: readOnly('@ a c d e f g l m n s t u E U X D I', 'files', {
          maxOperands: 2,
          // With no path it compares the whole machine with its latest backup.
          check: (parsed) =>
            parsed.operands.length > 0 ? undefined : 'tmutil compare without a path reads every file',
        }),
      },
    },
  },
  {
    // diskutil(8): `list`, `info`, `activity` and `listFilesystems` print; every other verb changes disks.
    name: 'diskutil',
    grammar: VERB_FIRST,
    subcommands: {
      list: verb('-plist', 'inert', { max: 3 }),
      info: verb('-plist -all', 'inert', { max: 1 }),
      activity: verb('', 'none'),
      listFilesystems: verb('-plist', 'none'),
    },
    subcommandAliases: { information: 'info' },
  },
  {
    // hdiutil(1): the verbs that report on images and attached devices; `attach`, `create`, `convert`, `resize`,
    // `chpass` and the rest change or write images. Common options as the manual lists them for every verb.
    name: 'hdiutil',
    grammar: VERB_FIRST,
    subcommands: {
      help: verb(HDIUTIL_COMMON, 'inert', { max: 1 }),
      info: verb(HDIUTIL_COMMON, 'none'),
      plugins: verb(HDIUTIL_COMMON, 'none'),
      imageinfo: verb(HDIUTIL_COMMON, 'files'),
      isencrypted: verb(HDIUTIL_COMMON, 'files'),
      pmap: verb(HDIUTIL_COMMON, 'files'),
      verify: verb(HDIUTIL_COMMON, 'files'),
      checksum: verb(`${HDIUTIL_COMMON} -type=`, 'files'),
    },
  },
  {
    // launchctl(1): the subcommands that print launchd's state; the rest load, start, stop or change services.
    name: 'launchctl',
    grammar: VERB_FIRST,
    subcommands: {
      list: verb('', 'inert', { max: 1 }),
      print: verb('', 'inert', { max: 1 }),
      'print-cache': verb('', 'none'),
      'print-disabled': verb('', 'inert', { max: 1 }),
      blame: verb('', 'inert', { max: 1 }),
      procinfo: verb('', 'inert', { max: 1 }),
      hostinfo: verb('', 'none'),
      dumpstate: verb('', 'none'),
      managerpid: verb('', 'none'),
      manageruid: verb('', 'none'),
      managername: verb('', 'none'),
      error: verb('', 'inert', { max: 2 }),
      variant: verb('', 'none'),
      // The property list embedded in a Mach-O file (a `segment,section` may come first).
      plist: verb('', 'files', { max: 2 }),
      resolveport: verb('', 'inert', { max: 2 }),
      dumpjpcategory: verb('', 'none'),
      version: verb('', 'none'),
      help: verb('', 'inert', { max: 1 }),
    },
  },
];

export const MACOS_MODULES: readonly ProgramModule[] = VERB_SPECS.map((spec) => ({
  names: [spec.name],
  spec,
  effects: levelEffects(spec),
  network: () => false,
}));
