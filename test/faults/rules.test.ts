// The fault rule grammar, chaos files and the seeded matcher, as tables: nothing spawned.
import { describe, expect, it } from 'vitest';
import { createFaultMatcher, type FrameFacts } from '../../src/faults/matcher.js';
import { parseRule } from '../../src/faults/parse-rule.js';
import { seededRandom } from '../../src/faults/random.js';
import { readRulesFile } from '../../src/faults/rules-file.js';
import type { FaultRule } from '../../src/faults/rule-types.js';
import { actionSpecs, type FaultTransport } from '../../src/faults/actions.js';
import { readFaultOptions } from '../../src/cli/fault-options.js';

const good: [string, Partial<FaultRule>][] = [
  ['tools/call tool=search: delay 3s', { match: { method: 'tools/call', tool: 'search' }, when: {}, action: { name: 'delay', ms: 3000, jitterMs: 0 } }],
  ['tools/call: delay 1500ms jitter=500ms', { action: { name: 'delay', ms: 1500, jitterMs: 500 } }],
  [
    'tools/call tool=write_file nth=2: tool-error "disk full"',
    { match: { method: 'tools/call', tool: 'write_file' }, when: { nth: 2 }, action: { name: 'tool-error', text: 'disk full' } },
  ],
  ['resources/read: error -32603 "backend down"', { action: { name: 'error', code: -32603, message: 'backend down' } }],
  ['tools/call: status 429 retry-after=2 p=0.2', { when: { p: 0.2 }, action: { name: 'status', status: 429, retryAfter: 2 } }],
  ['* dir=s2c every=3 after=1: drop', { match: { method: '*', dir: 's2c' }, when: { every: 3, after: 1 }, action: { name: 'drop' } }],
  ['prompts/get prompt=greet: timeout', { match: { method: 'prompts/get', prompt: 'greet' }, action: { name: 'timeout' } }],
  [
    'resources/read uri="file:///a b.txt": corrupt cut',
    { match: { method: 'resources/read', uri: 'file:///a b.txt' }, action: { name: 'corrupt', mode: 'cut' } },
  ],
  ['tools/call : corrupt', { action: { name: 'corrupt', mode: 'invalid-json' } }],
  ['tools/call: noise stderr "warming up"', { action: { name: 'noise', stream: 'stderr', text: 'warming up' } }],
  ['tools/call: noise', { action: { name: 'noise', stream: 'stdout', text: 'mcp-spy: injected noise' } }],
  ['initialize: disconnect', { action: { name: 'disconnect' } }],
  ['tools/call p=1: expire-session', { when: { p: 1 }, action: { name: 'expire-session' } }],
  ['tools/call: slow-stream 500ms', { action: { name: 'slow-stream', ms: 500 } }],
  ['tools/call: cut-stream', { action: { name: 'cut-stream', messages: 0 } }],
  ['tools/call tool=long: cut-stream 2 p=0.5', { when: { p: 0.5 }, action: { name: 'cut-stream', messages: 2 } }],
  ['tools/call: error -32000 "say \\"no\\""', { action: { name: 'error', code: -32000, message: 'say "no"' } }],
];

const bad: [string, RegExp][] = [
  ['tools/call delay 3s', /colon is missing/],
  ['tools/call: ', /no action after the colon/],
  ['tools/call: explode', /unknown action explode/],
  ['tools/call: delay soon', /delay needs a duration/],
  ['tools/call: delay 3s wobble', /delay takes a duration and jitter/],
  ['tools/call: error "no code"', /error needs a JSON-RPC error code/],
  ['tools/call: error -32603 backend down', /quote the message/],
  ['tools/call: status 200', /HTTP error status/],
  ['tools/call: status 429 retry=2', /retry-after/],
  ['tools/call nth=0: drop', /nth needs a whole number from 1/],
  ['tools/call every=x: drop', /every needs/],
  ['tools/call p=1.5: drop', /p needs a probability/],
  ['tools/call p=0: drop', /p needs a probability/],
  ['tools/call dir=up: drop', /dir is c2s/],
  ['tools/call color=red: drop', /unknown match word color=red/],
  ['tool=x: drop', /starts with a method/],
  ['tools/call: drop now', /drop takes no arguments/],
  ['tools/call: corrupt badly', /corrupt takes one of/],
  ['tools/call: tool-error "a" "b"', /one quoted text/],
  ['tools/call: error -1 "open', /quote is not closed/],
  ['tools/call: slow-stream', /slow-stream needs one duration/],
  ['tools/call: slow-stream fast', /slow-stream needs one duration/],
  ['tools/call: cut-stream -1', /cut-stream takes the number of messages/],
  ['tools/call: cut-stream 1 2', /cut-stream takes the number of messages/],
];

