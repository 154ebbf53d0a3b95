// Starting the processes a benchmark measures, and stopping every one of them at the end.
import { spawn } from 'node:child_process';

const started = new Set();

/** Starts a command and resolves with its child and the first group of `ready` matched on its stdout. */
export function startListening(command, ready, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command[0], command.slice(1), { cwd: options.cwd, stdio: ['ignore', 'pipe', 'inherit'] });
    started.add(child);
    const exited = new Promise((done) => child.once('exit', (code, signal) => done(code ?? signal)));
    child.once('exit', () => started.delete(child));
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = ready.exec(out);
      if (match) resolve({ child, exited, found: match[1] });
    });
    child.once('exit', (code) => reject(new Error(`${command.join(' ')} exited with ${code} before it was ready`)));
  });
}

/** SIGTERM to a started process; resolves once it has exited. */
export async function stop(running) {
  running.child.kill('SIGTERM');
  await running.exited;
}

/** Stops whatever is still running (on the way out, also after an error). */
export function stopAll() {
  for (const child of started) child.kill('SIGTERM');
}

/** Runs a benchmark's main: a failure is one line on stderr and exit status 1, with every process stopped. */
export function runBenchmark(name, main) {
  main().catch((error) => {
    console.error(`${name}: ${error.message}`);
    stopAll();
    process.exitCode = 1;
  });
}
