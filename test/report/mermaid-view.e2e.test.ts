// `view --format mermaid` of the built binary, read back by Mermaid's own parser: the text of each
// message is the label the spy wrote, ids (`#0`) included.
import mermaid from 'mermaid';
import { afterAll, describe, expect, it } from 'vitest';
import { c2s, handshake, lines, s2c } from '../../src/check/examples.js';
import { runBinSync, tempDir } from '../helpers/spy.js';

const temp = tempDir('mcp-spy-mermaid-');
afterAll(() => temp.remove());

/** Mermaid keeps entity codes encoded until it draws (`#35;` as `ﬂ°°35¶ß`): decoded, the text a reader sees. */
const decoded = (text: string) => text.replace(/ﬂ°°(\d+)¶ß/g, (_, code: string) => String.fromCodePoint(Number(code)));

describe('view --format mermaid', () => {
  it('keeps "#" and what follows it in a message (Mermaid reads a bare # as a comment)', async () => {
    const capture = temp.file(
      'ids.wire.log',
      `${lines(handshake('2025-06-18', { tools: {} }), c2s({ id: 1, method: 'tools/call', params: { name: 'tag#1', arguments: {} } }), s2c({ id: 1, result: { content: [] } }))}\n`,
    );
    const result = runBinSync(['view', capture, '--format', 'mermaid']);
    expect(result.code).toBe(0);
    expect(result.text).toContain('initialize #35;0');
    await mermaid.parse(result.text);
    const diagram = await mermaid.mermaidAPI.getDiagramFromText(result.text);
    const messages = (diagram.db as { getMessages(): { message: string }[] }).getMessages().map((message) => decoded(message.message));
    expect(messages).toEqual(['session capture', 'initialize #0', 'initialize #0', 'notifications/initialized', 'tools/call tag#1 #1', 'tools/call tag#1 #1']);
  });
});