describe('the rule grammar', () => {
  it.each(good)('reads %s', (text, expected) => {
    const rule = parseRule(text);
    expect(rule).toMatchObject({ text: text.trim(), ...expected });
  });
  it.each(bad)('refuses %s with one line', (text, problem) => {
    const rule = parseRule(text);
    expect(rule).toEqual({ problem: expect.stringMatching(problem) });
    expect((rule as { problem: string }).problem).not.toContain('\n');
  });
});

describe('chaos files', () => {
  it('read YAML with a seed, lines and objects', () => {
    const file = readRulesFile(
      'chaos.yaml',
      'seed: 7\nfaults:\n  - "tools/call tool=search: delay 3s"\n  - method: tools/call\n    tool: write_file\n    nth: 2\n    action: tool-error "disk full"\n',
    );
    expect(file.problems).toEqual([]);
    expect(file.seed).toBe(7);
    expect(file.rules.map((rule) => rule.text)).toEqual(['tools/call tool=search: delay 3s', 'tools/call tool=write_file nth=2: tool-error "disk full"']);
  });
  it('read a JSON list', () => {
    expect(readRulesFile('chaos.json', '["resources/read: drop"]').rules[0]!.action).toEqual({ name: 'drop' });
  });
  it('say each mistake on its own line, naming the entry', () => {
    const file = readRulesFile(
      'chaos.yaml',
      'seed: x\nfaults:\n  - "tools/call: explode"\n  - method: tools/call\n  - { action: drop, colour: red }\n  - 42\n',
    );
    expect(file.problems).toEqual([
      'chaos.yaml: seed must be a whole number',
      'chaos.yaml: faults[0]: unknown action explode (one of delay, error, tool-error, drop, timeout, corrupt, disconnect, noise, status, expire-session, slow-stream, cut-stream): tools/call: explode',
      'chaos.yaml: faults[1]: action is missing (a string such as "delay 3s")',
      'chaos.yaml: faults[2]: unknown field colour (use method, tool, prompt, uri, dir, nth, after, every, p, action)',
      'chaos.yaml: faults[3]: a rule is a line of text or an object with method and action',
    ]);
  });
  it('refuse what is not YAML, or not a list', () => {
    expect(readRulesFile('c.yaml', 'faults: [unclosed').problems[0]).toMatch(/^c\.yaml: not YAML or JSON: /);
    expect(readRulesFile('c.yaml', 'hello: 1').problems).toEqual(['c.yaml: expected a list of rules, or an object with faults: [ ... ] (and seed: N)']);
  });
});

/** Each action as a rule names it, with the transports it is for. */
const everyAction: [string, FaultTransport[]][] = [
  ['delay 1s', ['stdio', 'http']],
  ['error -32603 "down"', ['stdio', 'http']],
  ['tool-error "full"', ['stdio', 'http']],
  ['drop', ['stdio', 'http']],
  ['timeout', ['stdio', 'http']],
  ['corrupt wrong-id', ['stdio', 'http']],
  ['disconnect', ['stdio', 'http']],
  ['noise "banner"', ['stdio', 'http']],
  ['noise stderr "warming up"', ['stdio']],
  ['status 503', ['http']],
  ['expire-session', ['http']],
  ['slow-stream 1s', ['http']],
  ['cut-stream 1', ['http']],
];

