// The registry tape proxy answers HTTPS for the package hosts itself (clients reach it with CONNECT
// through https_proxy), so it holds a certificate for those names, signed by a CA of its own that
// the rehearsal and verifier containers trust for their life. The CA and its key are made by
// openssl once per worker process, kept in memory (their files deleted), valid for two days; the
// key never leaves the host.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCommand } from '../../common/run-command.ts';

export interface TapeCertificates {
  /** PEM of the CA the containers add to their trust store. */
  caCertificate: string;
  /** The server certificate (every package host in its SAN) and its key, PEM. */
  certificate: string;
  key: string;
  hosts: string[];
}

const cached = new Map<string, Promise<TapeCertificates>>();

export function tapeCertificates(hosts: string[]): Promise<TapeCertificates> {
  const names = [...new Set(hosts)].sort();
  const key = names.join(',');
  let made = cached.get(key);
  if (!made) {
    made = makeCertificates(names);
    made.catch(() => cached.delete(key));
    cached.set(key, made);
  }
  return made;
}

async function makeCertificates(hosts: string[]): Promise<TapeCertificates> {
  for (const host of hosts)
    if (!/^[a-z0-9.-]+$/i.test(host)) throw new Error(`not a host name for a certificate: ${host}`);
  const dir = await mkdtemp(path.join(tmpdir(), 'trl-tape-ca-'));
  const file = (name: string) => path.join(dir, name);
  const openssl = (args: string[]) => runCommand('openssl', args, { cwd: dir });
  try {
    await openssl([
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      file('ca.key'),
      '-out',
      file('ca.crt'),
      '-days',
      '2',
      '-subj',
      '/CN=trl registry tape CA',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
      '-addext',
      'subjectKeyIdentifier=hash',
    ]);
    await openssl([
      'req',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      file('server.key'),
      '-out',
      file('server.csr'),
      '-subj',
      '/CN=trl registry tape',
    ]);
    await writeFile(
      file('server.ext'),
      [
        'basicConstraints=critical,CA:FALSE',
        'keyUsage=critical,digitalSignature,keyEncipherment',
        'extendedKeyUsage=serverAuth',
        'subjectKeyIdentifier=hash',
        'authorityKeyIdentifier=keyid,issuer',
        `subjectAltName=${hosts.map((host) => `DNS:${host}`).join(',')}`,
        '',
      ].join('\n'),
    );
    await openssl([
      'x509',
      '-req',
      '-in',
      file('server.csr'),
      '-CA',
      file('ca.crt'),
      '-CAkey',
      file('ca.key'),
      '-CAcreateserial',
      '-out',
      file('server.crt'),
      '-days',
      '2',
      '-extfile',
      file('server.ext'),
    ]);
    return {
      caCertificate: await readFile(file('ca.crt'), 'utf8'),
      certificate: await readFile(file('server.crt'), 'utf8'),
      key: await readFile(file('server.key'), 'utf8'),
      hosts,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
