import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordV2, runBin, tempDir } from '../helpers/recordings.js';

const temp = tempDir('mcp-spy-check-real-');
afterAll(() => temp.remove());

describe('a real 2026-07-28 session (SDK v2 client and server, stdio, with the discover probe)', () => {
  let record: string;
  let log: string;
  beforeAll(() => {
    ({ record, log } = recordV2(temp.dir));
  });

  it('checks clean: _meta on every request, 2026 result shapes, tools against their 2020-12 schemas', () => {
    const result = runBin(['check', record]);
    expect(result.stdout).toMatch(/clean \(0 errors, 0 warnings in \d+ entries\)/);
    expect(result.status).toBe(0);
  });

  it('views as its wire.log, and stats see both runs with their revision and peers', () => {
    expect(Buffer.from(runBin(['view', record]).stdout)).toEqual(readFileSync(log));
    const stats = JSON.parse(runBin(['stats', record, '--format', 'json']).stdout);
    expect(stats.sessions).toHaveLength(2);
    expect(stats.sessions.map((session: { revision: string }) => session.revision)).toEqual(['2026-07-28', '2026-07-28']);
    expect(stats.sessions[0].server).toEqual({ name: 'review-v2-server', version: '2.0.0' });
    expect(stats.sessions[1].client).toEqual({ name: 'review-v2-client', version: '2.0.0' });
    expect(stats.tools.fail).toMatchObject({ count: 1, toolErrors: 1 });
  });
});

describe('a real session with flaws (the demo: a banner on stdout, an unknown method)', () => {
  it('finds exactly those', () => {
    const dir = join(temp.dir, 'demo');
    expect(runBin(['demo', '--dir', dir]).status).toBe(0);
    const record = join(dir, 'wire.jsonl');
    const result = runBin(['check', record, '--format', 'json']);
    expect(result.status).toBe(1);
    const findings = JSON.parse(result.stdout).findings.map((finding: { rule: string; level: string }) => `${finding.level} ${finding.rule}`);
    expect(findings).toEqual(['error stdout-noise', 'warn method-not-in-revision']);
  });
});
