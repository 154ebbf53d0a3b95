// Bad use of the stdio and HTTP spies, run in-process through main(argv): each is refused before a
// server starts or a port opens, in one line and exit 2. test/e2e/bin-bad-use.e2e.test.ts proves the
// binary passes that line and status on to the shell.
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { runMain } from '../helpers/in-process.js';
import { fixture, node } from '../helpers/spy.js';

const oneLine = (text: string) => text.trim().split('\n');

describe('bad use gets one clear line and a non-zero exit', () => {
  it.each([
    ['no command after --', ['--'], /^mcp-spy: no server command/],
    ['no command at all', [], /^mcp-spy: no server command/],
    ['an unknown option', ['--bogus', '--', 'cat'], /^mcp-spy: unknown option '--bogus'/],
    [
      'a record path in a missing directory',
      ['--record', '/nonexistent-dir/x.jsonl', '--', 'cat'],
      /^mcp-spy: cannot write record \/nonexistent-dir\/x.jsonl: directory \/nonexistent-dir does not exist$/,
    ],
    ['a log path in a missing directory', ['--log', '/nonexistent-dir/x.log', '--', 'cat'], /^mcp-spy: cannot write log/],
    ['a bad size', ['--max-frame', 'lots', '--', 'cat'], /^mcp-spy: option '--max-frame <size>' argument 'lots' is invalid/],
    [
      'a server command without --',
      ['node', 'server.js'],
      /^mcp-spy: unknown command 'node'; to spy on a server, put its command after --: mcp-spy -- node server.js$/,
    ],
  ])('%s', async (_name, args, message) => {
    const result = await runMain(args);
    expect(result.code).toBe(2);
    expect(oneLine(result.stderr)).toHaveLength(1);
    expect(result.stderr.trim()).toMatch(message);
    expect(result.stdout.length).toBe(0);
  });

  it('prints its version and a help with examples and client config snippets', async () => {
    const version = await runMain(['--version']);
    expect(version.stdout.toString().trim()).toMatch(/^\d+\.\d+\.\d+$/);
    const help = await runMain(['--help']);
    expect(help.code).toBe(0);
    const text = help.stdout.toString();
    expect(text).toContain('mcp-spy -- node server.js');
    expect(text).toContain('claude_desktop_config.json');
    expect(text).toContain('claude mcp add');
  });
});

// Issue 8: `--max-frame 99999999999999999999` was taken as is; a size is now bounded, one parser for every size option.
describe('size options are bounded', () => {
  it.each([
    ['a size beyond any string', '99999999999999999999', /the size must be from 1KiB to 256MiB/],
    ['a size just above the bound', '257MiB', /the size must be from 1KiB to 256MiB/],
    ['a size with a forgotten unit', '16', /the size must be from 1KiB to 256MiB/],
    ['a unit named like an object property', '5constructor', /expected a size such as 16MiB/],
  ])('the stdio and HTTP spies refuse %s in one line, exit 2', async (_name, size, message) => {
    for (const args of [
      ['--max-frame', size, '--', 'true'],
      ['http', '--target', 'http://127.0.0.1:9/mcp', '--max-frame', size],
    ]) {
      const result = await runMain(args);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(new RegExp(`^mcp-spy( http)?: option '--max-frame <size>' argument '${size}' is invalid: .*\\n$`));
      expect(result.stderr).toMatch(message);
      expect(result.stdout.length).toBe(0);
    }
  });
});

describe('--redact on the stdio spy', () => {
  it('refuses a path it cannot read, in one line', async () => {
    const result = await runMain(['--redact', 'params.arguments.api key', '--', node, fixture('servers', 'key-server.js')]);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/--redact <jsonpath>.*cannot read it from " key"/);
  });
});

