/** A session file as prune weighs it. */
export interface PruneCandidate {
  file: string;
  /** The server it belongs to (client and name). */
  key: string;
  started: Date;
  bytes: number;
  /** Its spy still runs: never removed. */
  live: boolean;
}

export interface PruneRule {
  /** Keep the newest N of each server. */
  keep?: number;
  /** Keep the newest files whose sizes add up to at most this, over all servers. */
  maxBytes?: number;
}

/**
 * The files to remove: beyond the newest `keep` of each server, then the oldest of what is left,
 * from the first (newest first) that no longer fits `maxBytes` on. A file still being written is kept (and counts against the size).
 */
export function choosePrune(candidates: readonly PruneCandidate[], rule: PruneRule): string[] {
  const newestFirst = [...candidates].sort((a, b) => b.started.getTime() - a.started.getTime());
  const seen = new Map<string, number>();
  const remove = new Set<string>();
  for (const candidate of newestFirst) {
    const rank = (seen.get(candidate.key) ?? 0) + 1;
    seen.set(candidate.key, rank);
    if (!candidate.live && rule.keep !== undefined && rank > rule.keep) remove.add(candidate.file);
  }
  if (rule.maxBytes !== undefined) {
    let total = newestFirst.filter((candidate) => candidate.live).reduce((sum, candidate) => sum + candidate.bytes, 0);
    let full = false;
    for (const candidate of newestFirst) {
      if (candidate.live || remove.has(candidate.file)) continue;
      // Once one does not fit, older ones go too: the history kept is the newest, without holes.
      full ||= total + candidate.bytes > rule.maxBytes;
      if (full) remove.add(candidate.file);
      else total += candidate.bytes;
    }
  }
  return newestFirst.filter((candidate) => remove.has(candidate.file)).map((candidate) => candidate.file);
}
