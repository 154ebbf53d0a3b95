import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordV2 } from '../helpers/recordings.js';
import { runBinSync, tempDir } from '../helpers/spy.js';

const temp = tempDir('mcp-spy-check-real-');
afterAll(() => temp.remove());

describe('a real 2026-07-28 session (SDK v2 client and server, stdio, with the discover probe)', () => {
  let record: string;
  let log: string;
  beforeAll(async () => {
    ({ record, log } = await recordV2(temp.dir));
  });

  it('checks clean: _meta on every request, 2026 result shapes, tools against their 2020-12 schemas', () => {
    const result = runBinSync(['check', record]);
    expect(result.text).toMatch(/clean \(0 errors, 0 warnings in \d+ entries\)/);
    expect(result.code).toBe(0);
  });

  it('views as its wire.log, and stats see both runs with their revision and peers', () => {
    expect(runBinSync(['view', record]).stdout).toEqual(readFileSync(log));
    const stats = JSON.parse(runBinSync(['stats', record, '--format', 'json']).text);
    expect(stats.sessions).toHaveLength(2);
    expect(stats.sessions.map((session: { revision: string }) => session.revision)).toEqual(['2026-07-28', '2026-07-28']);
    expect(stats.sessions[0].server).toEqual({ name: 'mcp-spy-v2-fixture', version: '2.0.0' });
    expect(stats.sessions[1].client).toEqual({ name: 'fixture-v2-client', version: '2.0.0' });
    expect(stats.tools.fail).toMatchObject({ count: 1, toolErrors: 1 });
  });
});

describe('a real session with flaws (the demo: a banner on stdout, an unknown method)', () => {
  it('finds exactly those', () => {
    const dir = join(temp.dir, 'demo');
    expect(runBinSync(['demo', '--dir', dir]).code).toBe(0);
    const record = join(dir, 'wire.jsonl');
    const result = runBinSync(['check', record, '--format', 'json']);
    expect(result.code).toBe(1);
    const findings = JSON.parse(result.text).findings.map((finding: { rule: string; level: string }) => `${finding.level} ${finding.rule}`);
    expect(findings).toEqual(['error stdout-noise', 'warn method-not-in-revision']);
  });
});
