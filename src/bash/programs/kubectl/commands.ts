/**
 * Each kubectl command's own options, as `kubectl COMMAND --help` lists them (kubectl 1.32), in the notation of
 * `grammar()`: `name` a flag (pflag also reads `--name=false`), `name=` takes a value, `/x` its one-letter form.
 * The global options (`kubectl options`) are read by every command.
 */
export const COMMANDS: Readonly<Record<string, string>> = {
  create:
    'allow-missing-template-keys dry-run= edit field-manager= filename=/f kustomize=/k output=/o raw= recursive/R save-config selector=/l show-managed-fields template= validate= windows-line-endings',
  'create clusterrole':
    'aggregation-rule= allow-missing-template-keys dry-run= field-manager= non-resource-url= output=/o resource= resource-name= save-config show-managed-fields template= validate= verb=',
  'create clusterrolebinding':
    'allow-missing-template-keys clusterrole= dry-run= field-manager= group= output=/o save-config serviceaccount= show-managed-fields template= user= validate=',
  'create configmap':
    'allow-missing-template-keys append-hash dry-run= field-manager= from-env-file= from-file= from-literal= output=/o save-config show-managed-fields template= validate=',
  'create cronjob':
    'allow-missing-template-keys dry-run= field-manager= image= output=/o restart= save-config schedule= show-managed-fields template= validate=',
  'create deployment':
    'allow-missing-template-keys dry-run= field-manager= image= output=/o port= replicas=/r save-config show-managed-fields template= validate=',
  'create ingress':
    'allow-missing-template-keys annotation= class= default-backend= dry-run= field-manager= output=/o rule= save-config show-managed-fields template= validate=',
  'create job':
    'allow-missing-template-keys dry-run= field-manager= from= image= output=/o save-config show-managed-fields template= validate=',
  'create namespace':
    'allow-missing-template-keys dry-run= field-manager= output=/o save-config show-managed-fields template= validate=',
  'create poddisruptionbudget':
    'allow-missing-template-keys dry-run= field-manager= max-unavailable= min-available= output=/o save-config selector= show-managed-fields template= validate=',
  'create priorityclass':
    'allow-missing-template-keys description= dry-run= field-manager= global-default output=/o preemption-policy= save-config show-managed-fields template= validate= value=',
  'create quota':
    'allow-missing-template-keys dry-run= field-manager= hard= output=/o save-config scopes= show-managed-fields template= validate=',
  'create role':
    'allow-missing-template-keys dry-run= field-manager= output=/o resource= resource-name= save-config show-managed-fields template= validate= verb=',
  'create rolebinding':
    'allow-missing-template-keys clusterrole= dry-run= field-manager= group= output=/o role= save-config serviceaccount= show-managed-fields template= user= validate=',
  'create secret': '',
  'create secret docker-registry':
    'allow-missing-template-keys append-hash docker-email= docker-password= docker-server= docker-username= dry-run= field-manager= from-file= output=/o save-config show-managed-fields template= validate=',
  'create secret generic':
    'allow-missing-template-keys append-hash dry-run= field-manager= from-env-file= from-file= from-literal= output=/o save-config show-managed-fields template= type= validate=',
  'create secret tls':
    'allow-missing-template-keys append-hash cert= dry-run= field-manager= key= output=/o save-config show-managed-fields template= validate=',
  'create service': '',
  'create service clusterip':
    'allow-missing-template-keys clusterip= dry-run= field-manager= output=/o save-config show-managed-fields tcp= template= validate=',
  'create service externalname':
    'allow-missing-template-keys dry-run= external-name= field-manager= output=/o save-config show-managed-fields tcp= template= validate=',
  'create service loadbalancer':
    'allow-missing-template-keys dry-run= field-manager= output=/o save-config show-managed-fields tcp= template= validate=',
  'create service nodeport':
    'allow-missing-template-keys dry-run= field-manager= node-port= output=/o save-config show-managed-fields tcp= template= validate=',
  'create serviceaccount':
    'allow-missing-template-keys dry-run= field-manager= output=/o save-config show-managed-fields template= validate=',
  'create token':
    'allow-missing-template-keys audience= bound-object-kind= bound-object-name= bound-object-uid= duration= output=/o show-managed-fields template=',
  expose:
    'allow-missing-template-keys cluster-ip= dry-run= external-ip= field-manager= filename=/f kustomize=/k labels=/l load-balancer-ip= name= output=/o override-type= overrides= port= protocol= recursive/R save-config selector= session-affinity= show-managed-fields target-port= template= type=',
  run: 'allow-missing-template-keys annotations= attach cascade= command dry-run= env= expose field-manager= filename=/f force grace-period= image= image-pull-policy= kustomize=/k labels=/l leave-stdin-open output=/o override-type= overrides= pod-running-timeout= port= privileged quiet/q recursive/R restart= rm save-config show-managed-fields stdin/i template= timeout= tty/t wait',
  set: '',
  'set env':
    'all allow-missing-template-keys containers=/c dry-run= env=/e field-manager= filename=/f from= keys= kustomize=/k list local output=/o overwrite prefix= recursive/R resolve selector=/l show-managed-fields template=',
  'set image':
    'all allow-missing-template-keys dry-run= field-manager= filename=/f kustomize=/k local output=/o recursive/R selector=/l show-managed-fields template=',
  'set resources':
    'all allow-missing-template-keys containers=/c dry-run= field-manager= filename=/f kustomize=/k limits= local output=/o recursive/R requests= selector=/l show-managed-fields template=',
  'set selector':
    'all allow-missing-template-keys dry-run= field-manager= filename=/f local output=/o recursive/R resource-version= show-managed-fields template=',
  'set serviceaccount':
    'all allow-missing-template-keys dry-run= field-manager= filename=/f kustomize=/k local output=/o recursive/R show-managed-fields template=',
  'set subject':
    'all allow-missing-template-keys dry-run= field-manager= filename=/f group= kustomize=/k local output=/o recursive/R selector=/l serviceaccount= show-managed-fields template= user=',
  explain: 'api-version= output=/o recursive',
  get: 'all-namespaces/A allow-missing-template-keys chunk-size= field-selector= filename=/f ignore-not-found kustomize=/k label-columns=/L no-headers output=/o output-watch-events raw= recursive/R selector=/l server-print show-kind show-labels show-managed-fields sort-by= subresource= template= watch/w watch-only',
  edit: 'allow-missing-template-keys field-manager= filename=/f kustomize=/k output=/o output-patch recursive/R save-config show-managed-fields subresource= template= validate= windows-line-endings',
  delete:
    'all all-namespaces/A cascade= dry-run= field-selector= filename=/f force grace-period= ignore-not-found interactive/i kustomize=/k now output=/o raw= recursive/R selector=/l timeout= wait',
  rollout: '',
  'rollout history':
    'allow-missing-template-keys filename=/f kustomize=/k output=/o recursive/R revision= selector=/l show-managed-fields template=',
  'rollout pause':
    'allow-missing-template-keys field-manager= filename=/f kustomize=/k output=/o recursive/R selector=/l show-managed-fields template=',
  'rollout restart':
    'allow-missing-template-keys field-manager= filename=/f kustomize=/k output=/o recursive/R selector=/l show-managed-fields template=',
  'rollout resume':
    'allow-missing-template-keys field-manager= filename=/f kustomize=/k output=/o recursive/R selector=/l show-managed-fields template=',
  'rollout status': 'filename=/f kustomize=/k recursive/R revision= selector=/l timeout= watch/w',
  'rollout undo':
    'allow-missing-template-keys dry-run= filename=/f kustomize=/k output=/o recursive/R selector=/l show-managed-fields template= to-revision=',
  scale:
    'all allow-missing-template-keys current-replicas= dry-run= filename=/f kustomize=/k output=/o recursive/R replicas= resource-version= selector=/l show-managed-fields template= timeout=',
  autoscale:
    'allow-missing-template-keys cpu-percent= dry-run= field-manager= filename=/f kustomize=/k max= min= name= output=/o recursive/R save-config show-managed-fields template=',
  certificate: '',
  'certificate approve':
    'allow-missing-template-keys filename=/f force kustomize=/k output=/o recursive/R show-managed-fields template=',
  'certificate deny':
    'allow-missing-template-keys filename=/f force kustomize=/k output=/o recursive/R show-managed-fields template=',
  'cluster-info': '',
  'cluster-info dump':
    'all-namespaces/A allow-missing-template-keys namespaces= output=/o output-directory= pod-running-timeout= show-managed-fields template=',
  top: '',
  'top node': 'no-headers selector=/l show-capacity sort-by= use-protocol-buffers',
  'top pod':
    'all-namespaces/A containers field-selector= no-headers selector=/l sort-by= sum use-protocol-buffers',
  cordon: 'dry-run= selector=/l',
  uncordon: 'dry-run= selector=/l',
  drain:
    'chunk-size= delete-emptydir-data disable-eviction dry-run= force grace-period= ignore-daemonsets pod-selector= selector=/l skip-wait-for-delete-timeout= timeout=',
  taint:
    'all allow-missing-template-keys dry-run= field-manager= output=/o overwrite selector=/l show-managed-fields template= validate=',
  describe: 'all-namespaces/A chunk-size= filename=/f kustomize=/k recursive/R selector=/l show-events',
  logs: 'all-containers all-pods container=/c follow/f ignore-errors insecure-skip-tls-verify-backend limit-bytes= max-log-requests= pod-running-timeout= prefix previous/p selector=/l since= since-time= tail= timestamps',
  attach: 'container=/c pod-running-timeout= quiet/q stdin/i tty/t',
  exec: 'container=/c filename=/f pod-running-timeout= quiet/q stdin/i tty/t',
  'port-forward': 'address= pod-running-timeout=',
  proxy:
    'accept-hosts= accept-paths= address= api-prefix= append-server-path disable-filter keepalive= port=/p reject-methods= reject-paths= unix-socket=/u www=/w www-prefix=/P',
  cp: 'container=/c no-preserve retries=',
  auth: '',
  'auth can-i': 'all-namespaces/A list no-headers quiet/q subresource=',
  'auth reconcile':
    'allow-missing-template-keys dry-run= filename=/f kustomize=/k output=/o recursive/R remove-extra-permissions remove-extra-subjects show-managed-fields template=',
  'auth whoami': 'allow-missing-template-keys output=/o show-managed-fields template=',
  debug:
    'arguments-only attach container=/c copy-to= custom= env= filename=/f image= image-pull-policy= keep-annotations keep-init-containers keep-labels keep-liveness keep-readiness keep-startup profile= quiet/q replace same-node set-image= share-processes stdin/i target= tty/t',
  events:
    'all-namespaces/A allow-missing-template-keys chunk-size= for= no-headers output=/o show-managed-fields template= types= watch/w',
  diff: 'concurrency= field-manager= filename=/f force-conflicts kustomize=/k prune prune-allowlist= recursive/R selector=/l server-side show-managed-fields',
  apply:
    'all allow-missing-template-keys cascade= dry-run= field-manager= filename=/f force force-conflicts grace-period= kustomize=/k openapi-patch output=/o overwrite prune prune-allowlist= recursive/R selector=/l server-side show-managed-fields subresource= template= timeout= validate= wait',
  'apply edit-last-applied':
    'allow-missing-template-keys field-manager= filename=/f kustomize=/k output=/o recursive/R show-managed-fields template= validate= windows-line-endings',
  'apply set-last-applied':
    'allow-missing-template-keys create-annotation dry-run= filename=/f output=/o show-managed-fields template=',
  'apply view-last-applied': 'all filename=/f kustomize=/k output=/o recursive/R selector=/l',
  patch:
    'allow-missing-template-keys dry-run= field-manager= filename=/f kustomize=/k local output=/o patch=/p patch-file= recursive/R show-managed-fields subresource= template= type=',
  replace:
    'allow-missing-template-keys cascade= dry-run= field-manager= filename=/f force grace-period= kustomize=/k output=/o raw= recursive/R save-config show-managed-fields subresource= template= timeout= validate= wait',
  wait: 'all all-namespaces/A allow-missing-template-keys field-selector= filename=/f for= local output=/o recursive/R selector=/l show-managed-fields template= timeout=',
  kustomize:
    'as-current-user enable-alpha-plugins enable-helm env=/e helm-api-versions= helm-command= helm-debug helm-kube-version= load-restrictor= mount= network network-name= output=/o',
  label:
    'all all-namespaces/A allow-missing-template-keys dry-run= field-manager= field-selector= filename=/f kustomize=/k list local output=/o overwrite recursive/R resource-version= selector=/l show-managed-fields template=',
  annotate:
    'all all-namespaces/A allow-missing-template-keys dry-run= field-manager= field-selector= filename=/f kustomize=/k list local output=/o overwrite recursive/R resource-version= selector=/l show-managed-fields template=',
  completion: '',
  'api-resources': 'api-group= cached categories= namespaced no-headers output=/o sort-by= verbs=',
  'api-versions': '',
  config: '',
  'config current-context': '',
  'config delete-cluster': '',
  'config delete-context': '',
  'config delete-user': '',
  'config get-clusters': '',
  'config get-contexts': 'no-headers output=/o',
  'config get-users': '',
  'config rename-context': '',
  'config set': 'set-raw-bytes',
  'config set-cluster':
    'certificate-authority= embed-certs insecure-skip-tls-verify proxy-url= server= tls-server-name=',
  'config set-context': 'cluster= current namespace= user=',
  'config set-credentials':
    'auth-provider= auth-provider-arg= client-certificate= client-key= embed-certs exec-api-version= exec-arg= exec-command= exec-env= exec-interactive-mode= exec-provide-cluster-info password= token= username=',
  'config unset': '',
  'config use-context': '',
  'config view':
    'allow-missing-template-keys flatten merge minify output=/o raw show-managed-fields template=',
  plugin: '',
  'plugin list': 'name-only',
  version: 'client output=/o',
  help: '',
  options: '',
};
