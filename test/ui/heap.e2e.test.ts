// The console's young generation stays small while it reads: a batch of entries that waits for the
// reducer survives a scavenge, and V8 grew the young generation to its most (two semi-spaces of 16 MiB)
// for it. `--max-semi-space-size`, set once the process runs, did not keep it small; the growth factor does.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { node, root } from '../helpers/spy.js';

/** Allocates as reading a record does (batches kept a while, then dropped); prints the young generation's largest size. */
const churn = (tune: boolean) => `
  const { getHeapSpaceStatistics } = await import('node:v8');
  if (${tune}) (await import(${JSON.stringify(pathToFileURL(join(root, 'dist', 'ui', 'heap.js')).href)})).tuneHeapForConsole();
  const young = () => getHeapSpaceStatistics().find((space) => space.space_name === 'new_space').space_size;
  let most = young();
  let kept = [];
  for (let i = 0; i < 400000; i++) {
    kept.push({ seq: i, text: 'lorem ipsum '.repeat(20) + i, msg: { result: { content: [{ type: 'text', text: String(i) }] } } });
    if (kept.length === 1000) kept = [];
    if (i % 1000 === 0) most = Math.max(most, young());
  }
  console.log(most / 1024 / 1024);
`;

const youngMiB = (tune: boolean) => {
  const run = spawnSync(node, ['--input-type=module', '-e', churn(tune)], { encoding: 'utf8', timeout: 120_000 });
  expect(run.status, run.stderr).toBe(0);
  return Number(run.stdout.trim());
};

describe('the console heap', () => {
  it('keeps the young generation at its first size while batches of entries survive scavenges', () => {
    // Without the tuning this churn grows it to 16 MiB or more: the test sees the difference it makes.
    expect(youngMiB(false)).toBeGreaterThanOrEqual(8);
    expect(youngMiB(true)).toBeLessThanOrEqual(4);
  }, 240_000);
});
