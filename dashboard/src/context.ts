import { createContext } from 'preact';
import type { LiveStatus } from './client';

/** The subscription socket's state, for the Intents page's "live" indicator. */
export const LiveContext = createContext<LiveStatus | null>(null);