describe('exports: bad use', () => {
  it.each([
    [['--otlp', 'ftp://x', '--', 'true'], /bad --otlp "ftp:\/\/x": OTLP\/HTTP needs an http or https URL/],
    [['--metrics', 'nope:port', '--', 'true'], /bad --metrics "nope:port"/],
    [['export', 'otlp', 'missing.jsonl'], /no collector: give --endpoint URL/],
    [['export', 'otlp', 'missing.jsonl', '--endpoint', 'ftp://x'], /^mcp-spy: bad --endpoint "ftp:\/\/x": OTLP\/HTTP needs an http or https URL/],
  ])('%j is one clear line and exit 2', async (args, message) => {
    const result = await runMain(args, { env: { OTEL_EXPORTER_OTLP_ENDPOINT: '' } });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  // The OpenTelemetry SDK drops a malformed OTEL_RESOURCE_ATTRIBUTES without a word: the spy refuses it, as any bad setting.
  it.each([
    [['--metrics', '9464', '--', 'true'], 'team=a=b', /^mcp-spy: bad OTEL_RESOURCE_ATTRIBUTES: "team=a=b" is not key=value/],
    [['--otlp', 'http://127.0.0.1:1', '--', 'true'], 'team=tools,=x', /^mcp-spy: bad OTEL_RESOURCE_ATTRIBUTES: "=x" has an empty key/],
    [
      ['export', 'otlp', 'missing.jsonl', '--endpoint', 'http://127.0.0.1:1'],
      'team=%zz',
      /^mcp-spy: bad OTEL_RESOURCE_ATTRIBUTES: "team=%zz" is not valid percent-encoding/,
    ],
  ])('%j with OTEL_RESOURCE_ATTRIBUTES=%s is one clear line and exit 2', async (args, attributes, message) => {
    const result = await runMain(args, { env: { OTEL_RESOURCE_ATTRIBUTES: attributes } });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('refuses a --metrics port in use before the server starts, as a busy --listen is', async () => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const port = (busy.address() as { port: number }).port;
    try {
      for (const args of [
        ['--no-record', '--metrics', String(port), '--', node, fixture('servers', 'echo-server.js')],
        ['http', '--target', 'http://127.0.0.1:1/mcp', '--no-record', '--metrics', `127.0.0.1:${port}`],
      ]) {
        const result = await runMain(args);
        expect(result.code, args.join(' ')).toBe(69);
        expect(result.stderr).toBe(`mcp-spy: cannot serve metrics on 127.0.0.1:${port}: the port is already in use\n`);
      }
    } finally {
      busy.close();
    }
  });

  it('refuses grpc with what to use instead', async () => {
    const result = await runMain(['--otlp', 'http://127.0.0.1:1', '--', 'true'], { env: { OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' } });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/OTEL_EXPORTER_OTLP_PROTOCOL "grpc" is not spoken here; use http\/protobuf or http\/json/);
  });
});

describe('the HTTP spy: bad use', () => {
  it('says what is wrong in one line and exits non-zero', async () => {
    const badTarget = await runMain(['http', '--target', 'ftp://example.com/mcp']);
    expect(badTarget).toMatchObject({ code: 2, text: '' });
    expect(badTarget.stderr).toBe(
      'mcp-spy: bad --target "ftp://example.com/mcp": ftp: is not http: or https:; expected a URL such as http://127.0.0.1:3000/mcp\n',
    );
    const badListen = await runMain(['http', '--target', 'http://127.0.0.1:1/mcp', '--listen', 'here:there']);
    expect(badListen.code).toBe(2);
    expect(badListen.stderr).toBe('mcp-spy: bad --listen "here:there": expected PORT, HOST:PORT or [IPv6]:PORT\n');
    const noTarget = await runMain(['http']);
    expect(noTarget.code).toBe(2);
    expect(noTarget.stderr.split('\n').filter(Boolean)).toHaveLength(1);
  });

  it('refuses a value that is not a host or an origin, in one line', async () => {
    const cases: [string[], string][] = [
      [['--allow-host', 'http://x.test'], 'expected a host name or host:port'],
      [['--allow-origin', 'app.example.test'], 'expected an origin such as https://app.example.com'],
    ];
    for (const [flags, says] of cases) {
      const result = await runMain(['http', '--target', 'http://127.0.0.1:9/mcp', ...flags]);
      expect(result.code).toBe(2);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toContain(says);
    }
  });

  it.each([
    ['--headers-timeout', '0', 'the timeout must be above 0'],
    ['--keep-alive-timeout', '25h', 'the timeout must be at most 24h'],
    ['--request-timeout', 'soon', 'expected a duration such as 5000, 500ms, 5s or 2m'],
  ])('%s %s: one line, exit 2', async (flag, value, reason) => {
    const result = await runMain(['http', '--target', 'http://127.0.0.1:1/mcp', flag, value]);
    expect(result).toMatchObject({ code: 2, text: '' });
    expect(result.stderr).toBe(`mcp-spy http: option '${flag} <duration>' argument '${value}' is invalid: ${reason} (see mcp-spy http --help)\n`);
  });
});
