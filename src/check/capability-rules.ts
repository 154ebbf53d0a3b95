import type { JsonObject } from '../protocol/jsonrpc.js';
import { c2s, handshake, lines, s2c } from './examples.js';
import type { RuleFamily } from './types.js';

/** Which capability a method needs, and which side must have declared it. */
const needs: { prefix: string; capability: string; declaredBy: 'client' | 'server' }[] = [
  { prefix: 'sampling/', capability: 'sampling', declaredBy: 'client' },
  { prefix: 'roots/', capability: 'roots', declaredBy: 'client' },
  { prefix: 'elicitation/', capability: 'elicitation', declaredBy: 'client' },
  { prefix: 'tools/', capability: 'tools', declaredBy: 'server' },
  { prefix: 'resources/', capability: 'resources', declaredBy: 'server' },
  { prefix: 'prompts/', capability: 'prompts', declaredBy: 'server' },
];

/** Capabilities: a peer uses only what the other side declared. */
export const capabilityRules: RuleFamily = {
  rules: [
    {
      id: 'capability-not-advertised',
      severity: 'error',
      summary: 'a request for a feature the other side did not declare (tools, resources, prompts; sampling, roots, elicitation)',
      bad: lines(handshake('2025-06-18', { prompts: {} }), c2s({ id: 1, method: 'tools/list' }), s2c({ id: 1, result: { tools: [] } })),
      good: lines(handshake('2025-06-18', { tools: {} }), c2s({ id: 1, method: 'tools/list' }), s2c({ id: 1, result: { tools: [] } })),
    },
  ],
  frame({ entry, state, report }) {
    if (entry.kind !== 'request' || typeof entry.method !== 'string') return;
    const method = entry.method;
    const need = needs.find((candidate) => method.startsWith(candidate.prefix));
    if (!need) return;
    const sender = entry.dir === 'c2s' ? 'client' : 'server';
    if (sender === need.declaredBy) return;
    const declared: JsonObject | undefined = need.declaredBy === 'client' ? state.facts.clientCapabilities : state.facts.serverCapabilities;
    if (declared && !(need.capability in declared)) {
      report('capability-not-advertised', `the ${sender} sent ${method}, but the ${need.declaredBy} did not declare the ${need.capability} capability`);
    }
  },
};
