/**
 * scripts/machine-load.js: the other work is counted by ancestry, so a process this suite started
 * (however deep, whether or not its parent waited for it) is never other work, and a process of
 * another tree always is.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { descendants } from '../../scripts/machine-load.js';

describe('machine-load: whose work is this suite\'s', () => {
  it('takes every descendant of the root, at any depth, and nothing of another tree', () => {
    const table = new Map([
      [1, { ppid: 0 }], // init
      [100, { ppid: 1 }], // npm test
      [101, { ppid: 100 }], // playwright
      [102, { ppid: 101 }], // a worker
      [103, { ppid: 102 }], // its Chromium
      [104, { ppid: 103 }], // a renderer
      [200, { ppid: 1 }], // a neighbour
      [201, { ppid: 200 }], // its child
      [300, { ppid: 999 }], // its parent already gone from the table
    ]);
    assert.deepEqual([...descendants(table, 100)].sort((a, b) => a - b), [100, 101, 102, 103, 104]);
    assert.deepEqual([...descendants(table, 200)].sort((a, b) => a - b), [200, 201]);
  });

  it('ends on a parent loop', () => {
    const table = new Map([[10, { ppid: 11 }], [11, { ppid: 10 }], [12, { ppid: 1 }]]);
    assert.deepEqual([...descendants(table, 12)], [12]);
  });
});
