// A throwaway certificate authority for tests that need TLS: a CA, a server certificate and a
// client certificate (both valid for 127.0.0.1 and localhost, for two days), made with openssl.
import path from 'node:path';
import { mkdir, writeFile } from 'node:fs/promises';
import { runCommand } from '../../common/run-command.ts';

export interface TestCertificates {
  caFile: string;
  serverCertFile: string;
  serverKeyFile: string;
  clientCertFile: string;
  clientKeyFile: string;
}

export async function makeTestCertificates(dir: string): Promise<TestCertificates> {
  await mkdir(dir, { recursive: true });
  const file = (name: string) => path.join(dir, name);
  const ecKey = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  await runCommand('openssl', [
    'req',
    '-x509',
    ...ecKey,
    '-keyout',
    file('ca.key'),
    '-out',
    file('ca.pem'),
    '-days',
    '2',
    '-subj',
    '/CN=trl-test-ca',
  ]);
  await writeFile(
    file('leaf.ext'),
    'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth,clientAuth\n',
  );
  for (const name of ['server', 'client']) {
    await runCommand('openssl', [
      'req',
      ...ecKey,
      '-keyout',
      file(`${name}.key`),
      '-out',
      file(`${name}.csr`),
      '-subj',
      `/CN=trl-test-${name}`,
    ]);
    await runCommand('openssl', [
      'x509',
      '-req',
      '-in',
      file(`${name}.csr`),
      '-CA',
      file('ca.pem'),
      '-CAkey',
      file('ca.key'),
      '-CAcreateserial',
      '-out',
      file(`${name}.pem`),
      '-days',
      '2',
      '-extfile',
      file('leaf.ext'),
    ]);
  }
  return {
    caFile: file('ca.pem'),
    serverCertFile: file('server.pem'),
    serverKeyFile: file('server.key'),
    clientCertFile: file('client.pem'),
    clientKeyFile: file('client.key'),
  };
}
