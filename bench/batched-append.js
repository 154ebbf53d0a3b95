// The floors' writer (bench/node-recorders.js, bench/http-pass.js): buffers appended to a file,
// whatever came while the last write was out going in the next one, with one writev.
import { openSync, writev } from 'node:fs';

/** Opens `path` for appending; returns `append(...buffers)`. */
export function batchedAppend(path) {
  const fd = openSync(path, 'a');
  let waiting = [];
  let writing = false;
  const flush = () => {
    if (writing || waiting.length === 0) return;
    writing = true;
    const batch = waiting;
    waiting = [];
    writev(fd, batch, () => {
      writing = false;
      flush();
    });
  };
  return (...buffers) => {
    waiting.push(...buffers);
    flush();
  };
}
