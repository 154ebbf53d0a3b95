import type { HttpObserverConfig } from './http/http-messages.js';
import type { StdioObserverConfig } from './stdio/stdio-messages.js';

/** The observer thread's start-up data: which spy it observes for, and that spy's config. */
export type ThreadConfig = ({ kind: 'stdio' } & StdioObserverConfig) | ({ kind: 'http' } & HttpObserverConfig);
