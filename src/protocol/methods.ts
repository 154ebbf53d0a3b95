import { createRequire } from 'node:module';

// Method names per revision, read from each revision of the MCP schema: facts, not policy.
// Loaded with require: JSON modules by import need a newer Node.js 20 than we ask for.
const load = createRequire(import.meta.url);

export const methodsByRevision = load('./mcp-methods.json') as typeof import('./mcp-methods.json');
