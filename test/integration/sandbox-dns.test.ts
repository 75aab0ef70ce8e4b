// DNS is egress, and IPv6 is a way out too: checked on this machine only. A stub DNS server on the
// host's loopback (127.0.0.1:53, UDP and TCP) is the upstream the sandboxes' resolver is configured
// with; the agent container on a run network and the policy sidecar on a policy network try to
// resolve names every way they can (libc, Python, a raw query to Docker's 127.0.0.11), every lookup
// fails and the stub sees no query. IPv6: the run networks have no IPv6 route or global address,
// ip6tables drops everything from their bridges, and a host listener on [::] is unreachable through
// the bridge's link-local address. No public or other private address is dialled.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import dgram from 'node:dgram';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chmod, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { repoRoot } from '../../common/data-layout.ts';
import { randomBytes } from 'node:crypto';
import { createDockerClient } from '../../sandbox/docker-client.ts';
import { ensureBaseImage } from '../../infra/base-image.ts';
import { ensurePolicySidecarImage } from '../../infra/policy-sidecar-image.ts';
import { createRunNetwork, type RunNetwork } from '../../sandbox/run-network.ts';
import { ContainerSession } from '../../sandbox/container-session.ts';
import { SidecarContainer, demuxDockerLog } from '../../policy/sidecar/sidecar-container.ts';
import { currentWorkerIdentity } from '../../sandbox/worker-identity.ts';
import { runCommand } from '../../common/run-command.ts';

const docker = createDockerClient();
const isRoot = process.getuid?.() === 0;

/** Reads the question name of a DNS message. */
function questionName(message: Buffer): string {
  const labels: string[] = [];
  for (let at = 12; at < message.length && message[at]! > 0 && labels.length < 64; at += message[at]! + 1)
    labels.push(message.subarray(at + 1, at + 1 + message[at]!).toString('latin1'));
  return labels.join('.');
}

/** A DNS query for `name` (type A), as bytes. */
function query(name: string): Buffer {
  const header = Buffer.from([0x12, 0x34, 0x01, 0x00, 0, 1, 0, 0, 0, 0, 0, 0]);
  const labels = name.split('.').map((label) => Buffer.concat([Buffer.from([label.length]), Buffer.from(label)]));
  return Buffer.concat([header, ...labels, Buffer.from([0, 0, 1, 0, 1])]);
}

// Every way a process in the sandbox can ask for a name; prints one line per attempt.
const lookupScript = (tag: string) => `
import socket, subprocess
def q(name):
    h = bytes([0x12,0x34,1,0,0,1,0,0,0,0,0,0])
    for l in name.split('.'): h += bytes([len(l)]) + l.encode()
    return h + bytes([0,0,1,0,1])
try:
    print('getaddrinfo', socket.getaddrinfo('py-${tag}.example.com', 80))
except Exception as e:
    print('getaddrinfo failed', type(e).__name__)
r = subprocess.run(['getent', 'hosts', 'getent-${tag}.invalid'], capture_output=True)
print('getent exit', r.returncode, r.stdout)
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.settimeout(3)
s.sendto(q('raw-${tag}.example.com'), ('127.0.0.11', 53))
try:
    data, _ = s.recvfrom(4096)
    print('raw rcode', data[3] & 15, 'answers', data[7])
except Exception as e:
    print('raw failed', type(e).__name__)
`;

