import { test } from 'node:test';
import assert from 'node:assert/strict';
import { enginePools, networksLeftFor, poolCapacity, poolNetworksTaken } from './address-pools.ts';
import { containerLabels } from './container-labels.ts';

const owner = { host: 'h', pid: 1, id: 'h:1' };
const trlPools = [{ base: '172.16.0.0/12', size: 24 }];

test("the pools' capacity: trl's engine 4,096 networks, Docker's own defaults 31", () => {
  assert.equal(poolCapacity(trlPools), 4096);
  assert.equal(poolCapacity(enginePools({})), 31);
  assert.equal(poolCapacity(enginePools({ DefaultAddressPools: null })), 31);
  assert.deepEqual(enginePools({ DefaultAddressPools: [{ Base: '10.10.0.0/16', Size: 24 }] }), [
    { base: '10.10.0.0/16', size: 24 },
  ]);
});

test('a subnet takes one pool network, the blocks it covers when wider, none outside the pools', () => {
  assert.equal(poolNetworksTaken('172.20.5.0/24', trlPools), 1);
  assert.equal(poolNetworksTaken('172.17.0.0/16', trlPools), 256, "docker0's /16 inside /24 pools");
  assert.equal(poolNetworksTaken('10.0.0.0/24', trlPools), 0);
  assert.equal(poolNetworksTaken('fd00::/64', trlPools), 0, 'IPv6 is not counted');
  assert.equal(poolNetworksTaken('192.168.16.0/20', enginePools({})), 1);
});

test("what other processes' networks take is off, this worker's own are its admission's to count", () => {
  const network = (subnet: string, workerId?: string) => ({
    Labels: workerId ? { [containerLabels.workerId]: workerId } : ({} as Record<string, string>),
    IPAM: { Config: [{ Subnet: subnet }] },
  });
  const networks = [
    network('172.17.0.0/16'),
    network('172.18.0.0/16', 'other:2'),
    network('172.19.0.0/16', owner.id),
    network('10.1.0.0/24'),
    { Labels: null, IPAM: null },
  ];
  assert.equal(networksLeftFor(owner, enginePools({}), networks), 31 - 2);
});
