import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseFlags } from './flags.js';

const run = (args: string[]) => parseFlags(['--etcd-servers=http://127.0.0.1:2379', ...args], 'Kubernetes v1.33.0+capstan');

describe('service network flags', () => {
  it('--service-node-port-range: kube\'s default and notations', () => {
    const def = run([]);
    assert.equal(def.kind === 'run' && def.options.serviceNetwork?.nodePortRange, '30000-32767');
    const plus = run(['--service-node-port-range=31000+99']);
    assert.equal(plus.kind === 'run' && plus.options.serviceNetwork?.nodePortRange, '31000-31099');
    const empty = run(['--service-node-port-range=']);
    assert.equal(empty.kind === 'run' && empty.options.serviceNetwork?.nodePortRange, '30000-32767');
    assert.deepEqual(run(['--service-node-port-range=abc']), {
      kind: 'exit',
      code: 1,
      stderr: 'Error: invalid argument "abc" for "--service-node-port-range" flag: strconv.Atoi: parsing "abc": invalid syntax\n',
    });
  });

  it('--service-cluster-ip-range: two families, and kube\'s messages', () => {
    const dual = run(['--service-cluster-ip-range=10.96.0.0/16,fd00::/108']);
    assert.equal(dual.kind === 'run' && dual.options.serviceClusterIPRange, '10.96.0.0/16,fd00::/108');
    assert.deepEqual(run(['--service-cluster-ip-range=10.96.0.0/16,10.97.0.0/16']), {
      kind: 'exit',
      code: 1,
      stderr: 'Error: --service-cluster-ip-range[0] and --service-cluster-ip-range[1] must be of different IP family\n',
    });
    assert.deepEqual(run(['--service-cluster-ip-range=10.0.0.0/8']), {
      kind: 'exit',
      code: 1,
      stderr: 'Error: specified --service-cluster-ip-range is too large; for 32-bit addresses, the mask must be >= 12\n',
    });
  });
});
