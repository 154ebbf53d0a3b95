import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { Socket } from 'node:net';

/** Errors that say the collector is not there at all: retrying within seconds will not change them. */
const unreachableCodes = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/** Why a connection failed, as Node says it (`connect ECONNREFUSED 127.0.0.1:9`). */
export interface ConnectionTrouble {
  message: string;
  /** The collector cannot be reached: refused, unknown host, no route. */
  unreachable: boolean;
}

/**
 * The HTTP agents of the OTLP exporters, watching their own connections: the exporters retry a
 * refused connection for seconds and say why only when they give up, while the spy must say it
 * at once (export otlp) or within its short close (the live note).
 */
export function createWatchedAgents() {
  let trouble: ConnectionTrouble | undefined;
  const listeners = new Set<(trouble: ConnectionTrouble) => void>();
  const watch = <T extends HttpAgent>(agent: T): T => {
    const create = agent.createConnection.bind(agent) as (...args: unknown[]) => Socket;
    agent.createConnection = ((...args: unknown[]) => {
      const socket = create(...args);
      socket.once('connect', () => (trouble = undefined));
      socket.once('error', (error: NodeJS.ErrnoException) => {
        trouble = { message: error.message, unreachable: unreachableCodes.has(error.code ?? '') };
        for (const listener of listeners) listener(trouble);
      });
      return socket;
    }) as typeof agent.createConnection;
    return agent;
  };
  // One agent per protocol, kept alive as the exporters' own default agents are.
  const agents = { 'http:': watch(new HttpAgent({ keepAlive: true })), 'https:': watch(new HttpsAgent({ keepAlive: true })) };
  return {
    /** For the exporters' `httpAgentOptions`. */
    factory: (protocol: string): HttpAgent => agents[protocol === 'https:' ? 'https:' : 'http:'],
    /** The last connection's trouble, until a connection succeeds. */
    trouble: () => trouble,
    /** Calls `listener` on each connection that fails. */
    onTrouble(listener: (trouble: ConnectionTrouble) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
