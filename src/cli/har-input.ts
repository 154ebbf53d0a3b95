import { createReadStream, statSync } from 'node:fs';
import { JSONParser } from '@streamparser/json';
import { harProblem } from '../export/har-import.js';
import { openFailure } from '../record/reader.js';
import { SpyError } from './errors.js';

/** Past this a HAR is refused before it is read: each of its frames is indexed in memory until they are sorted by time. */
const maxHarBytes = 512 * 1024 * 1024;
/** How much of the start is kept, to say what a file that is no HAR is instead. */
const headBytes = 1024 * 1024;

/** A record (JSON Lines whose first line is an entry) given where a HAR is expected. */
function looksLikeRecord(text: string): boolean {
  try {
    const first: unknown = JSON.parse(text.slice(0, text.indexOf('\n')));
    return typeof first === 'object' && first !== null && 'seq' in first && 'kind' in first;
  } catch {
    return false;
  }
}

/** Why a file that gave no entry is no HAR, when its start says (undefined for a HAR with none). */
function emptyProblem(head: string, whole: boolean): string | undefined {
  if (!whole) return 'not a HAR file: no "log.entries" list';
  try {
    return harProblem(JSON.parse(head));
  } catch {
    return 'not a HAR file';
  }
}

/**
 * Reads a HAR's entries one by one as its bytes arrive (`-` is standard input), handing each to
 * `onEntry`: the file is never held whole, as a text or as a parsed tree. Anything that makes it no
 * HAR is a SpyError of one line.
 */
export async function readHarEntries(file: string, onEntry: (entry: unknown) => void): Promise<number> {
  try {
    // Refused before it is read: reading 600 MB only to fail costs time and memory.
    const size = file === '-' ? 0 : statSync(file).size;
    if (size > maxHarBytes) throw new SpyError(`${file} is ${Math.round(size / 2 ** 20)} MiB: import reads a HAR whole, up to 512 MiB`);
  } catch (error) {
    if (error instanceof SpyError) throw error;
    throw new SpyError(openFailure(file, error).message);
  }
  const parser = new JSONParser({ paths: ['$.log.entries.*'], keepStack: false });
  let count = 0;
  let failure: string | undefined;
  parser.onValue = ({ value, key }) => {
    // A member of a list has a number for its key; of an object, a name.
    if (count === 0 && typeof key !== 'number') failure ??= 'not a HAR file: "log.entries" is not a list';
    count++;
    if (failure === undefined) {
      // The parser would report what an entry's reading throws as JSON it cannot parse: say what it was.
      try {
        onEntry(value);
      } catch (error) {
        failure = `${file}: its entry ${count} could not be read (${error instanceof Error ? error.message : String(error)}); nothing was imported`;
      }
    }
  };
  parser.onError = (error) => (failure ??= `not a HAR file: not JSON (${error.message})`);
  let head = '';
  let read = 0;
  try {
    for await (const chunk of file === '-' ? process.stdin : createReadStream(file)) {
      // An editor's byte order mark is no reason to refuse a file.
      const bytes = read === 0 && (chunk as Buffer).subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf])) ? (chunk as Buffer).subarray(3) : (chunk as Buffer);
      if (read < headBytes) head += bytes.subarray(0, headBytes - read).toString('utf8');
      read += bytes.length;
      if (read > maxHarBytes) failure ??= `${file} is over 512 MiB: import reads a HAR whole, up to 512 MiB`;
      if (failure !== undefined) break;
      if (!parser.isEnded) parser.write(bytes);
      else if (bytes.toString('utf8').trim() !== '') failure = 'not a HAR file: more after its JSON';
    }
  } catch (error) {
    throw new SpyError(openFailure(file, error).message);
  }
  if (failure === undefined && !parser.isEnded) parser.end();
  if (failure?.startsWith('not a HAR file: not JSON') && looksLikeRecord(head)) {
    throw new SpyError(`${file} is an mcp-spy record, not a HAR: view, check, replay and export read it as it is`);
  }
  failure ??= count === 0 ? emptyProblem(head, read <= headBytes) : undefined;
  if (failure !== undefined) throw new SpyError(failure.startsWith(file) ? failure : `${file} is ${failure}`);
  return count;
}
