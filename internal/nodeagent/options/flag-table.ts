/**
 * The node agent's flags: kubelet 1.33's names, defaults and help texts. A flag backed by a
 * KubeletConfiguration field names it (config) and is applied over --config and --config-dir, as
 * kubelet's flags are; the others are kubelet's command-line-only flags, plus Capstan's --runtime and
 * --nodes (simulated nodes).
 */

/** How a flag's text value is read. */
export type FlagType = 'string' | 'bool' | 'int' | 'duration' | 'strings' | 'quantity' | 'langleMap' | 'equalsMap' | 'labels' | 'taints' | 'headers' | 'level';

/** One flag. */
export interface FlagDef {
  readonly name: string;
  readonly type: FlagType;
  readonly help: string;
  /** The default as --help shows it (omitted: none shown). */
  readonly def?: string;
  /** The KubeletConfiguration field (dotted for nested) the flag sets. */
  readonly config?: string;
  /** pflag's one-letter shorthand. */
  readonly short?: string;
}

const viaConfig =
  " (DEPRECATED: This parameter should be set via the config file specified by the Kubelet's --config flag. See https://kubernetes.io/docs/tasks/administer-cluster/kubelet-config-file/ for more information.)";

function c(name: string, type: FlagType, config: string, help: string, def?: string): FlagDef {
  return { name, type, config, help: `${help}${def !== undefined ? ` (default ${def})` : ''}${viaConfig}`, ...(def !== undefined ? { def } : {}) };
}

function f(name: string, type: FlagType, help: string, def?: string): FlagDef {
  return { name, type, help: `${help}${def !== undefined ? ` (default ${def})` : ''}`, ...(def !== undefined ? { def } : {}) };
}

