import { execFile } from 'node:child_process';
import net from 'node:net';

/**
 * Port helpers shared by the local launchers: a taken port must fail at once with a message
 * that names the port, the service that wanted it and, when we can tell, who holds it — not
 * 30 s later with a timeout.
 */

export class PortInUseError extends Error {
  constructor(
    readonly port: number,
    readonly serviceName: string,
    readonly holder?: string,
  ) {
    super(
      `port ${port} is already in use, so ${serviceName} cannot start` +
        (holder ? ` (held by ${holder})` : '') +
        '. Stop that process or choose another port (see docs/api.md for the variables).',
    );
    this.name = 'PortInUseError';
  }
}

/** True when nothing listens on host:port (we could bind it ourselves). */
export function isPortFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') resolve(false);
      else reject(error);
    });
    server.listen({ port, host, exclusive: true }, () => {
      server.close(() => resolve(true));
    });
  });
}

/** Throws PortInUseError (naming the port, the service and the holder) when the port is taken. */
export async function assertPortFree(port: number, name: string, host = '127.0.0.1'): Promise<void> {
  if (await isPortFree(port, host)) return;
  throw new PortInUseError(port, name, await describePortHolder(port));
}

/**
 * Best effort: "postgres (pid 1234)" for the process listening on the port, from `ss` (Linux).
 * Processes of other users are only visible to root; then we say nothing rather than guess.
 */
export function describePortHolder(port: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile('ss', ['-Hltnp', `sport = :${port}`], { timeout: 2_000 }, (error, stdout) => {
      if (error) return resolve(undefined);
      const match = /users:\(\("([^"]+)",pid=(\d+)/.exec(stdout);
      resolve(match ? `${match[1]} (pid ${match[2]})` : undefined);
    });
  });
}

export interface WaitForHttpOptions {
  timeoutMs: number;
  intervalMs?: number;
  /** Checked between attempts: stop waiting when the process we started has died. */
  abortIf?: () => Error | undefined;
  /** When given, only an answer whose body passes it counts (e.g. a regenerated page). */
  ready?: (body: string) => boolean;
}

/** Polls `url` until it answers with any HTTP response (a running server), or fails. */
export async function waitForHttp(url: string, options: WaitForHttpOptions): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    const aborted = options.abortIf?.();
    if (aborted) throw aborted;
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      if (!options.ready) {
        await response.body?.cancel();
        return;
      }
      if (options.ready(await response.text())) return;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${Math.round(options.timeoutMs / 1000)} s`);
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 250));
  }
}
