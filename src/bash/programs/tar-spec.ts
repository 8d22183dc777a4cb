import { grammar } from './options.js';
import type { ProgramSpec } from './program.js';

/** GNU tar: every long option, so that an abbreviation (`--to-com`) names the option tar reads. */
export const TAR = grammar({
  flags: 'AcdrtuxajJzZBGhiklmMnOopPRsSUvwW',
  values: 'bCfFgHIKLNTVX',
  long:
    'absolute-names/P acls add-file= after-date=/N anchored append/r atime-preserve? auto-compress/a ' +
    'backup? block-number/R blocking-factor=/b bzip2/j catenate/A check-device check-links/l ' +
    'checkpoint? checkpoint-action= clamp-mtime compare/d compress/Z concatenate/A confirmation/w ' +
    'create/c delay-directory-restore delete dereference/h diff/d directory=/C exclude= ' +
    'exclude-backups exclude-caches exclude-caches-all exclude-caches-under exclude-from=/X ' +
    'exclude-ignore= exclude-ignore-recursive= exclude-tag= exclude-tag-all= exclude-tag-under= ' +
    'exclude-vcs exclude-vcs-ignores extract/x file=/f files-from=/T force-local format=/H full-time ' +
    'get/x group= group-map= gunzip/z gzip/z hard-dereference help hole-detection= ignore-case ' +
    'ignore-command-error ignore-failed-read ignore-zeros/i incremental/G index-file= info-script=/F ' +
    'interactive/w keep-directory-symlink keep-newer-files keep-old-files/k label=/V level= list/t ' +
    'listed-incremental=/g lzip lzma lzop mode= mtime= multi-volume/M new-volume-script=/F newer=/N ' +
    'newer-mtime= no-acls no-anchored no-auto-compress no-check-device no-delay-directory-restore ' +
    'no-ignore-case no-ignore-command-error no-null no-overwrite-dir no-quote-chars= no-recursion ' +
    'no-same-owner no-same-permissions no-seek no-selinux no-unquote no-verbatim-files-from ' +
    'no-wildcards no-wildcards-match-slash no-xattrs null numeric-owner occurrence? old-archive ' +
    'one-file-system one-top-level? overwrite overwrite-dir owner= owner-map= pax-option= portability ' +
    'posix preserve-order/s preserve-permissions/p quote-chars= quoting-style= read-full-records/B ' +
    'record-size= recursion recursive-unlink remove-files restrict rmt-command= rsh-command= ' +
    'same-order/s same-owner same-permissions/p seek/n selinux show-defaults show-omitted-dirs ' +
    'show-snapshot-field-ranges show-stored-names show-transformed-names skip-old-files sort= sparse/S ' +
    'sparse-version= starting-file=/K strip-components= suffix= tape-length=/L test-label to-command= ' +
    'to-stdout/O totals? touch/m transform= uncompress/Z ungzip/z unlink-first/U unquote update/u ' +
    'usage use-compress-program=/I utc verbatim-files-from verbose/v verify/W version volno-file= ' +
    'warning= wildcards wildcards-match-slash xattrs xattrs-exclude= xattrs-include= xform= xz/J zstd',
});

export const TAR_SPEC: ProgramSpec = { name: 'tar', aliases: ['gtar'], grammar: TAR };
