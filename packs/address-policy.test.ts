import test from 'node:test';
import assert from 'node:assert/strict';
import { ipv6Groups, onlyEndpoints, packFetchPolicyFromEnvironment, publicAddressesOnly } from './address-policy.ts';

const refused = [
  // IPv4: unspecified, loopback, RFC 1918, CGNAT, link-local (metadata), multicast, broadcast, reserved, documentation
  '0.0.0.0',
  '0.1.2.3',
  '127.0.0.1',
  '127.255.255.254',
  '10.0.0.1',
  '10.255.255.255',
  '172.16.0.1',
  '172.31.255.255',
  '192.168.1.1',
  '100.64.0.1',
  '100.127.255.255',
  '169.254.169.254',
  '224.0.0.1',
  '239.255.255.250',
  '255.255.255.255',
  '240.0.0.1',
  '192.0.2.5',
  '198.51.100.7',
  '203.0.113.9',
  '198.18.0.1',
  '192.0.0.8',
  // IPv6: unspecified, loopback, link-local, ULA, site-local, multicast, documentation, Teredo, NAT64
  '::',
  '::1',
  'fe80::1',
  'fe80::1%eth0',
  'fc00::1',
  'fd12:3456:789a::1',
  'fec0::1',
  'ff02::1',
  'ff05::2',
  '2001:db8::1',
  '2001:0:4136:e378::1',
  '64:ff9b::7f00:1',
  '64:ff9b::8.8.8.8',
  // IPv4 inside IPv6: mapped (both spellings), IPv4-compatible, 6to4 of a private address
  '::ffff:127.0.0.1',
  '::ffff:7f00:1',
  '::ffff:10.0.0.1',
  '::ffff:169.254.169.254',
  '::ffff:0:0',
  '::127.0.0.1',
  '2002:7f00:1::1',
  '2002:c0a8:101::1',
  // Not addresses at all
  'localhost',
  'example.com',
  '',
  '1.2.3',
  '::ffff:999.0.0.1',
];
const allowed = [
  '1.1.1.1',
  '8.8.8.8',
  '100.63.255.255',
  '100.128.0.0',
  '172.15.255.255',
  '172.32.0.0',
  '192.169.0.1',
  '2606:4700::1111',
  '2a00:1450:4001::1',
  '::ffff:8.8.8.8',
  '2002:808:808::1',
];

test('the default address policy refuses every non-public address, IPv4 and IPv6, mapped forms included', () => {
  for (const address of refused) assert.equal(publicAddressesOnly(address, 443), false, `${address} must be refused`);
  for (const address of allowed) assert.equal(publicAddressesOnly(address, 443), true, `${address} is public`);
});

test('IPv6 literals expand to eight groups, dotted quads folded in', () => {
  assert.deepEqual(ipv6Groups('::1'), [0, 0, 0, 0, 0, 0, 0, 1]);
  assert.deepEqual(ipv6Groups('::ffff:127.0.0.1'), [0, 0, 0, 0, 0, 0xffff, 0x7f00, 1]);
  assert.deepEqual(ipv6Groups('fe80::1%eth0'), [0xfe80, 0, 0, 0, 0, 0, 0, 1]);
  assert.equal(ipv6Groups('10.0.0.1'), undefined);
});

test('a test policy allows exactly the listed endpoints', () => {
  const allow = onlyEndpoints([{ address: '127.0.0.1', port: 8080 }]);
  assert.equal(allow('127.0.0.1', 8080), true);
  assert.equal(allow('127.0.0.1', 8081), false);
  assert.equal(allow('::1', 8080), false);
});

test("the operator's exceptions add exactly the listed endpoints to the public ones", () => {
  assert.equal(packFetchPolicyFromEnvironment(undefined), publicAddressesOnly);
  const policy = packFetchPolicyFromEnvironment('127.0.0.1:8080, [::1]:9000');
  assert.equal(policy('127.0.0.1', 8080), true);
  assert.equal(policy('127.0.0.1', 8081), false);
  assert.equal(policy('::1', 9000), true);
  assert.equal(policy('10.0.0.1', 8080), false);
  assert.equal(policy('8.8.8.8', 443), true);
  assert.throws(() => packFetchPolicyFromEnvironment('localhost:80'), /TRL_PACK_FETCH_ALLOW/);
});