/** Every flag, in --help order (alphabetical, as pflag sorts them). */
export const flagTable: readonly FlagDef[] = [
  c('address', 'string', 'address', "The IP address for the Kubelet to serve on (set to '0.0.0.0' or '::' for listening on all interfaces and IP address families)", '0.0.0.0'),
  c('anonymous-auth', 'bool', 'authentication.anonymous.enabled', "Enables anonymous requests to the Kubelet server. Requests that are not rejected by another authentication method are treated as anonymous requests. Anonymous requests have a username of 'system:anonymous', and a group name of 'system:unauthenticated'.", 'true'),
  c('authentication-token-webhook', 'bool', 'authentication.webhook.enabled', 'Use the TokenReview API to determine authentication for bearer tokens.'),
  c('authentication-token-webhook-cache-ttl', 'duration', 'authentication.webhook.cacheTTL', 'The duration to cache responses from the webhook token authenticator.', '2m0s'),
  c('authorization-mode', 'string', 'authorization.mode', 'Authorization mode for Kubelet server. Valid options are AlwaysAllow or Webhook. Webhook mode uses the SubjectAccessReview API to determine authorization. (default "AlwaysAllow" when --config flag is not provided; "Webhook" when --config flag presents.)'),
  c('authorization-webhook-cache-authorized-ttl', 'duration', 'authorization.webhook.cacheAuthorizedTTL', "The duration to cache 'authorized' responses from the webhook authorizer.", '5m0s'),
  c('authorization-webhook-cache-unauthorized-ttl', 'duration', 'authorization.webhook.cacheUnauthorizedTTL', "The duration to cache 'unauthorized' responses from the webhook authorizer.", '30s'),
  f('bootstrap-kubeconfig', 'string', 'Path to a kubeconfig file that will be used to get client certificate for kubelet. If the file specified by --kubeconfig does not exist, the bootstrap kubeconfig is used to request a client certificate from the API server. On success, a kubeconfig file referencing the generated client certificate and key is written to the path specified by --kubeconfig. The client certificate and key file will be stored in the directory pointed by --cert-dir.'),
  f('cert-dir', 'string', 'The directory where the TLS certs are located. If --tls-cert-file and --tls-private-key-file are provided, this flag will be ignored.', '"/var/lib/kubelet/pki"'),
  c('cgroup-driver', 'string', 'cgroupDriver', "Driver that the kubelet uses to manipulate cgroups on the host.  Possible values: 'cgroupfs', 'systemd'", '"cgroupfs"'),
  c('cgroup-root', 'string', 'cgroupRoot', "Optional root cgroup to use for pods. This is handled by the container runtime on a best effort basis. Default: '', which means use the container runtime default."),
  c('client-ca-file', 'string', 'authentication.x509.clientCAFile', "If set, any request presenting a client certificate signed by one of the authorities in the client-ca-file is authenticated with an identity corresponding to the CommonName of the client certificate."),
  c('cluster-dns', 'strings', 'clusterDNS', 'Comma-separated list of DNS server IP address.  This value is used for containers DNS server in case of Pods with "dnsPolicy=ClusterFirst". Note: all DNS servers appearing in the list MUST serve the same set of records otherwise name resolution within the cluster may not work correctly. There is no guarantee as to which DNS server may be contacted for name resolution.'),
  c('cluster-domain', 'string', 'clusterDomain', 'Domain for this cluster.  If set, kubelet will configure all containers to search this domain in addition to the host\'s search domains'),
  f('config', 'string', "The Kubelet will load its initial configuration from this file. The path may be absolute or relative; relative paths start at the Kubelet's current working directory. Omit this flag to use the built-in default configuration values. Command-line flags override configuration from this file."),
  f('config-dir', 'string', "Path to a directory to specify drop-ins, allows the user to optionally specify additional configs to overwrite what is provided by default and in the KubeletConfigFile flag. [default='']"),
  c('container-log-max-files', 'int', 'containerLogMaxFiles', '<Warning: Beta feature> Set the maximum number of container log files that can be present for a container. The number must be >= 2.', '5'),
  c('container-log-max-size', 'quantity', 'containerLogMaxSize', '<Warning: Beta feature> Set the maximum size (e.g. 10Mi) of container log file before it is rotated.', '"10Mi"'),
  c('container-runtime-endpoint', 'string', 'containerRuntimeEndpoint', "The endpoint of remote runtime service. Unix Domain Sockets are supported on Linux, while npipe and tcp endpoints are supported on windows. Examples:'unix:///path/to/runtime.sock', 'npipe:////./pipe/runtime'", '"unix:///run/containerd/containerd.sock"'),
  c('event-burst', 'int', 'eventBurst', 'Maximum size of a bursty event records, temporarily allows event records to burst to this number, while still not exceeding event-qps. The number must be >= 0. If 0 will use DefaultBurst: 10.', '100'),
  c('event-qps', 'int', 'eventRecordQPS', 'QPS to limit event creations. The number must be >= 0. If 0 will use DefaultQPS: 5.', '50'),
  c('eviction-hard', 'langleMap', 'evictionHard', "A set of eviction thresholds (e.g. 'memory.available<1Gi') that if met would trigger a pod eviction. On a Linux node, the default value also includes nodefs.inodesFree<5%.", 'imagefs.available<15%,memory.available<100Mi,nodefs.available<10%'),
  c('eviction-max-pod-grace-period', 'int', 'evictionMaxPodGracePeriod', 'Maximum allowed grace period (in seconds) to use when terminating pods in response to a soft eviction threshold being met.  If negative, defer to pod specified value.'),
  c('eviction-pressure-transition-period', 'duration', 'evictionPressureTransitionPeriod', 'Duration for which the kubelet has to wait before transitioning out of an eviction pressure condition.', '5m0s'),
  c('eviction-soft', 'langleMap', 'evictionSoft', "A set of eviction thresholds (e.g. 'memory.available<1.5Gi') that if met over a corresponding grace period would trigger a pod eviction."),
  c('eviction-soft-grace-period', 'equalsMap', 'evictionSoftGracePeriod', "A set of eviction grace periods (e.g. 'memory.available=1m30s') that correspond to how long a soft eviction threshold must hold before triggering a pod eviction."),
  c('file-check-frequency', 'duration', 'fileCheckFrequency', 'Duration between checking config files for new data', '20s'),
  c('healthz-bind-address', 'string', 'healthzBindAddress', "The IP address for the healthz server to serve on (set to '0.0.0.0' or '::' for listening in all interfaces and IP families)", '127.0.0.1'),
  c('healthz-port', 'int', 'healthzPort', 'The port of the localhost healthz endpoint (set to 0 to disable)', '10248'),
  { name: 'help', short: 'h', type: 'bool', help: 'help for kubelet' },
  f('hostname-override', 'string', 'If non-empty, will use this string as identification instead of the actual hostname. If --cloud-provider is set, the cloud provider determines the name of the node (consult cloud provider documentation to determine if and how the hostname is used).'),
  c('http-check-frequency', 'duration', 'httpCheckFrequency', 'Duration between checking http for new data', '20s'),
  c('image-gc-high-threshold', 'int', 'imageGCHighThresholdPercent', 'The percent of disk usage after which image garbage collection is always run. Values must be within the range [0, 100], To disable image garbage collection, set to 100. ', '85'),
  c('image-gc-low-threshold', 'int', 'imageGCLowThresholdPercent', 'The percent of disk usage before which image garbage collection is never run. Lowest disk usage to garbage collect to. Values must be within the range [0, 100] and should not be larger than that of --image-gc-high-threshold.', '80'),
  c('kube-api-burst', 'int', 'kubeAPIBurst', 'Burst to use while talking with kubernetes apiserver. The number must be >= 0. If 0 will use DefaultBurst: 100. Doesn\'t cover events and node heartbeat apis which rate limiting is controlled by a different set of flags', '100'),
  c('kube-api-qps', 'int', 'kubeAPIQPS', 'QPS to use while talking with kubernetes apiserver. The number must be >= 0. If 0 will use DefaultQPS: 50. Doesn\'t cover events and node heartbeat apis which rate limiting is controlled by a different set of flags', '50'),
  f('kubeconfig', 'string', 'Path to a kubeconfig file, specifying how to connect to the API server. Providing --kubeconfig enables API server mode, omitting --kubeconfig enables standalone mode.'),
  c('manifest-url', 'string', 'staticPodURL', 'URL for accessing additional Pod specifications to run'),
  c('manifest-url-header', 'headers', 'staticPodURLHeader', "Comma-separated list of HTTP headers to use when accessing the url provided to --manifest-url. Multiple headers with the same name will be added in the same order provided. This flag can be repeatedly invoked. For example: --manifest-url-header 'a:hello,b:again,c:world' --manifest-url-header 'b:beautiful'"),
  c('max-pods', 'int', 'maxPods', 'Number of Pods that can run on this Kubelet.', '110'),
  f('node-ip', 'string', "IP address (or comma-separated dual-stack IP addresses) of the node. If unset, kubelet will use the node's default IPv4 address, if any, or its default IPv6 address if it has no IPv4 addresses. You can pass '::' to make it prefer the default IPv6 address rather than the default IPv4 address. If cloud-provider is set to external, this flag will help to bootstrap the node with the corresponding IP."),
  f('node-labels', 'labels', "<Warning: Alpha feature> Labels to add when registering the node in the cluster.  Labels must be key=value pairs separated by ','. Labels in the 'kubernetes.io' namespace must begin with an allowed prefix (kubelet.kubernetes.io, node.kubernetes.io) or be in the specifically allowed set (beta.kubernetes.io/arch, beta.kubernetes.io/instance-type, beta.kubernetes.io/os, failure-domain.beta.kubernetes.io/region, failure-domain.beta.kubernetes.io/zone, kubernetes.io/arch, kubernetes.io/hostname, kubernetes.io/os, node.kubernetes.io/instance-type, topology.kubernetes.io/region, topology.kubernetes.io/zone)"),
  c('node-status-update-frequency', 'duration', 'nodeStatusUpdateFrequency', 'Specifies how often kubelet posts node status to master. Note: be cautious when changing the constant, it must work with nodeMonitorGracePeriod in nodecontroller.', '10s'),
  f('nodes', 'int', 'Capstan: with --runtime=simulated, how many simulated nodes this process runs (named <hostname>-0 ... <hostname>-<N-1>, or the --hostname-override for one).', '1'),
  c('pod-manifest-path', 'string', 'staticPodPath', 'Path to the directory containing static pod files to run, or the path to a single static pod file. Files starting with dots will be ignored.'),
  c('pods-per-core', 'int', 'podsPerCore', 'Number of Pods per core that can run on this Kubelet. The total number of Pods on this Kubelet cannot exceed max-pods, so max-pods will be used if this calculation results in a larger number of Pods allowed on the Kubelet. A value of 0 disables this limit.'),
  c('port', 'int', 'port', 'The port for the Kubelet to serve on.', '10250'),
  c('read-only-port', 'int', 'readOnlyPort', 'The read-only port for the Kubelet to serve on with no authentication/authorization (set to 0 to disable)', '10255'),
  c('register-node', 'bool', 'registerNode', 'Register the node with the apiserver. If --kubeconfig is not provided, this flag is irrelevant, as the Kubelet won\'t have an apiserver to register with.', 'true'),
  c('register-with-taints', 'taints', 'registerWithTaints', 'Register the node with the given list of taints (comma separated "<key>=<value>:<effect>"). No-op if register-node is false.'),
  c('registry-burst', 'int', 'registryBurst', 'Maximum size of a bursty pulls, temporarily allows pulls to burst to this number, while still not exceeding registry-qps. Only used if --registry-qps > 0', '10'),
  c('registry-qps', 'int', 'registryPullQPS', 'If > 0, limit registry pull QPS to this value.  If 0, unlimited.', '5'),
  c('resolv-conf', 'string', 'resolvConf', 'Resolver configuration file used as the basis for the container DNS resolution configuration.', '"/etc/resolv.conf"'),
  f('root-dir', 'string', 'Directory path for managing kubelet files (volume mounts,etc).', '"/var/lib/kubelet"'),
  c('rotate-certificates', 'bool', 'rotateCertificates', 'Auto rotate the kubelet client certificates by requesting new certificates from the kube-apiserver when the certificate expiration approaches.'),
  c('rotate-server-certificates', 'bool', 'serverTLSBootstrap', 'Auto-request and rotate the kubelet serving certificates by requesting new certificates from the kube-apiserver when the certificate expiration approaches. Requires the RotateKubeletServerCertificate feature gate to be enabled, and approving the submitted CertificateSigningRequest objects.'),
  f('runtime', 'string', "Capstan: 'remote' runs pods through the CRI runtime at --container-runtime-endpoint; 'simulated' runs --nodes simulated nodes that register, heartbeat and move bound pods through their lifecycle without containers.", '"remote"'),
  c('runtime-request-timeout', 'duration', 'runtimeRequestTimeout', 'Timeout of all runtime requests except long running request - pull, logs, exec and attach. When timeout exceeded, kubelet will cancel the request, throw out an error and retry later.', '2m0s'),
  f('simulated-pod-watch', 'string', "Capstan: with --runtime=simulated, 'shared' watches every bound pod once for the process (its kubeconfig's identity must be allowed to), 'per-node' opens one watch per node (spec.nodeName=<node>), as N kubelets would.", '"shared"'),
  f('simulation-rules', 'string', 'Capstan: with --runtime=simulated, a YAML or JSON file of rules saying how long simulated pods take to start, how long they run and their exit code (see the README, "Simulated nodes"); pod annotations simulated.capstan.io/start-delay, run-duration and exit-code override it.'),
  c('serialize-image-pulls', 'bool', 'serializeImagePulls', 'Pull images one at a time. We recommend *not* changing the default value on nodes that run docker daemon with version < 1.9 or an Aufs storage backend. Issue #10959 has more details.', 'true'),
  c('sync-frequency', 'duration', 'syncFrequency', 'Max period between synchronizing running containers and config', '1m0s'),
  c('tls-cert-file', 'string', 'tlsCertFile', 'File containing x509 Certificate used for serving HTTPS (with intermediate certs, if any, concatenated after server cert). If --tls-cert-file and --tls-private-key-file are not provided, a self-signed certificate and key are generated for the public address and saved to the directory passed to --cert-dir.'),
  c('tls-cipher-suites', 'strings', 'tlsCipherSuites', 'Comma-separated list of cipher suites for the server. If omitted, the default Go cipher suites will be used.'),
  c('tls-min-version', 'string', 'tlsMinVersion', 'Minimum TLS version supported. Possible values: VersionTLS10, VersionTLS11, VersionTLS12, VersionTLS13'),
  c('tls-private-key-file', 'string', 'tlsPrivateKeyFile', 'File containing x509 private key matching --tls-cert-file.'),
  { name: 'v', short: 'v', type: 'level', help: 'number for the log level verbosity' },
  f('version', 'string', "--version, --version=raw prints version information and quits; --version=vX.Y.Z... sets the reported version"),
];

/** The flag named name (pflag's normalisation: '_' reads as '-'). */
export function flagNamed(name: string): FlagDef | undefined {
  const n = name.replace(/_/g, '-');
  return flagTable.find((d) => d.name === n || d.short === n);
}
