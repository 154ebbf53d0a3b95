import { describe, expect, it } from 'vitest';
import { runBin } from '../helpers/spy.js';

// Issue 8: `--max-frame 99999999999999999999` was taken as is; a size is now bounded, one parser for every size option.
describe('size options are bounded', () => {
  it.each([
    ['a size beyond any string', '99999999999999999999', /the size must be from 1KiB to 256MiB/],
    ['a size just above the bound', '257MiB', /the size must be from 1KiB to 256MiB/],
    ['a size with a forgotten unit', '16', /the size must be from 1KiB to 256MiB/],
    ['a unit named like an object property', '5constructor', /expected a size such as 16MiB/],
  ])('the stdio and HTTP spies refuse %s in one line, exit 2', async (_name, size, message) => {
    for (const args of [['--max-frame', size, '--', 'true'], ['http', '--target', 'http://127.0.0.1:9/mcp', '--max-frame', size]]) {
      const result = await runBin(args);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(new RegExp(`^mcp-spy( http)?: option '--max-frame <size>' argument '${size}' is invalid\\. .*\\n$`));
      expect(result.stderr).toMatch(message);
      expect(result.stdout.length).toBe(0);
    }
  });

  it.each(['1KiB', '256MiB', '1.5k'])('takes %s, within the bounds', async (size) => {
    const result = await runBin(['--max-frame', size, '--no-record', '--no-log', '-q', '--', 'true']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });
});
