import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileVModule, globToRegExp } from './vmodule.js';

describe('--vmodule', () => {
  it('matches file base names with filepath.Match globs, the first match winning', () => {
    const vm = compileVModule([
      { pattern: 'httplog', level: 5 },
      { pattern: 'http*', level: 3 },
      { pattern: 'w?tch', level: 4 },
      { pattern: 'auth[nz]', level: 6 },
      { pattern: 'x[^a-c]y', level: 7 },
    ]);
    assert.ok(vm);
    assert.equal(vm.levelOf('httplog'), 5);
    assert.equal(vm.levelOf('httpx'), 3);
    assert.equal(vm.levelOf('watch'), 4);
    assert.equal(vm.levelOf('wtch'), undefined);
    assert.equal(vm.levelOf('authz'), 6);
    assert.equal(vm.levelOf('autha'), undefined);
    assert.equal(vm.levelOf('xdy'), 7);
    assert.equal(vm.levelOf('xby'), undefined);
    assert.equal(vm.levelOf('server'), undefined);
  });

  it('drops level-0 entries (vmodule off when nothing is left) and treats metacharacters literally when escaped', () => {
    assert.equal(compileVModule([{ pattern: 'a', level: 0 }]), undefined);
    const vm = compileVModule([{ pattern: 'a\\*b', level: 2 }]);
    assert.equal(vm?.levelOf('a*b'), 2);
    assert.equal(vm?.levelOf('axb'), undefined);
  });

  it('a malformed glob matches nothing, as filepath.Match reports ErrBadPattern', () => {
    assert.equal(globToRegExp('a[b'), undefined);
    assert.equal(globToRegExp('a\\'), undefined);
    assert.equal(compileVModule([{ pattern: 'a[b', level: 2 }])?.levelOf('a[b'), undefined);
  });
});
