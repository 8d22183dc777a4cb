/**
 * Each podman command's own options, as `podman COMMAND --help` lists them (podman 4.3, Debian 12), in the notation
 * of `grammar()`: `name` a flag, `name=` takes a value, `/x` its one-letter form. The global options podman reads
 * after a command too (`--root`, `--log-level`, …) are added by the spec.
 */
export const COMMANDS: Readonly<Record<string, string>> = {
  attach: 'detach-keys= latest/l no-stdin sig-proxy',
  'auto-update': 'authfile= dry-run format= rollback',
  build:
    'add-host= all-platforms annotation= arch= authfile= build-arg= build-context= cache-from= cache-to= ' +
    'cache-ttl= cap-add= cap-drop= cert-dir= cgroup-parent= cgroupns= compress cpp-flag= cpu-period= ' +
    'cpu-quota= cpu-shares=/c cpuset-cpus= cpuset-mems= creds= decryption-key= device= ' +
    'disable-compression/D disable-content-trust dns= dns-option= dns-search= env= force-rm format= ' +
    'from= hooks-dir= http-proxy identity-label ignorefile= iidfile= ipc= isolation= jobs= label= layers ' +
    'logfile= logsplit manifest= memory=/m memory-swap= network= no-cache no-hosts omit-history os= ' +
    'os-feature= os-version= output=/o pid= platform= pull= quiet/q retry= retry-delay= rm runtime-flag= ' +
    'secret= security-opt= shm-size= sign-by= skip-unused-stages squash squash-all ssh= stdin tag=/t ' +
    'target= timestamp= tls-verify ulimit= unsetenv= userns= userns-gid-map= userns-gid-map-group= ' +
    'userns-uid-map= userns-uid-map-user= uts= variant= volume=/v',
  commit: 'author=/a change=/c format=/f iidfile= include-volumes message=/m pause/p quiet/q squash/s',
  'container attach': 'detach-keys= latest/l no-stdin sig-proxy',
  'container checkpoint':
    'all/a compress=/c create-image= export=/e file-locks ignore-rootfs ignore-volumes keep/k latest/l ' +
    'leave-running/R pre-checkpoint/P print-stats tcp-established with-previous',
  'container cleanup': 'all/a exec= latest/l rm rmi',
  'container clone':
    'blkio-weight= blkio-weight-device= cpu-period= cpu-quota= cpu-rt-period= cpu-rt-runtime= ' +
    'cpu-shares=/c cpus= cpuset-cpus= cpuset-mems= destroy device-read-bps= device-write-bps= force/f ' +
    'memory=/m memory-reservation= memory-swap= memory-swappiness= name= pod= run',
  'container commit':
    'author=/a change=/c format=/f iidfile= include-volumes message=/m pause/p quiet/q squash/s',
  'container cp': 'archive/a overwrite',
  'container create':
    'add-host= annotation= arch= attach=/a authfile= blkio-weight= blkio-weight-device= cap-add= ' +
    'cap-drop= cgroup-conf= cgroup-parent= cgroupns= cgroups= chrootdirs= cidfile= conmon-pidfile= ' +
    'cpu-period= cpu-quota= cpu-rt-period= cpu-rt-runtime= cpu-shares=/c cpus= cpuset-cpus= cpuset-mems= ' +
    'device= device-cgroup-rule= device-read-bps= device-read-iops= device-write-bps= device-write-iops= ' +
    'disable-content-trust dns= dns-option= dns-search= entrypoint= env=/e env-file= env-host env-merge= ' +
    'expose= gidmap= group-add= health-cmd= health-interval= health-on-failure= health-retries= ' +
    'health-start-period= health-timeout= hostname=/h hostuser= http-proxy image-volume= init init-ctr= ' +
    'init-path= interactive/i ip= ip6= ipc= label=/l label-file= log-driver= log-opt= mac-address= ' +
    'memory=/m memory-reservation= memory-swap= memory-swappiness= mount= name= network= network-alias= ' +
    'no-healthcheck no-hosts oom-kill-disable oom-score-adj= os= passwd-entry= personality= pid= ' +
    'pidfile= pids-limit= platform= pod= pod-id-file= privileged publish=/p publish-all/P pull= quiet/q ' +
    'read-only read-only-tmpfs replace requires= restart= rm rootfs sdnotify= seccomp-policy= secret= ' +
    'security-opt= shm-size= stop-signal= stop-timeout= subgidname= subuidname= sysctl= systemd= ' +
    'timeout= tls-verify tmpfs= tty/t tz= uidmap= ulimit= umask= unsetenv= unsetenv-all user=/u userns= ' +
    'uts= variant= volume=/v volumes-from= workdir=/w',
  'container diff': 'format= latest/l',
  'container exec':
    'detach/d detach-keys= env=/e env-file= interactive/i latest/l preserve-fds= privileged tty/t ' +
    'user=/u workdir=/w',
  'container exists': 'external',
  'container export': 'output=/o',
  'container init': 'all/a latest/l',
  'container inspect': 'format=/f latest/l size/s',
  'container kill': 'all/a cidfile= latest/l signal=/s',
  'container list':
    'all/a external filter=/f format= last=/n latest/l no-trunc noheading ns pod/p quiet/q size/s sort= ' +
    'sync watch=/w',
  'container logs': 'color follow/f latest/l names/n since= tail= timestamps/t until=',
  'container mount': 'all/a format= latest/l no-trunc',
  'container pause': 'all/a cidfile= filter=/f latest/l',
  'container port': 'all/a latest/l',
  'container prune': 'filter= force/f',
  'container ps':
    'all/a external filter=/f format= last=/n latest/l no-trunc noheading ns pod/p quiet/q size/s sort= ' +
    'sync watch=/w',
  'container rename': '',
  'container restart': 'all/a cidfile= filter=/f latest/l running time=/t',
  'container restore':
    'all/a file-locks ignore-rootfs ignore-static-ip ignore-static-mac ignore-volumes import=/i ' +
    'import-previous= keep/k latest/l name=/n pod= print-stats publish=/p tcp-established',
  'container rm': 'all/a cidfile= depend filter= force/f ignore/i latest/l time=/t volumes/v',
  'container run':
    'add-host= annotation= arch= attach=/a authfile= blkio-weight= blkio-weight-device= cap-add= ' +
    'cap-drop= cgroup-conf= cgroup-parent= cgroupns= cgroups= chrootdirs= cidfile= conmon-pidfile= ' +
    'cpu-period= cpu-quota= cpu-rt-period= cpu-rt-runtime= cpu-shares=/c cpus= cpuset-cpus= cpuset-mems= ' +
    'detach/d detach-keys= device= device-cgroup-rule= device-read-bps= device-read-iops= ' +
    'device-write-bps= device-write-iops= disable-content-trust dns= dns-option= dns-search= entrypoint= ' +
    'env=/e env-file= env-host env-merge= expose= gidmap= group-add= health-cmd= health-interval= ' +
    'health-on-failure= health-retries= health-start-period= health-timeout= hostname=/h hostuser= ' +
    'http-proxy image-volume= init init-path= interactive/i ip= ip6= ipc= label=/l label-file= ' +
    'log-driver= log-opt= mac-address= memory=/m memory-reservation= memory-swap= memory-swappiness= ' +
    'mount= name= network= network-alias= no-healthcheck no-hosts oom-kill-disable oom-score-adj= os= ' +
    'passwd passwd-entry= personality= pid= pidfile= pids-limit= platform= pod= pod-id-file= ' +
    'preserve-fds= privileged publish=/p publish-all/P pull= quiet/q read-only read-only-tmpfs replace ' +
    'requires= restart= rm rmi rootfs sdnotify= seccomp-policy= secret= security-opt= shm-size= ' +
    'sig-proxy stop-signal= stop-timeout= subgidname= subuidname= sysctl= systemd= timeout= tls-verify ' +
    'tmpfs= tty/t tz= uidmap= ulimit= umask= unsetenv= unsetenv-all user=/u userns= uts= variant= ' +
    'volume=/v volumes-from= workdir=/w',
  'container runlabel': 'authfile= cert-dir= creds= display name=/n quiet/q replace tls-verify',
  'container start': 'all attach/a detach-keys= filter=/f interactive/i latest/l sig-proxy',
  'container stats': 'all/a format= interval=/i latest/l no-reset no-stream no-trunc',
  'container stop': 'all/a cidfile= filter=/f ignore/i latest/l time=/t',
  'container top': 'latest/l',
  'container unmount': 'all/a force/f latest/l',
  'container unpause': 'all/a cidfile= filter=/f latest/l',
  'container update':
    'blkio-weight= blkio-weight-device= cpu-period= cpu-quota= cpu-rt-period= cpu-rt-runtime= ' +
    'cpu-shares=/c cpus= cpuset-cpus= cpuset-mems= device-read-bps= device-read-iops= device-write-bps= ' +
    'device-write-iops= memory=/m memory-reservation= memory-swap= memory-swappiness=',
  'container wait': 'condition= interval=/i latest/l',
  cp: 'archive/a overwrite',
  create:
    'add-host= annotation= arch= attach=/a authfile= blkio-weight= blkio-weight-device= cap-add= ' +
    'cap-drop= cgroup-conf= cgroup-parent= cgroupns= cgroups= chrootdirs= cidfile= conmon-pidfile= ' +
    'cpu-period= cpu-quota= cpu-rt-period= cpu-rt-runtime= cpu-shares=/c cpus= cpuset-cpus= cpuset-mems= ' +
    'device= device-cgroup-rule= device-read-bps= device-read-iops= device-write-bps= device-write-iops= ' +
    'disable-content-trust dns= dns-option= dns-search= entrypoint= env=/e env-file= env-host env-merge= ' +
    'expose= gidmap= group-add= health-cmd= health-interval= health-on-failure= health-retries= ' +
    'health-start-period= health-timeout= hostname=/h hostuser= http-proxy image-volume= init init-ctr= ' +
    'init-path= interactive/i ip= ip6= ipc= label=/l label-file= log-driver= log-opt= mac-address= ' +
    'memory=/m memory-reservation= memory-swap= memory-swappiness= mount= name= network= network-alias= ' +
    'no-healthcheck no-hosts oom-kill-disable oom-score-adj= os= passwd-entry= personality= pid= ' +
    'pidfile= pids-limit= platform= pod= pod-id-file= privileged publish=/p publish-all/P pull= quiet/q ' +
    'read-only read-only-tmpfs replace requires= restart= rm rootfs sdnotify= seccomp-policy= secret= ' +
    'security-opt= shm-size= stop-signal= stop-timeout= subgidname= subuidname= sysctl= systemd= ' +
    'timeout= tls-verify tmpfs= tty/t tz= uidmap= ulimit= umask= unsetenv= unsetenv-all user=/u userns= ' +
    'uts= variant= volume=/v volumes-from= workdir=/w',
  diff: 'format= latest/l',
  events: 'filter=/f format= no-trunc since= until=',
  exec:
    'detach/d detach-keys= env=/e env-file= interactive/i latest/l preserve-fds= privileged tty/t ' +
    'user=/u workdir=/w',
  export: 'output=/o',
  'generate kube': 'filename=/f service/s',
  'generate spec': 'compact/c filename=/f name/n',
  'generate systemd':
    'after= container-prefix= env=/e files/f format= name/n new no-header pod-prefix= requires= ' +
    'restart-policy= restart-sec= separator= start-timeout= stop-timeout= template wants=',
  'healthcheck run': '',
  history: 'format= human/H no-trunc quiet/q',
  'image build':
    'add-host= all-platforms annotation= arch= authfile= build-arg= build-context= cache-from= cache-to= ' +
    'cache-ttl= cap-add= cap-drop= cert-dir= cgroup-parent= cgroupns= compress cpp-flag= cpu-period= ' +
    'cpu-quota= cpu-shares=/c cpuset-cpus= cpuset-mems= creds= decryption-key= device= ' +
    'disable-compression/D disable-content-trust dns= dns-option= dns-search= env= force-rm format= ' +
    'from= hooks-dir= http-proxy identity-label ignorefile= iidfile= ipc= isolation= jobs= label= layers ' +
    'logfile= logsplit manifest= memory=/m memory-swap= network= no-cache no-hosts omit-history os= ' +
    'os-feature= os-version= output=/o pid= platform= pull= quiet/q retry= retry-delay= rm runtime-flag= ' +
    'secret= security-opt= shm-size= sign-by= skip-unused-stages squash squash-all ssh= stdin tag=/t ' +
    'target= timestamp= tls-verify ulimit= unsetenv= userns= userns-gid-map= userns-gid-map-group= ' +
    'userns-uid-map= userns-uid-map-user= uts= variant= volume=/v',
  'image diff': 'format=',
  'image exists': '',
  'image history': 'format= human/H no-trunc quiet/q',
  'image import': 'arch= change=/c message=/m os= quiet/q variant=',
  'image inspect': 'format=/f',
  'image list': 'all/a digests filter=/f format= history no-trunc noheading/n quiet/q sort=',
  'image load': 'input=/i quiet/q',
  'image mount': 'all/a format=',
  'image prune': 'all/a external filter= force/f',
  'image pull':
    'all-tags/a arch= authfile= cert-dir= creds= disable-content-trust os= platform= quiet/q tls-verify ' +
    'variant=',
  'image push':
    'authfile= cert-dir= compress compression-format= creds= digestfile= disable-content-trust format=/f ' +
    'quiet/q remove-signatures sign-by= sign-by-sigstore-private-key= sign-passphrase-file= tls-verify',
  'image rm': 'all/a force/f ignore/i no-prune',
  'image save': 'compress format= multi-image-archive/m output=/o quiet/q uncompressed',
  'image scp': 'quiet/q',
  'image search': 'authfile= compatible filter=/f format= limit= list-tags no-trunc tls-verify',
  'image sign': 'all/a authfile= cert-dir= directory=/d sign-by=',
  'image tag': '',
  'image tree': 'whatrequires',
  'image trust set': 'pubkeysfile=/f type=/t',
  'image trust show': 'json/j noheading/n raw',
  'image unmount': 'all/a force/f',
  'image untag': '',
  images: 'all/a digests filter=/f format= history no-trunc noheading/n quiet/q sort=',
  import: 'arch= change=/c message=/m os= quiet/q variant=',
  info: 'format=/f',
  init: 'all/a latest/l',
  inspect: 'format=/f latest/l size/s type=/t',
  kill: 'all/a cidfile= latest/l signal=/s',
  'kube down': '',
  'kube generate': 'filename=/f service/s',
  'kube play':
    'annotation= authfile= build cert-dir= configmap= context-dir= creds= ip= log-driver= log-opt= ' +
    'mac-address= network= no-hosts quiet/q replace seccomp-profile-root= start tls-verify userns=',
  load: 'input=/i quiet/q',
  login: 'authfile= cert-dir= get-login password=/p password-stdin tls-verify username=/u verbose/v',
  logout: 'all/a authfile=',
  logs: 'color follow/f latest/l names/n since= tail= timestamps/t until=',
  'machine info': 'format=/f',
  'machine init':
    'cpus= disk-size= ignition-path= image-path= memory=/m now rootful timezone= username= volume=/v ' +
    'volume-driver=',
  'machine inspect': 'format=',
  'machine list': 'format= noheading quiet/q',
  'machine rm': 'force/f save-ignition save-image save-keys',
  'machine set': 'cpus= disk-size= memory=/m rootful',
  'machine ssh': 'username=',
  'machine start': '',
  'machine stop': '',
  'manifest add':
    'all annotation= arch= authfile= cert-dir= creds= features= os= os-version= tls-verify variant=',
  'manifest annotate': 'annotation= arch= features= os= os-features= os-version= variant=',
  'manifest create': 'all amend/a tls-verify',
  'manifest exists': '',
  'manifest inspect': '',
  'manifest push':
    'all authfile= cert-dir= compression-format= creds= digestfile= format=/f quiet/q remove-signatures ' +
    'rm sign-by= sign-by-sigstore-private-key= sign-passphrase-file= tls-verify',
  'manifest remove': '',
  'manifest rm': '',
  mount: 'all/a format= latest/l no-trunc',
  'network connect': 'alias= ip= ip6= mac-address=',
  'network create':
    'disable-dns driver=/d gateway= internal ip-range= ipam-driver= ipv6 label= opt=/o subnet=',
  'network disconnect': 'force/f',
  'network exists': '',
  'network inspect': 'format=/f',
  'network ls': 'filter=/f format= no-trunc noheading quiet/q',
  'network prune': 'filter= force/f',
  'network reload': 'all/a latest/l',
  'network rm': 'force/f time=/t',
  pause: 'all/a cidfile= filter=/f latest/l',
  'pod clone':
    'blkio-weight= blkio-weight-device= cgroup-parent= cpu-shares=/c cpus= cpuset-cpus= cpuset-mems= ' +
    'destroy device= device-read-bps= device-write-bps= gidmap= hostname=/h infra-command= ' +
    'infra-conmon-pidfile= infra-name= label=/l label-file= memory=/m memory-swap= name=/n pid= ' +
    'security-opt= shm-size= start subgidname= subuidname= sysctl= uidmap= userns= uts= volume=/v ' +
    'volumes-from=',
  'pod create':
    'add-host= blkio-weight= blkio-weight-device= cgroup-parent= cpu-shares=/c cpus= cpuset-cpus= ' +
    'cpuset-mems= device= device-read-bps= device-write-bps= dns= dns-option= dns-search= exit-policy= ' +
    'gidmap= hostname=/h infra infra-command= infra-conmon-pidfile= infra-image= infra-name= ip= ip6= ' +
    'label=/l label-file= mac-address= memory=/m memory-swap= name=/n network= network-alias= no-hosts ' +
    'pid= pod-id-file= publish=/p replace security-opt= share= share-parent shm-size= subgidname= ' +
    'subuidname= sysctl= uidmap= userns= uts= volume=/v volumes-from=',
  'pod exists': '',
  'pod inspect': 'format=/f latest/l',
  'pod kill': 'all/a latest/l signal=/s',
  'pod logs': 'color container=/c follow/f latest/l names/n since= tail= timestamps/t until=',
  'pod pause': 'all/a latest/l',
  'pod prune': 'force/f',
  'pod ps': 'ctr-ids ctr-names ctr-status filter=/f format= latest/l no-trunc noheading ns quiet/q sort=',
  'pod restart': 'all/a latest/l',
  'pod rm': 'all/a force/f ignore/i latest/l pod-id-file= time=/t',
  'pod start': 'all/a latest/l pod-id-file=',
  'pod stats': 'all/a format= latest/l no-reset no-stream',
  'pod stop': 'all/a ignore/i latest/l pod-id-file= time=/t',
  'pod top': 'latest/l',
  'pod unpause': 'all/a latest/l',
  port: 'all/a latest/l',
  ps:
    'all/a external filter=/f format= last=/n latest/l no-trunc noheading ns pod/p quiet/q size/s sort= ' +
    'sync watch=/w',
  pull:
    'all-tags/a arch= authfile= cert-dir= creds= disable-content-trust os= platform= quiet/q tls-verify ' +
    'variant=',
  push:
    'authfile= cert-dir= compress compression-format= creds= digestfile= disable-content-trust format=/f ' +
    'quiet/q remove-signatures sign-by= sign-by-sigstore-private-key= sign-passphrase-file= tls-verify',
  rename: '',
  restart: 'all/a cidfile= filter=/f latest/l running time=/t',
  rm: 'all/a cidfile= depend filter= force/f ignore/i latest/l time=/t volumes/v',
  rmi: 'all/a force/f ignore/i no-prune',
  run:
    'add-host= annotation= arch= attach=/a authfile= blkio-weight= blkio-weight-device= cap-add= ' +
    'cap-drop= cgroup-conf= cgroup-parent= cgroupns= cgroups= chrootdirs= cidfile= conmon-pidfile= ' +
    'cpu-period= cpu-quota= cpu-rt-period= cpu-rt-runtime= cpu-shares=/c cpus= cpuset-cpus= cpuset-mems= ' +
    'detach/d detach-keys= device= device-cgroup-rule= device-read-bps= device-read-iops= ' +
    'device-write-bps= device-write-iops= disable-content-trust dns= dns-option= dns-search= entrypoint= ' +
    'env=/e env-file= env-host env-merge= expose= gidmap= group-add= health-cmd= health-interval= ' +
    'health-on-failure= health-retries= health-start-period= health-timeout= hostname=/h hostuser= ' +
    'http-proxy image-volume= init init-path= interactive/i ip= ip6= ipc= label=/l label-file= ' +
    'log-driver= log-opt= mac-address= memory=/m memory-reservation= memory-swap= memory-swappiness= ' +
    'mount= name= network= network-alias= no-healthcheck no-hosts oom-kill-disable oom-score-adj= os= ' +
    'passwd passwd-entry= personality= pid= pidfile= pids-limit= platform= pod= pod-id-file= ' +
    'preserve-fds= privileged publish=/p publish-all/P pull= quiet/q read-only read-only-tmpfs replace ' +
    'requires= restart= rm rmi rootfs sdnotify= seccomp-policy= secret= security-opt= shm-size= ' +
    'sig-proxy stop-signal= stop-timeout= subgidname= subuidname= sysctl= systemd= timeout= tls-verify ' +
    'tmpfs= tty/t tz= uidmap= ulimit= umask= unsetenv= unsetenv-all user=/u userns= uts= variant= ' +
    'volume=/v volumes-from= workdir=/w',
  save: 'compress format= multi-image-archive/m output=/o quiet/q uncompressed',
  search: 'authfile= compatible filter=/f format= limit= list-tags no-trunc tls-verify',
  'secret create': 'driver=/d driver-opts= env label=/l',
  'secret inspect': 'format=/f pretty',
  'secret ls': 'filter=/f format= noheading quiet/q',
  'secret rm': 'all/a',
  start: 'all attach/a detach-keys= filter=/f interactive/i latest/l sig-proxy',
  stats: 'all/a format= interval=/i latest/l no-reset no-stream no-trunc',
  stop: 'all/a cidfile= filter=/f ignore/i latest/l time=/t',
  'system connection add': 'default/d identity= port=/p socket-path=',
  'system connection default': '',
  'system connection list': 'format=/f quiet/q',
  'system connection remove': 'all/a',
  'system connection rename': '',
  'system df': 'format= verbose/v',
  'system info': 'format=/f',
  'system migrate': 'new-runtime=',
  'system prune': 'all/a filter= force/f volumes',
  'system renumber': '',
  'system reset': 'force/f',
  'system service': 'cors= time=/t',
  tag: '',
  top: 'latest/l',
  unmount: 'all/a force/f latest/l',
  unpause: 'all/a cidfile= filter=/f latest/l',
  unshare: 'rootless-netns',
  untag: '',
  update:
    'blkio-weight= blkio-weight-device= cpu-period= cpu-quota= cpu-rt-period= cpu-rt-runtime= ' +
    'cpu-shares=/c cpus= cpuset-cpus= cpuset-mems= device-read-bps= device-read-iops= device-write-bps= ' +
    'device-write-iops= memory=/m memory-reservation= memory-swap= memory-swappiness=',
  version: 'format=/f',
  'volume create': 'driver= label=/l opt=/o',
  'volume exists': '',
  'volume export': 'output=/o',
  'volume import': '',
  'volume inspect': 'all/a format=/f',
  'volume ls': 'filter=/f format= noheading quiet/q',
  'volume mount': '',
  'volume prune': 'filter= force/f',
  'volume reload': '',
  'volume rm': 'all/a force/f time=/t',
  'volume unmount': '',
  wait: 'condition= interval=/i latest/l',
};
