import { readFileSync } from 'node:fs';

/** The version in our package.json, read once. */
export const version: string = (() => {
  try {
    const file = new URL('../../package.json', import.meta.url);
    return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
})();
