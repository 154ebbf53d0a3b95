import { describe, expect, it } from 'vitest';
import { SpyError, describeFailure, exitCodes, failureStatus } from '../../src/cli/errors.js';
import { BaselineError } from '../../src/drift/baseline.js';
import { ExportFailure } from '../../src/export/export-recording.js';
import { RecordReadError } from '../../src/record/reader.js';
import { ReplayError } from '../../src/recording/errors.js';
import { ReportPageMissing } from '../../src/report/html.js';

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

// Each room's own error, as it is thrown, reaches the user as its one line and the status of the
// one table (src/cli/errors.ts): the commands let them through unchanged.
describe('the table of failures and their exit statuses', () => {
  it.each([
    ['a recording that cannot be read', new RecordReadError('cannot read wire.jsonl: no such file'), 2],
    ['a baseline that cannot be used', new BaselineError('lock.json is not an mcp-spy baseline'), 2],
    ['a report page not built', new ReportPageMissing('the report page is not built'), 2],
    ['a collector in trouble', new ExportFailure('cannot export spans to http://127.0.0.1:4318/v1/traces: refused'), 69],
    ['a replay with bad input', new ReplayError('the recording has no client frames'), 2],
    ['a server replay cannot start', new ReplayError('cannot start the server x: command not found', 127), 127],
    ['a server that is not executable', new ReplayError('cannot start the server x: permission denied', 126), 126],
    ['a server that died at once', new ReplayError('the server exited before it answered', 1), 1],
    ['a SpyError', new SpyError('cannot listen on 127.0.0.1:80: the port is already in use', exitCodes.unavailable), 69],
  ])('%s', (_what, error, status) => {
    expect(failureStatus(error)).toBe(status);
    expect(describeFailure(error, true)).toEqual({ line: `mcp-spy: ${error.message}`, exitCode: status });
  });

  it('knows nothing else: any other error is internal', () => {
    expect(failureStatus(new Error('x'))).toBeUndefined();
    expect(failureStatus(new TypeError('x'))).toBeUndefined();
    expect(failureStatus('a string')).toBeUndefined();
    // A name alone, without the status it should carry, is no SpyError.
    expect(failureStatus(Object.assign(new Error('x'), { name: 'SpyError' }))).toBeUndefined();
  });
});
