import type { ChildProcess } from 'node:child_process';

/**
 * Talks to a spawned process one line at a time: sends a line and, for requests, waits for the
 * next line of its stdout. Lets a test pin the order of frames in the record.
 */
export function lineConversation(child: ChildProcess) {
  let buffered = '';
  const waiting: ((line: string) => void)[] = [];
  const lines: string[] = [];
  child.stdout!.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    let newline = buffered.indexOf('\n');
    while (newline !== -1) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      const next = waiting.shift();
      if (next) next(line);
      else lines.push(line);
      newline = buffered.indexOf('\n');
    }
  });
  const nextLine = () => new Promise<string>((resolve) => (lines.length > 0 ? resolve(lines.shift()!) : waiting.push(resolve)));
  return {
    async request(message: object): Promise<unknown> {
      child.stdin!.write(`${JSON.stringify(message)}\n`);
      return JSON.parse(await nextLine());
    },
    notify(message: object) {
      child.stdin!.write(`${JSON.stringify(message)}\n`);
    },
    end() {
      child.stdin!.end();
    },
  };
}
