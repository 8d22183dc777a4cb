import { grammar } from './options.js';
import { type ProgramSpec, readOnly } from './program.js';

/** Options read before the subcommand. */
const GLOBAL_READ_ONLY = readOnly(
  '--no-pager P --no-replace-objects --no-lazy-fetch --literal-pathspecs --glob-pathspecs ' +
    '--noglob-pathspecs --icase-pathspecs --no-optional-locks --no-advice v h',
);

export const GIT_SPEC: ProgramSpec = {
  name: 'git',
  grammar: grammar({
    flags: 'pPvh',
    values: 'Cc',
    long:
      'config-env= exec-path? git-dir= work-tree= namespace= super-prefix= list-cmds= attr-source= paginate/p ' +
      'no-pager/P no-replace-objects no-lazy-fetch bare literal-pathspecs glob-pathspecs noglob-pathspecs ' +
      'icase-pathspecs no-optional-locks no-advice version/v help/h html-path man-path info-path',
    abbreviate: false,
  }),
  readOnly: GLOBAL_READ_ONLY,
  subcommands: {
    status: {
      grammar: grammar({
        flags: 'sbvuz',
        optional: 'u',
        long:
          'short/s branch/b show-stash porcelain? long verbose/v untracked-files?/u ignore-submodules? ' +
          'ignored? null/z column? no-column ahead-behind no-ahead-behind renames no-renames find-renames?',
        negatable: true,
      }),
      readOnly: readOnly(
        's b --show-stash --porcelain --long v u --ignore-submodules --ignored z --column --no-column ' +
          '--ahead-behind --no-ahead-behind --renames --no-renames --find-renames --no-short --no-branch',
      ),
    },
    push: {
      grammar: grammar({
        flags: 'nfdquv46',
        values: 'o',
        long:
          'all branches mirror delete/d tags dry-run/n porcelain force/f force-with-lease? force-if-includes ' +
          'repo= set-upstream/u thin prune no-verify verify follow-tags signed? atomic push-option=/o ' +
          'receive-pack= exec= quiet/q verbose/v progress recurse-submodules= ipv4/4 ipv6/6',
        negatable: true,
      }),
    },
    commit: {
      grammar: grammar({
        flags: 'aipqsvnez',
        values: 'CcmFtu',
        optional: 'S',
        long:
          'all/a patch/p reuse-message=/C reedit-message=/c fixup= squash= reset-author short branch porcelain ' +
          'long null/z file=/F author= date= message=/m template=/t signoff/s trailer= no-verify/n verify ' +
          'allow-empty allow-empty-message cleanup= edit/e no-edit amend no-post-rewrite include/i only/o ' +
          'pathspec-from-file= pathspec-file-nul untracked-files?/u verbose/v quiet/q dry-run status no-status ' +
          'gpg-sign?/S no-gpg-sign',
        negatable: true,
      }),
    },
    branch: {
      grammar: grammar({
        flags: 'dDmMcCrailfqvt',
        values: 'u',
        long:
          'delete/d create-reflog force/f move/m copy/c color? no-color list/l abbrev? no-abbrev column? ' +
          'no-column sort= merged? no-merged? contains? no-contains? points-at= format= remotes/r all/a ' +
          'show-current verbose/v quiet/q track? no-track set-upstream-to=/u unset-upstream edit-description ' +
          'ignore-case omit-empty recurse-submodules',
        implies: { D: 'd f', M: 'm f', C: 'c f' },
        negatable: true,
      }),
    },
  },
};
