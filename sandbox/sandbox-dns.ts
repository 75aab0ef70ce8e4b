// DNS is egress: on a user-defined network Docker's embedded resolver (127.0.0.11 inside every
// container) forwards names it does not know to upstream resolvers, and a name carries data
// (`<secret>.attacker.example`). Sandboxes need no name at all — the agent reaches its policy
// endpoint by IP, the sidecar the gateway by IP — so their embedded resolver is given one upstream
// that answers nothing: the container's own loopback. Docker dials a configured resolver inside the
// container's network namespace (20.10: a loopback address from --dns is not the host's; it warns
// "Localhost DNS may fail"), so no query leaves the sandbox, whatever the host's resolv.conf says.
// Names of other containers on the network still resolve locally (the resolver answers those itself).

/** HostConfig fields for every sandbox container on a run or policy network. */
export const sandboxDnsHostConfig = {
  Dns: ['127.0.0.1'],
  DnsSearch: [] as string[],
  DnsOptions: ['timeout:1', 'attempts:1'],
};
