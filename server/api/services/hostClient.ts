/**
 * The api's calls to a game host (docs/sessions.md 4.2): start a session, stop a session.
 * Every call carries the shared secret and has a timeout; a host never blocks the api. Headers,
 * the start body and the stop reasons are the host ⇄ api contract (server/shared/host-contract.ts).
 */
import { HOST_SECRET_HEADER, type ApiCloseReason, type StartSessionBody } from '../../shared/host-contract';

/**
 * The `reason` of DELETE {host}/sessions/:id: the session's close or failure reason. On every path
 * that stops a runtime it is one of API_CLOSE_REASONS; the host ends any other as `api`.
 */
export type HostStopReason = ApiCloseReason | (string & {});

export type HostCallResult =
  | { ok: true; status: number }
  /** The host answered but refused (status), or did not answer (status 0, `network: true`). */
  | { ok: false; status: number; network: boolean; retryable: boolean; detail: string };

export class HostClient {
  constructor(
    private readonly secret: string,
    private readonly timeoutMs: number,
  ) {}

  startSession(hostUrl: string, body: StartSessionBody): Promise<HostCallResult> {
    return this.call('POST', `${trimSlash(hostUrl)}/sessions`, body);
  }

  async stopSession(hostUrl: string, sessionId: string, reason: HostStopReason): Promise<HostCallResult> {
    const result = await this.call(
      'DELETE',
      `${trimSlash(hostUrl)}/sessions/${encodeURIComponent(sessionId)}?reason=${encodeURIComponent(reason)}`,
    );
    // A host that does not know the session has nothing to stop: that is done, too.
    if (!result.ok && result.status === 404) return { ok: true, status: 404 };
    return result;
  }

  private async call(method: string, url: string, body?: unknown): Promise<HostCallResult> {
    try {
      const response = await fetch(url, {
        method,
        headers: {
          [HOST_SECRET_HEADER]: this.secret,
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        body: body !== undefined ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(this.timeoutMs),
        redirect: 'error',
      });
      // Drain the body so the connection is reused (and never trusted beyond the status).
      await response.arrayBuffer().catch(() => undefined);
      if (response.ok) return { ok: true, status: response.status };
      return {
        ok: false,
        status: response.status,
        network: false,
        retryable: response.status === 409 || response.status === 429 || response.status >= 500,
        detail: `HTTP ${response.status}`,
      };
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause;
      return {
        ok: false,
        status: 0,
        network: true,
        retryable: true,
        detail: cause?.code ?? (error as Error).name ?? 'network error',
      };
    }
  }
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
