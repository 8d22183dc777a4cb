/**
 * Each gh command's own options in the notation of `grammar()` (`name` a flag, `name=` takes a value, `/x` its
 * one-letter form): as `gh help reference` of gh 2.23.0 (Debian) lists them, joined with the options the newer
 * commands declare in github.com/cli/cli's source (pkg/cmd, October 2024: cache, variable, ruleset, org, project,
 * search code, codespace view and the newer options of the read commands; attestation, from pkg/cmd/attestation). `-R/--repo`, which a command group
 * lends its commands, is added by the spec.
 */
export const COMMANDS: Readonly<Record<string, string>> = {
  'alias delete': '',
  'alias list': '',
  'alias set': 'shell/s',
  api:
    'cache= field=/F header=/H hostname= include/i input= jq=/q method=/X paginate preview=/p ' +
    'raw-field=/f silent slurp template=/t verbose',
  'attestation download': 'hostname= limit=/L owner=/o predicate-type= repo=/R',
  'attestation inspect': 'bundle=/b format= hostname= jq=/q template=/t',
  'attestation trusted-root': 'hostname= tuf-root= tuf-url= verify-only',
  'attestation verify':
    'bundle=/b bundle-from-oci cert-identity= cert-identity-regex=/i cert-oidc-issuer= custom-trusted-root= ' +
    'deny-self-hosted-runners digest-alg=/d format= hostname= jq=/q limit=/L no-public-good owner=/o ' +
    'predicate-type= repo=/R signer-repo= signer-workflow= template=/t',
  'auth login': 'git-protocol=/p hostname=/h scopes=/s web/w with-token',
  'auth logout': 'hostname=/h',
  'auth refresh': 'hostname=/h scopes=/s',
  'auth setup-git': 'hostname=/h',
  'auth status': 'active/a hostname=/h show-token/t',
  'auth token': 'hostname=/h',
  browse: 'branch=/b commit/c no-browser/n projects/p settings/s wiki/w',
  'cache delete': 'all/a',
  'cache list': 'jq=/q json= key=/k limit=/L order=/O ref=/r sort=/S template=/t',
  'codespace code': 'codespace=/c insiders web/w',
  'codespace cp': 'codespace=/c expand/e profile=/p recursive/r',
  'codespace create':
    'branch=/b default-permissions devcontainer-path= display-name=/d idle-timeout= location=/l ' +
    'machine=/m repo=/R retention-period= status/s',
  'codespace delete': 'all codespace=/c days= force/f org=/o repo=/R user=/u',
  'codespace edit': 'codespace=/c display-name=/d machine=/m',
  'codespace jupyter': 'codespace=/c',
  'codespace list': 'jq=/q json= limit=/L org=/o repo=/R template=/t user=/u web/w',
  'codespace logs': 'codespace=/c follow/f',
  'codespace ports forward': 'codespace=/c',
  'codespace ports visibility': 'codespace=/c',
  'codespace rebuild': 'codespace=/c full',
  'codespace ssh': 'codespace=/c config debug/d debug-file= profile= server-port=',
  'codespace stop': 'codespace=/c org=/o user=/u',
  'codespace view': 'jq=/q json= template=/t codespace=/c repo=/R repo-owner=',
  completion: 'shell=/s',
  'config get': 'host=/h',
  'config list': 'host=/h',
  'config set': 'host=/h',
  'extension browse': 'debug single-column/s',
  'extension create': 'precompiled=',
  'extension exec': '',
  'extension install': 'pin=',
  'extension list': '',
  'extension remove': '',
  'extension search': 'jq=/q json= license= limit=/L order= owner= sort= template=/t web/w',
  'extension upgrade': 'all dry-run force',
  'gist clone': '',
  'gist create': 'desc=/d filename=/f public/p web/w',
  'gist delete': '',
  'gist edit': 'add=/a desc=/d filename=/f',
  'gist list': 'filter= include-content limit=/L public secret',
  'gist view': 'filename=/f files raw/r web/w',
  'gpg-key add': '',
  'gpg-key delete': 'yes/y',
  'gpg-key list': '',
  'issue close': 'comment=/c reason=/r',
  'issue comment': 'body=/b body-file=/F edit-last editor/e web/w',
  'issue create': 'assignee=/a body=/b body-file=/F label=/l milestone=/m project=/p recover= title=/t web/w',
  'issue delete': 'yes',
  'issue develop': 'base=/b checkout/c issue-repo=/i list/l name=/n',
  'issue edit':
    'add-assignee= add-label= add-project= body=/b body-file=/F milestone=/m remove-assignee= ' +
    'remove-label= remove-project= title=/t',
  'issue list':
    'app= assignee=/a author=/A jq=/q json= label=/l limit=/L mention= milestone=/m search=/S ' +
    'state=/s template=/t web/w',
  'issue lock': 'reason=/r',
  'issue pin': '',
  'issue reopen': 'comment=/c',
  'issue status': 'jq=/q json= template=/t',
  'issue transfer': '',
  'issue unlock': '',
  'issue unpin': '',
  'issue view': 'comments/c jq=/q json= template=/t web/w',
  'label clone': 'force/f',
  'label create': 'color=/c description=/d force/f',
  'label delete': 'yes',
  'label edit': 'color=/c description=/d name=/n',
  'label list': 'jq=/q json= limit=/L order= search=/S sort= template=/t web/w',
  'org list': 'limit=/L',
  'pr checkout': 'branch=/b detach force/f recurse-submodules',
  'pr checks': 'fail-fast interval=/i jq=/q json= required template=/t watch web/w',
  'pr close': 'comment=/c delete-branch/d',
  'pr comment': 'body=/b body-file=/F edit-last editor/e web/w',
  'pr create':
    'assignee=/a base=/B body=/b body-file=/F draft/d fill/f head=/H label=/l milestone=/m ' +
    'no-maintainer-edit project=/p recover= reviewer=/r title=/t web/w',
  'pr diff': 'color= name-only patch web/w',
  'pr edit':
    'add-assignee= add-label= add-project= add-reviewer= base=/B body=/b body-file=/F ' +
    'milestone=/m remove-assignee= remove-label= remove-project= remove-reviewer= title=/t',
  'pr list':
    'app= assignee=/a author=/A base=/B draft/d head=/H jq=/q json= label=/l limit=/L search=/S ' +
    'state=/s template=/t web/w',
  'pr lock': 'reason=/r',
  'pr merge':
    'admin author-email=/A auto body=/b body-file=/F delete-branch/d disable-auto ' +
    'match-head-commit= merge/m rebase/r squash/s subject=/t',
  'pr ready': 'undo',
  'pr reopen': 'comment=/c',
  'pr review': 'approve/a body=/b body-file=/F comment/c request-changes/r',
  'pr status': 'conflict-status/c jq=/q json= template=/t',
  'pr unlock': '',
  'pr view': 'comments/c jq=/q json= template=/t web/w',
  'project field-list': 'format= jq=/q limit=/L owner= template=/t',
  'project item-list': 'format= jq=/q limit=/L owner= template=/t',
  'project list': 'closed format= jq=/q limit=/L owner= template=/t web/w',
  'project view': 'format= jq=/q owner= template=/t web/w',
  'release create':
    'discussion-category= draft/d generate-notes latest notes=/n notes-file=/F notes-start-tag= ' +
    'prerelease/p target= title=/t verify-tag',
  'release delete': 'cleanup-tag yes/y',
  'release delete-asset': 'yes/y',
  'release download': 'archive=/A clobber dir=/D output=/O pattern=/p skip-existing',
  'release edit': 'discussion-category= draft latest notes=/n notes-file=/F prerelease tag= target= title=/t',
  'release list': 'exclude-drafts exclude-pre-releases jq=/q json= limit=/L order=/O template=/t',
  'release upload': 'clobber',
  'release view': 'jq=/q json= template=/t web/w',
  'repo archive': 'yes/y',
  'repo clone': 'upstream-remote-name=/u',
  'repo create':
    'add-readme clone/c description=/d disable-issues disable-wiki gitignore=/g homepage=/h ' +
    'include-all-branches internal license=/l private public push remote=/r source=/s team=/t ' +
    'template=/p',
  'repo delete': 'yes',
  'repo deploy-key add': 'allow-write/w title=/t',
  'repo deploy-key delete': '',
  'repo deploy-key list': 'jq=/q json= template=/t',
  'repo edit':
    'add-topic= allow-forking allow-update-branch default-branch= delete-branch-on-merge ' +
    'description=/d enable-auto-merge enable-discussions enable-issues enable-merge-commit ' +
    'enable-projects enable-rebase-merge enable-squash-merge enable-wiki homepage=/h ' +
    'remove-topic= template visibility=',
  'repo fork': 'clone default-branch-only fork-name= org= remote remote-name=',
  'repo list':
    'archived fork jq=/q json= language=/l limit=/L no-archived private public source ' +
    'template=/t topic= visibility=',
  'repo rename': 'yes/y',
  'repo set-default': 'unset/u view/v',
  'repo sync': 'branch=/b force source=/s',
  'repo view': 'branch=/b jq=/q json= template=/t web/w',
  'ruleset check': 'default web/w',
  'ruleset list': 'limit=/L org=/o parents/p web/w',
  'ruleset view': 'org=/o parents/p web/w',
  'run cancel': '',
  'run download': 'dir=/D name=/n pattern=/p',
  'run list':
    'all/a branch=/b commit=/c created= event=/e jq=/q json= limit=/L status=/s template=/t ' +
    'user=/u workflow=/w',
  'run rerun': 'debug/d failed job=/j',
  'run view': 'attempt=/a exit-status job=/j jq=/q json= log log-failed template=/t verbose/v web/w',
  'run watch': 'exit-status interval=/i',
  'search code':
    'extension= filename= jq=/q json= language= limit=/L match= owner= repo=/R size= ' + 'template=/t web/w',
  'search commits':
    'author= author-date= author-email= author-name= committer= committer-date= ' +
    'committer-email= committer-name= hash= jq=/q json= limit=/L merge order= owner= parent= ' +
    'repo= sort= template=/t tree= visibility= web/w',
  'search issues':
    'app= archived assignee= author= closed= commenter= comments= created= include-prs ' +
    'interactions= involves= jq=/q json= label= language= limit=/L locked match= mentions= ' +
    'milestone= no-assignee no-label no-milestone no-project order= owner= project= reactions= ' +
    'repo= sort= state= team-mentions= template=/t updated= visibility= web/w',
  'search prs':
    'app= archived assignee= author= base=/B checks= closed= commenter= comments= created= ' +
    'draft head=/H interactions= involves= jq=/q json= label= language= limit=/L locked match= ' +
    'mentions= merged merged-at= milestone= no-assignee no-label no-milestone no-project order= ' +
    'owner= project= reactions= repo= review= review-requested= reviewed-by= sort= state= ' +
    'team-mentions= template=/t updated= visibility= web/w',
  'search repos':
    'archived created= followers= forks= good-first-issues= help-wanted-issues= include-forks= ' +
    'jq=/q json= language= license= limit=/L match= number-topics= order= owner= size= sort= ' +
    'stars= template=/t topic= updated= visibility= web/w',
  'secret delete': 'app=/a env=/e org=/o user/u',
  'secret list': 'app=/a env=/e jq=/q json= org=/o template=/t user/u',
  'secret set': 'app=/a body=/b env=/e env-file=/f no-store org=/o repos=/r user/u visibility=/v',
  'ssh-key add': 'title=/t',
  'ssh-key delete': 'yes/y',
  'ssh-key list': '',
  status: 'exclude=/e org=/o',
  'variable delete': 'env=/e org=/o',
  'variable get': 'env=/e jq=/q json= org=/o template=/t',
  'variable list': 'env=/e jq=/q json= org=/o template=/t',
  'variable set': 'body=/b env=/e env-file=/f org=/o repos=/r visibility=/v',
  'workflow disable': '',
  'workflow enable': '',
  'workflow list': 'all/a jq=/q json= limit=/L template=/t',
  'workflow run': 'field=/F json raw-field=/f ref=/r',
  'workflow view': 'ref=/r web/w yaml/y',
};