describe('actions and transports', () => {
  it('names every action in the table above', () => {
    expect(new Set(everyAction.map(([text]) => text.split(' ')[0]))).toEqual(new Set(Object.keys(actionSpecs)));
  });
  it.each(everyAction.flatMap(([action, on]) => (['stdio', 'http'] as const).map((transport) => [action, transport, on.includes(transport)] as const)))(
    '%s on %s: valid %s, else one line',
    (action, transport, valid) => {
      const read = () => readFaultOptions({ fault: [`tools/call: ${action}`] }, transport);
      if (valid) expect(read()?.rules).toHaveLength(1);
      else expect(read).toThrow(new RegExp(`^'tools/call: ${action.replace(/[".]/g, '.')}': [^\n]+$`));
    },
  );
  it("refuses on HTTP a rule for the server's frames, which the HTTP spy never matches", () => {
    expect(() => readFaultOptions({ fault: ['sampling/createMessage dir=s2c: error -1 "no"'] }, 'http')).toThrow(/dir=s2c matches nothing there/);
    expect(readFaultOptions({ fault: ['sampling/createMessage dir=s2c: error -1 "no"'] }, 'stdio')?.rules).toHaveLength(1);
  });
});

const call = (tool: string): FrameFacts => ({ dir: 'c2s', method: 'tools/call', tool, id: 1, isRequest: true });
const rulesOf = (...texts: string[]) => texts.map((text) => parseRule(text) as FaultRule);
const fired = (texts: string[], frames: FrameFacts[], seed = 1) => {
  const matcher = createFaultMatcher(rulesOf(...texts), seededRandom(seed));
  return frames.map((frame) => matcher.decide(frame)?.index ?? -1);
};

describe('matching', () => {
  it('counts nth, after and every over the frames a rule matches', () => {
    const frames = ['a', 'b', 'a', 'a', 'a', 'a'].map(call);
    expect(fired(['tools/call tool=a nth=2: drop'], frames)).toEqual([-1, -1, 0, -1, -1, -1]);
    expect(fired(['tools/call tool=a after=2: drop'], frames)).toEqual([-1, -1, -1, 0, 0, 0]);
    expect(fired(['tools/call every=2: drop'], frames)).toEqual([-1, 0, -1, 0, -1, 0]);
  });
  it('takes the first rule that fires; every matching rule still counts the frame', () => {
    expect(fired(['tools/call nth=1: drop', 'tools/call nth=2: timeout'], ['a', 'a', 'a'].map(call))).toEqual([0, 1, -1]);
  });
  it('matches globs, directions and only frames with a method', () => {
    const matcher = createFaultMatcher(rulesOf('tools/call tool=get-* dir=c2s: drop', 'notifications/* dir=s2c: drop'), seededRandom(1));
    expect(matcher.decide(call('get-sum'))?.index).toBe(0);
    expect(matcher.decide(call('echo'))).toBeUndefined();
    expect(matcher.decide({ dir: 's2c', method: 'notifications/message', isRequest: false })?.index).toBe(1);
    expect(matcher.decide({ dir: 'c2s', method: 'notifications/initialized', isRequest: false })).toBeUndefined();
    expect(matcher.decide({ dir: 'c2s', isRequest: false })).toBeUndefined();
  });
  it('tells which lines no rule can match, so that they need not be parsed', () => {
    const literal = createFaultMatcher(rulesOf('tools/call tool=a: drop', 'resources/read: drop'), seededRandom(1));
    const line = (text: string) => Buffer.from(text);
    expect(literal.mayMatch(line('{"jsonrpc":"2.0","id":1,"method":"resources/read"}'))).toBe(true);
    expect(literal.mayMatch(line('{"jsonrpc":"2.0","id":1,"method":"ping"}'))).toBe(false);
    // A method spelt with escapes may be one a rule names.
    expect(literal.mayMatch(line('{"jsonrpc":"2.0","id":1,"method":"tools\\/call"}'))).toBe(true);
    expect(createFaultMatcher(rulesOf('notifications/*: drop'), seededRandom(1)).mayMatch(line('{"method":"ping"}'))).toBe(true);
  });
  it('repeats the same faults on the same frames with the same seed, and others with another', () => {
    const frames = Array.from({ length: 200 }, () => call('a'));
    const first = fired(['tools/call p=0.2: drop'], frames, 7);
    expect(fired(['tools/call p=0.2: drop'], frames, 7)).toEqual(first);
    expect(fired(['tools/call p=0.2: drop'], frames, 8)).not.toEqual(first);
    const hits = first.filter((index) => index === 0).length;
    expect(hits).toBeGreaterThan(15);
    expect(hits).toBeLessThan(70);
  });
});
