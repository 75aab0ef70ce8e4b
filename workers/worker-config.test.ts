import { test } from 'node:test';
import assert from 'node:assert/strict';
import { metricsConfigOf, simFleetTimeScaleOf, readWorkerConfig, sandboxHostIdOf } from './worker-config.ts';

test('spend ceilings default to $30 per submission and $500 per UTC day', () => {
  const config = readWorkerConfig({});
  assert.equal(config.TRL_SUBMISSION_CEILING_USD, 30);
  assert.equal(config.TRL_DAILY_CEILING_USD, 500);
  assert.equal(
    readWorkerConfig({ TRL_SUBMISSION_CEILING_USD: '2.5', TRL_DAILY_CEILING_USD: '40' }).TRL_SUBMISSION_CEILING_USD,
    2.5,
  );
});

test('a ceiling below the scenario cap, or not a positive number, is refused by name', () => {
  assert.throws(
    () => readWorkerConfig({ TRL_BUDGET_CAP_USD: '2', TRL_SUBMISSION_CEILING_USD: '1' }),
    /TRL_SUBMISSION_CEILING_USD: .*at least TRL_BUDGET_CAP_USD/,
  );
  assert.throws(
    () => readWorkerConfig({ TRL_DAILY_CEILING_USD: '0.5' }),
    /TRL_DAILY_CEILING_USD: .*at least TRL_BUDGET_CAP_USD/,
  );
  assert.throws(
    () => readWorkerConfig({ TRL_DAILY_CEILING_USD: '-3' }),
    /TRL_DAILY_CEILING_USD: TRL_DAILY_CEILING_USD must be a positive number/,
  );
  assert.throws(() => readWorkerConfig({ TRL_SUBMISSION_CEILING_USD: 'lots' }), /TRL_SUBMISSION_CEILING_USD/);
});

test('metrics are off unless TRL_METRICS_PORT is set; Temporal exports beside it on loopback', () => {
  assert.equal(metricsConfigOf(readWorkerConfig({})), undefined);
  assert.deepEqual(metricsConfigOf(readWorkerConfig({ TRL_METRICS_PORT: '9464' })), {
    host: '127.0.0.1',
    port: 9464,
    temporalPort: 9465,
  });
  assert.deepEqual(
    metricsConfigOf(
      readWorkerConfig({ TRL_METRICS_PORT: '9464', TRL_METRICS_HOST: '10.0.0.5', TRL_TEMPORAL_METRICS_PORT: '9500' }),
    ),
    { host: '10.0.0.5', port: 9464, temporalPort: 9500 },
  );
  assert.throws(
    () => readWorkerConfig({ TRL_METRICS_PORT: 'ninety' }),
    /TRL_METRICS_PORT: TRL_METRICS_PORT must be a TCP port number/,
  );
  assert.throws(() => readWorkerConfig({ TRL_METRICS_PORT: '70000' }), /TRL_METRICS_PORT/);
  assert.throws(
    () => metricsConfigOf(readWorkerConfig({ TRL_METRICS_PORT: '9464', TRL_TEMPORAL_METRICS_PORT: '9464' })),
    /must differ/,
  );
});

test('the sandbox host id: TRL_WORKER_HOST_ID when set and fit for a queue name, else hostname-pid', () => {
  assert.equal(sandboxHostIdOf(readWorkerConfig({ TRL_WORKER_HOST_ID: 'sandbox-a.eu-1' })), 'sandbox-a.eu-1');
  assert.match(sandboxHostIdOf(readWorkerConfig({})), new RegExp(`^[A-Za-z0-9][A-Za-z0-9._-]*-${process.pid}$`));
  assert.throws(
    () => readWorkerConfig({ TRL_WORKER_HOST_ID: 'a b' }),
    /TRL_WORKER_HOST_ID: TRL_WORKER_HOST_ID must be/,
  );
  assert.throws(() => readWorkerConfig({ TRL_WORKER_HOST_ID: '-x' }), /TRL_WORKER_HOST_ID/);
});

test('the sim fleet is realistic at time scale 0 unless told otherwise; fast keeps its 0.1', () => {
  const defaults = readWorkerConfig({});
  assert.equal(defaults.TRL_SIM_FLEET_MODE, 'realistic');
  assert.equal(defaults.TRL_SIM_FLEET_TIME_SCALE, undefined);
  assert.equal(simFleetTimeScaleOf(defaults), 0);
  const fast = readWorkerConfig({ TRL_SIM_FLEET_MODE: 'fast' });
  assert.equal(fast.TRL_SIM_FLEET_MODE, 'fast');
  assert.equal(simFleetTimeScaleOf(fast), 0.1);
  assert.equal(simFleetTimeScaleOf(readWorkerConfig({ TRL_SIM_FLEET_MODE: 'fast', TRL_SIM_TIME_SCALE: '0' })), 0);
  assert.equal(
    simFleetTimeScaleOf(readWorkerConfig({ TRL_SIM_TIME_SCALE: '0.5' })),
    0.5,
    'the older name still counts',
  );
  const paced = readWorkerConfig({ TRL_SIM_TIME_SCALE: '0.5', TRL_SIM_FLEET_TIME_SCALE: '1' });
  assert.equal(simFleetTimeScaleOf(paced), 1, 'the fleet-specific name wins');
  assert.throws(
    () => readWorkerConfig({ TRL_SIM_FLEET_MODE: 'slow' }),
    /TRL_SIM_FLEET_MODE must be "fast" or "realistic"/,
  );
});