describe('sandboxes resolve nothing and have no IPv6 way out', {
  skip: !isRoot && 'needs root (iptables, port 53)',
}, () => {
  const seen: string[] = [];
  let udp: dgram.Socket;
  let tcp: net.Server;
  let baseImage: string;
  const networks: RunNetwork[] = [];
  const cleanups: (() => Promise<unknown>)[] = [];
  const tag = randomBytes(4).toString('hex');
  const workflowId = `dns-test-${process.pid}-${tag}`;

  before(async () => {
    udp = dgram.createSocket('udp4');
    udp.on('message', (message, remote) => {
      seen.push(`udp ${remote.address} ${questionName(message)}`);
      udp.send(
        Buffer.concat([
          message.subarray(0, 2),
          Buffer.from([0x81, 0x83]),
          message.subarray(4, 6),
          Buffer.alloc(6),
          message.subarray(12),
        ]),
        remote.port,
        remote.address,
      );
    });
    await new Promise<void>((resolve, reject) => udp.once('error', reject).bind(53, '127.0.0.1', () => resolve()));
    tcp = net.createServer((socket) =>
      socket.on('data', (data) => {
        seen.push(`tcp ${questionName(data.subarray(2))}`);
        socket.destroy();
      }),
    );
    await new Promise<void>((resolve, reject) => tcp.once('error', reject).listen(53, '127.0.0.1', resolve));
    baseImage = await ensureBaseImage(docker);
  });

  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
    for (const network of networks) await network.remove();
    udp?.close();
    tcp?.close();
  });

  test('the stub answers a query from the host (it would see one from a sandbox)', async () => {
    const client = dgram.createSocket('udp4');
    await new Promise<void>((resolve) => client.send(query(`host-${tag}.invalid`), 53, '127.0.0.1', () => resolve()));
    await new Promise((resolve) => setTimeout(resolve, 300));
    client.close();
    assert.ok(
      seen.some((line) => line.endsWith(`host-${tag}.invalid`)),
      seen.join('\n'),
    );
    seen.length = 0;
  });

  test('the agent container on a run network resolves nothing, and the stub sees no query', async () => {
    const network = await createRunNetwork(docker, currentWorkerIdentity(), workflowId, 'run');
    networks.push(network);
    const session = await ContainerSession.start(docker, {
      image: baseImage,
      role: 'agent',
      scenario: 'dns',
      workflowId,
      cpus: 1,
      memoryMb: 256,
      owner: currentWorkerIdentity(),
      networkMode: network.name,
    });
    cleanups.push(() => session.remove());
    const inspected = await session.container.inspect();
    assert.deepEqual(inspected.HostConfig.Dns, ['127.0.0.1']);
    const resolvConf = await session.exec({
      command: ['cat', '/etc/resolv.conf'],
      deadlineMs: performance.now() + 10_000,
    });
    assert.match(resolvConf.stdout, /nameserver 127\.0\.0\.11/, "Docker's embedded resolver is the only nameserver");
    const result = await session.exec({
      command: ['python3', '-c', lookupScript(tag)],
      user: 'nobody',
      deadlineMs: performance.now() + 30_000,
    });
    assert.match(result.stdout, /getaddrinfo failed/, result.stdout + result.stderr);
    assert.match(result.stdout, /getent exit 2/, result.stdout);
    // The embedded resolver answers the raw query with a failure (SERVFAIL / REFUSED), or not at all; never an address.
    assert.match(result.stdout, /raw (failed|rcode [1-9]\d* answers 0)/, result.stdout);
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.deepEqual(seen, [], 'no query reached the upstream stub');
  });

  test('the policy sidecar on a policy network resolves nothing, and the stub sees no query', async () => {
    const network = await createRunNetwork(docker, currentWorkerIdentity(), workflowId, 'policy');
    networks.push(network);
    const filesDir = await mkdtemp(path.join(os.tmpdir(), 'trl-dns-policy-'));
    await writeFile(
      path.join(filesDir, 'policy.json'),
      await readFile(path.join(repoRoot, 'policy', 'examples', 'pin-glm-flash', 'policy.json'), 'utf8'),
      { mode: 0o644 },
    );
    await chmod(filesDir, 0o755); // the sidecar runs as nobody
    const sidecar = await SidecarContainer.start(docker, {
      image: await ensurePolicySidecarImage(docker, baseImage),
      kind: 'data',
      filesDir,
      network: network.name,
      upstreamUrl: `http://${network.hostAddress}:9`,
      episodeToken: 'x',
      defaultModel: 'glm-5.3-flash',
      owner: currentWorkerIdentity(),
      workflowId,
      scenario: 'dns',
    });
    cleanups.push(() => sidecar.remove());
    assert.deepEqual((await sidecar.container.inspect()).HostConfig.Dns, ['127.0.0.1']);
    const exec = await sidecar.container.exec({
      Cmd: ['python3', '-c', lookupScript(`${tag}-sidecar`)],
      AttachStdout: true,
      AttachStderr: true,
      User: '65534:65534',
    });
    const stream = await exec.start({ hijack: true, stdin: false });
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    await new Promise((resolve) => stream.on('end', resolve));
    const output = demuxDockerLog(Buffer.concat(chunks));
    assert.match(output, /getaddrinfo failed/, `${output}\n${await sidecar.logs()}`);
    assert.match(output, /getent exit 2/, output);
    assert.match(output, /raw (failed|rcode [1-9]\d* answers 0)/, output);
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.deepEqual(seen, [], 'no query reached the upstream stub');
  });

  test('localhost is the loopback in every sandbox: with no network (the oracle, the verifier) and on a run network', async () => {
    for (const networkMode of ['none', networks[0]!.name]) {
      const session = await ContainerSession.start(docker, {
        image: baseImage,
        role: 'agent',
        scenario: 'dns-localhost',
        workflowId,
        cpus: 1,
        memoryMb: 256,
        owner: currentWorkerIdentity(),
        networkMode,
      });
      cleanups.push(() => session.remove());
      // A task's own server on localhost (mlflow on :8080) is reached by name; the name never leaves the container.
      const result = await session.exec({
        command: [
          'python3',
          '-c',
          "import socket; print(socket.getaddrinfo('localhost', 8080, socket.AF_INET)[0][4][0])",
        ],
        user: 'nobody',
        deadlineMs: performance.now() + 10_000,
      });
      assert.equal(result.exitCode, 0, `${networkMode}: ${result.stdout}${result.stderr}`);
      assert.equal(result.stdout.trim(), '127.0.0.1', networkMode);
    }
    assert.deepEqual(seen, [], 'no query reached the upstream stub');
  });

  test("IPv6: no route or global address inside, every bridge packet dropped, the host's [::] listener unreachable", async () => {
    const network = networks[0]!;
    const session = await ContainerSession.start(docker, {
      image: baseImage,
      role: 'agent',
      scenario: 'dns-v6',
      workflowId,
      cpus: 1,
      memoryMb: 256,
      owner: currentWorkerIdentity(),
      networkMode: network.name,
    });
    cleanups.push(() => session.remove());
    const exec = (command: string[]) => session.exec({ command, deadlineMs: performance.now() + 15_000 });
    // Addresses: at most link-local (fe80::/10) and loopback; no global or ULA address.
    const addresses = (await exec(['cat', '/proc/net/if_inet6'])).stdout
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((line) => line.split(/\s+/)[0]!);
    for (const address of addresses)
      assert.ok(
        address === '00000000000000000000000000000001' || address.startsWith('fe80'),
        `unexpected IPv6 address ${address}`,
      );
    // Routes: none but link-local, loopback and multicast/local ones; no default route (::/0 via anything).
    const routes = (await exec(['cat', '/proc/net/ipv6_route'])).stdout.trim().split('\n').filter(Boolean);
    for (const route of routes) {
      const [destination, prefix, , , nextHop, , , , , device] = route.split(/\s+/);
      assert.ok(!(prefix === '00' && device !== 'lo'), `a default IPv6 route: ${route}`);
      assert.ok(
        /^(fe80|ff00|ff02|0{31}1)/.test(destination!) || device === 'lo',
        `an IPv6 route off the link: ${route}`,
      );
      assert.equal(nextHop, '00000000000000000000000000000000', `an IPv6 gateway: ${route}`);
    }
    // Firewall: ip6tables drops everything arriving from this bridge, to the host and forwarded.
    for (const chain of ['INPUT', 'FORWARD']) {
      const rules = (await runCommand('ip6tables', ['-S', chain])).stdout;
      assert.match(
        rules,
        new RegExp(`-A ${chain} -i ${network.bridgeInterface} .*--comment ${network.name} -j DROP`),
        `${chain}:\n${rules}`,
      );
    }
    // And in practice: a host listener on [::] is not reachable through the bridge's link-local address.
    const hostLinkLocal = os
      .networkInterfaces()
      [network.bridgeInterface]?.find((a) => a.family === 'IPv6' && a.address.startsWith('fe80'))?.address;
    if (hostLinkLocal) {
      const listener = net.createServer((socket) => socket.on('error', () => undefined).end('reached'));
      await new Promise<void>((resolve) => listener.listen(0, '::', resolve));
      cleanups.push(async () => listener.close());
      const port = (listener.address() as net.AddressInfo).port;
      const probe = `import socket\ns=socket.socket(socket.AF_INET6)\ns.settimeout(3)\ntry:\n  s.connect(('${hostLinkLocal}%eth0', ${port}, 0, 0)); print('connected', s.recv(10))\nexcept Exception as e:\n  print(type(e).__name__)`;
      const result = await session.exec({
        command: ['python3', '-c', probe],
        user: 'nobody',
        deadlineMs: performance.now() + 15_000,
      });
      assert.doesNotMatch(result.stdout, /connected/, `the host's [::]:${port} answered over IPv6: ${result.stdout}`);
      // The same listener answers on the host's own loopback, so the refusal is the firewall's.
      const local = await new Promise<boolean>((resolve) =>
        net
          .connect({ host: '::1', port })
          .once('connect', function (this: net.Socket) {
            this.destroy();
            resolve(true);
          })
          .once('error', () => resolve(false)),
      );
      assert.equal(local, true);
    }
  });
});
