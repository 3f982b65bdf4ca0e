import pino, { type Logger } from 'pino';

export type { Logger };

/** Paths never written to logs: credentials, keys and payment proofs. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers["x-payment-proof"]',
  'req.headers["x-payment"]',
  'req.headers["payment-signature"]',
  'signature',
  '*.signature',
  'headers.authorization',
  'authorization',
  'apiKey',
  'apiKey.key',
  'key',
  'privateKey',
  'masterKey',
  '*.privateKey',
  '*.apiKey',
];

/** Structured JSON logger (pino) with redaction. */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino({ level, redact: { paths: REDACT_PATHS, censor: '[redacted]' }, base: { service: 'wallet-intent-service' } }, destination);
}
