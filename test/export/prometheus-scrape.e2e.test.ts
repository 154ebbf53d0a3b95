import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventually, everythingHttp, freePort, run, startSpy, type Spy } from '../helpers/http-spy.js';
import { runClient } from '../helpers/spy.js';

type Sample = { metric: Record<string, string>; value: [number, string] };

async function query(prometheus: string, expression: string): Promise<Sample[]> {
  const response = await fetch(`${prometheus}/api/v1/query?query=${encodeURIComponent(expression)}`);
  const body = (await response.json()) as { status: string; data: { result: Sample[] } };
  expect(body.status).toBe('success');
  return body.data.result;
}

/** Debian's `prometheus` (installed by .ci/run): without it the test is skipped, with a line saying why. */
function hasPrometheus(): boolean {
  try {
    return execFileSync('sh', ['-c', 'command -v prometheus'], { encoding: 'utf8' }).trim() !== '';
  } catch {
    return false;
  }
}
const prometheusThere = hasPrometheus();
if (!prometheusThere) console.warn('prometheus is not installed: the scrape test is skipped (apt-get install prometheus; CI installs it)');

describe.runIf(prometheusThere)('a real Prometheus scrapes --metrics', () => {
  it('and its API counts the operations of the record, by method and tool', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-spy-prometheus-'));
    const serverPort = await freePort();
    const metricsPort = await freePort();
    const spy = await startSpy(
      ['--target', `http://127.0.0.1:${serverPort}/mcp`, '--metrics', `127.0.0.1:${metricsPort}`],
      everythingHttp('streamableHttp')(serverPort),
    );
    let prometheus: Awaited<ReturnType<typeof run>> | undefined;
    try {
      await runClient('everything-client.js', ['--url', spy.url], { SCENARIO: 'otel' });
      // The record is the truth the scrape is compared with: requests the client sent, by method and tool.
      const expected = new Map<string, number>();
      const requestsIn = (all: ReturnType<Spy['entries']>) => all.filter((entry) => entry.dir === 'c2s' && entry.kind === 'request').length;
      // The client has ended: its 8 requests are in the record at once on a quiet machine. A loaded CI
      // run once waited 15 s in vain, not seen again in 8 runs four at a time: the wait is as long as
      // this test's other waits, and a miss says what the record and the spy's stderr held.
      const entries = await eventually(() => {
        const all = spy.entries();
        return requestsIn(all) >= 8 ? all : undefined;
      }, 30_000).catch((error: Error) => {
        const all = spy.entries();
        throw new Error(
          `${error.message}: ${requestsIn(all)} request(s) of 8 in ${all.length} entries (${[...new Set(all.map((entry) => entry.kind))].join(', ')}); the spy's stderr: ${spy.stderr().slice(-2000)}`,
        );
      });
      for (const entry of entries) {
        if (entry.dir !== 'c2s' || entry.kind !== 'request') continue;
        const key = `${entry.method} ${entry.method === 'tools/call' ? entry.tool : ''}`;
        expected.set(key, (expected.get(key) ?? 0) + 1);
      }

      const config = join(dir, 'prometheus.yml');
      writeFileSync(
        config,
        `global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: mcp-spy\n    static_configs:\n      - targets: ['127.0.0.1:${metricsPort}']\n`,
      );
      const webPort = await freePort();
      prometheus = await run(
        'prometheus',
        [`--config.file=${config}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${webPort}`],
        /Server is ready to receive web requests/,
      );
      const api = `http://127.0.0.1:${webPort}`;
      let samples: Sample[] = [];
      for (const deadline = Date.now() + 30_000; samples.length === 0 && Date.now() < deadline; ) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        samples = await query(api, 'sum by (mcp_method_name, gen_ai_tool_name) (mcp_client_operation_duration_seconds_count)');
      }
      const scraped = new Map(samples.map((sample) => [`${sample.metric.mcp_method_name} ${sample.metric.gen_ai_tool_name ?? ''}`, Number(sample.value[1])]));
      expect(scraped).toEqual(expected);

      // The histogram has the conventions' buckets, and the labels are the attributes with underscores.
      const buckets = await query(api, 'mcp_client_operation_duration_seconds_bucket{mcp_method_name="tools/call",gen_ai_tool_name="get-sum"}');
      expect(buckets.map((sample) => sample.metric.le).sort((a, b) => Number(a?.replace('+Inf', 'Infinity')) - Number(b?.replace('+Inf', 'Infinity')))).toEqual(
        ['0.01', '0.02', '0.05', '0.1', '0.2', '0.5', '1', '2', '5', '10', '30', '60', '120', '300', '+Inf'],
      );
      expect(buckets[0]!.metric).toMatchObject({ error_type: 'tool_error', network_transport: 'tcp', mcp_protocol_version: '2025-11-25' });
      const errors = await query(api, 'mcp_client_operation_duration_seconds_count{error_type="-32602"}');
      expect(errors.map((sample) => sample.metric.gen_ai_prompt_name)).toEqual(['no-such-prompt']);
      // Frames, against the record as it stands once the scrape has caught up: the answers to the last
      // requests may still have been on their way when the requests above were counted (a run saw 18 of 20).
      let recorded = -1;
      let scrapedFrames = Number.NaN;
      for (const deadline = Date.now() + 40_000; scrapedFrames !== recorded && Date.now() < deadline; ) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        recorded = spy.entries().filter((entry) => entry.dir !== undefined).length;
        scrapedFrames = Number((await query(api, 'sum(mcp_spy_frames_total)'))[0]?.value[1]);
      }
      expect(scrapedFrames).toBe(recorded);
      expect(recorded).toBeGreaterThanOrEqual(entries.filter((entry) => entry.dir !== undefined).length);
    } finally {
      await prometheus?.stop();
      await spy.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
    // Its waits (the client, the record, Prometheus's first scrape) add up past the default on a loaded machine.
  }, 120_000);
});
