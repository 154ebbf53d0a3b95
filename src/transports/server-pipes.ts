import { spawnSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, rmSync } from 'node:fs';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The server's stdio as real pipes: the descriptors it gets, and our ends as streams. */
export interface ServerPipes {
  /** For the server: stdin, stdout, stderr. Close them here once it has been started. */
  child: [number, number, number];
  stdin: Socket;
  stdout: Socket;
  stderr: Socket;
  closeChildEnds(): void;
}

/**
 * Pipes for the server's stdin, stdout and stderr, as a shell gives them: Node would give it
 * sockets, which servers that check `fstat` or open `/dev/stdin` tell apart (ENXIO). Node makes no
 * anonymous pipe, so each is a FIFO, opened at both ends and unlinked at once. Undefined when
 * FIFOs cannot be made here; the caller then falls back to Node's own pipes.
 */
export function openServerPipes(): ServerPipes | undefined {
  let dir: string;
  try {
    dir = mkdtempSync(join(tmpdir(), 'mcp-spy-'));
  } catch {
    return undefined;
  }
  const opened: number[] = [];
  const open = (path: string, flags: number) => {
    const fd = openSync(path, flags);
    opened.push(fd);
    return fd;
  };
  try {
    const [inPath, outPath, errPath] = ['in', 'out', 'err'].map((name) => join(dir, name)) as [string, string, string];
    if (spawnSync('mkfifo', ['-m', '600', inPath, outPath, errPath], { stdio: 'ignore' }).status !== 0) throw new Error('mkfifo failed');
    // The server's ends block, as pipes do; ours do not. Opening a FIFO's read end blocks until a
    // writer exists (and the reverse): a read-write holder, closed after, keeps every open instant.
    const holder = open(inPath, constants.O_RDWR);
    const childIn = open(inPath, constants.O_RDONLY);
    const ourIn = open(inPath, constants.O_WRONLY | constants.O_NONBLOCK);
    closeSync(opened.splice(opened.indexOf(holder), 1)[0]!);
    const ourOut = open(outPath, constants.O_RDONLY | constants.O_NONBLOCK);
    const childOut = open(outPath, constants.O_WRONLY);
    const ourErr = open(errPath, constants.O_RDONLY | constants.O_NONBLOCK);
    const childErr = open(errPath, constants.O_WRONLY);
    const child: [number, number, number] = [childIn, childOut, childErr];
    return {
      child,
      stdin: new Socket({ fd: ourIn, readable: false, writable: true }),
      stdout: new Socket({ fd: ourOut, readable: true, writable: false }),
      stderr: new Socket({ fd: ourErr, readable: true, writable: false }),
      closeChildEnds: () => child.forEach((fd) => closeSync(fd)),
    };
  } catch {
    for (const fd of opened) closeSync(fd);
    return undefined;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
