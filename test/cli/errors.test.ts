import { describe, expect, it } from 'vitest';
import { SpyError, describeFailure, exitCodes } from '../../src/cli/errors.js';

describe('describeFailure', () => {
  it('turns a SpyError into its one line and its exit status', () => {
    expect(describeFailure(new SpyError('bad thing', exitCodes.notFound), false)).toEqual({ line: 'mcp-spy: bad thing', exitCode: 127 });
  });

  it('says an internal error in one line, with its stack only under --debug', () => {
    const error = new Error('boom\nsecond line');
    const quiet = describeFailure(error, false);
    expect(quiet).toEqual({ line: 'mcp-spy: internal error: boom', exitCode: 70 });
    const debug = describeFailure(error, true);
    expect(debug.line.startsWith('mcp-spy: internal error: boom\n')).toBe(true);
    expect(debug.line).toContain(error.stack!);
  });
});
