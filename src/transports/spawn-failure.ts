/** Why a server command could not be started, and the exit status a shell would give. */
const spawnFailures: Record<string, { why: string; exitCode: number }> = {
  ENOENT: { why: 'command not found', exitCode: 127 },
  EACCES: { why: 'permission denied (not executable?)', exitCode: 126 },
};

/** Reads a spawn error code (from execa or node:child_process) into one line and an exit status. */
export function describeSpawnFailure(code: string, message: string): { why: string; exitCode: number } {
  return spawnFailures[code] ?? { why: message, exitCode: 127 };
}
