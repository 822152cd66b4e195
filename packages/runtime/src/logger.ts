import { pino, type Logger, type LoggerOptions } from "pino";

export type { Logger };

/**
 * Paths that must never reach a log line: credentials, and image payloads (data URIs are
 * large and are customer content).
 */
export const REDACTED_PATHS = [
  "authorization",
  "headers.authorization",
  "req.headers.authorization",
  "req.headers.cookie",
  "res.headers['set-cookie']",
  "apiKey",
  "key",
  "rawKey",
  "password",
  "*.password",
  "*.apiKey",
  "*.rawKey",
  "providerKey",
  "*.providerKey",
  "body.assets[*].url",
  "assets[*].url",
  "image",
  "*.image_url",
];

export function createLogger(service: string, level: string, options: LoggerOptions = {}): Logger {
  return pino({
    name: service,
    level,
    base: { service },
    redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
    timestamp: pino.stdTimeFunctions.isoTime,
    ...options,
  });
}
