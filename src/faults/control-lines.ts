// The control socket of --intercept speaks lines of JSON both ways; both ends (the spy, the console)
// and the tests read them with this one reader.
import type { Socket } from 'node:net';

/** A line past this is no message either end meant (a held frame is bounded below it): the connection is closed. */
export const maxControlLine = 16 * 1024 * 1024;

/**
 * Calls `onLine` with each whole, non-blank line `socket` brings, in order; a line growing past
 * `maxLine` without its end closes the socket instead of being held without bound.
 */
export function readControlLines(socket: Socket, onLine: (line: string) => void, maxLine = maxControlLine): void {
  let rest = '';
  socket.setEncoding('utf8');
  socket.on('data', (text: string) => {
    rest += text;
    let at = rest.indexOf('\n');
    while (at !== -1) {
      const line = rest.slice(0, at);
      rest = rest.slice(at + 1);
      if (line.trim() !== '') onLine(line);
      at = rest.indexOf('\n');
    }
    if (rest.length > maxLine) socket.destroy();
  });
}
