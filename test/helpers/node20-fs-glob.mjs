// Loaded with `node --import` so the conformance suite runs on Node 20: it imports `globSync` from
// `fs`, which Node adds only in 22. Node fixes a builtin's named exports when it loads, so adding
// the function is not enough: imports of `fs` from the suite resolve to a module that adds it.
import { register } from 'node:module';

const withGlob = `
import fs from 'node:fs';
import { globSync as tinyGlobSync } from ${JSON.stringify(import.meta.resolve('tinyglobby'))};
export * from 'node:fs';
export default fs;
export const globSync = fs.globSync ?? ((patterns, options = {}) => tinyGlobSync(patterns, { cwd: options.cwd }));
`;
const hooks = `
export function resolve(specifier, context, next) {
  if ((specifier === 'fs' || specifier === 'node:fs') && context.parentURL?.includes('/@modelcontextprotocol/conformance/')) {
    return { url: 'data:text/javascript,' + encodeURIComponent(${JSON.stringify(withGlob)}), shortCircuit: true };
  }
  return next(specifier, context);
}
`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);
