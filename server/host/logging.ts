/**
 * The game host's structured logs, like the api's: one pino logger (Fastify's, built from
 * server/shared/logging.ts `requestLogOptions`, so the same redaction: secret headers censored,
 * credential query values and tokens cut from URLs and error texts) writes JSON lines with
 * `service: "host"` and the `hostId`. The agent's own lines (pool, sessions, registry, runtimes)
 * go through `log`, which also redacts its text and lifts a leading `session <id>:` into a
 * `sessionId` field. main.ts wires it; tests pass a `stream` to capture the lines.
 *
 * LOG_LEVEL: pino's levels; `silent` keeps the agent's warnings and errors (as before pino) and
 * hides the rest. docs/operations.md "Logs".
 */
import os from 'node:os';
import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';
import { redactText, requestLogOptions } from '../shared/logging';
import type { HostConfig } from './config';

export type HostLog = (level: 'info' | 'warn' | 'error', msg: string) => void;

export interface HostLogging {
  /** Fastify's `logger` option for the agent's app. */
  fastify: NonNullable<FastifyServerOptions['logger']>;
  /** The agent's log (buildHostAgent's `log`): to the app's logger once `bind` is called. */
  log: HostLog;
  /** Sends `log` to the app's logger (call right after buildHostAgent). */
  bind(logger: FastifyBaseLogger): void;
}

const SESSION_PREFIX = /^session ([A-Za-z0-9_-]{1,64}): /;

/** A destination for the lines (a Writable); default stdout. */
export interface LogStream {
  write(line: string): unknown;
}

export function hostLogging(config: Pick<HostConfig, 'hostId' | 'logLevel'>, stream?: LogStream): HostLogging {
  const level = config.logLevel === 'silent' ? 'warn' : config.logLevel;
  const base = { pid: process.pid, hostname: os.hostname(), service: 'host', hostId: config.hostId };
  const fastify = { ...(requestLogOptions(level, base) as object), ...(stream ? { stream } : {}) } as NonNullable<FastifyServerOptions['logger']>;
  let bound: FastifyBaseLogger | null = null;
  const log: HostLog = (lvl, msg) => {
    const text = redactText(msg);
    if (!bound) {
      // before the app exists (nothing logs then today): keep the line anyway
      (lvl === 'info' ? console.log : console.error)(`[host ${config.hostId}] ${text}`);
      return;
    }
    const session = SESSION_PREFIX.exec(text);
    if (session) bound[lvl]({ sessionId: session[1] }, text);
    else bound[lvl](text);
  };
  return {
    fastify,
    log,
    bind(logger) {
      bound = logger;
    },
  };
}
