import { describe, expect, it } from 'vitest';
import { runBin } from '../helpers/spy.js';

// Issue 8: `--max-frame 99999999999999999999` was taken as is; a size is now bounded, one parser for every size option.
// The refusals are tested in-process (test/cli/bad-use-spy.test.ts); here, that sizes within the bounds run.
describe('size options are bounded', () => {
  it.each(['1KiB', '256MiB', '1.5k'])('takes %s, within the bounds', async (size) => {
    const result = await runBin(['--max-frame', size, '--no-record', '--no-log', '-q', '--', 'true']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });
});
