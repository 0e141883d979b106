/**
 * The host's calls to the api (docs/sessions.md §4.1 and §4.3), each with the shared secret and
 * the host id, a timeout, and retries where a lost report would matter (state, saves, input
 * activity). Bodies and answers are the host ⇄ api contract (server/shared/host-contract.ts); an
 * answer is read as received (`Partial`: its fields are checked where used, nothing trusts it
 * whole).
 *
 * An api that answers 5xx (503 while its database is stalled) or cannot be reached (restarting)
 * is waited out, not acted on (docs/reliability.md): reports and saves keep retrying for
 * REPORT_RETRY_MS, and the game goes on meanwhile. Saves of one slot are written in order: a newer
 * save replaces an older one still waiting, so a late retry never overwrites newer progress.
 */
import {
  HOST_ID_HEADER,
  HOST_SECRET_HEADER,
  type HeartbeatAnswer,
  type HeartbeatBody,
  type HostReportedState,
  type InputActivityBody,
  type RegisterAnswer,
  type RegisterBody,
  type SaveBody,
  type ScreenshotAnswer,
  type StateReportBody,
} from '../shared/host-contract';

export interface ApiAnswer<T = Record<string, unknown>> {
  status: number;
  body: T | null;
}

export class ApiCallError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string | null,
  ) {
    super(message);
    this.name = 'ApiCallError';
  }
}

interface CallOptions {
  body?: unknown;
  raw?: Buffer;
  contentType?: string;
  timeoutMs?: number;
  /** Extra attempts on network errors and 5xx (not on 4xx). */
  retries?: number;
  /** Keep retrying (network errors, 5xx) until this long after the first attempt, whatever `retries` says. */
  retryForMs?: number;
}

/** How long state reports, saves and input activity are retried while the api answers 5xx or is unreachable. */
export const REPORT_RETRY_MS = 30_000;
/** Input activity only feeds the idle rule (minutes): retried for less. */
const INPUT_ACTIVITY_RETRY_MS = 10_000;

/** Waits between attempts; unref'd, so a retry in progress never keeps a stopping process alive. */
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms).unref());

export class ApiClient {
  /** Saves waiting or under way, per session and slot (see save()). */
  private readonly saving = new Map<string, { latest: SaveBody; done: Promise<unknown> }>();

  constructor(
    readonly apiUrl: string,
    private readonly secret: string,
    readonly hostId: string,
  ) {}

  async call<T = Record<string, unknown>>(method: string, path: string, o: CallOptions = {}): Promise<ApiAnswer<T>> {
    const attempts = 1 + (o.retries ?? 0);
    const until = Date.now() + (o.retryForMs ?? 0);
    // one more attempt may start while within the attempt count or the retry window
    const mayRetry = (i: number) => i < attempts - 1 || Date.now() < until;
    let last: unknown;
    for (let i = 0; ; i++) {
      if (i > 0) await sleep(Math.min(2000, 200 * 2 ** Math.min(i - 1, 4)));
      try {
        const headers: Record<string, string> = { [HOST_SECRET_HEADER]: this.secret, [HOST_ID_HEADER]: this.hostId };
        let body: BodyInit | undefined;
        if (o.raw) {
          headers['content-type'] = o.contentType ?? 'application/octet-stream';
          body = new Uint8Array(o.raw);
        } else if (o.body !== undefined) {
          headers['content-type'] = 'application/json';
          body = JSON.stringify(o.body);
        }
        const res = await fetch(`${this.apiUrl}${path}`, { method, headers, body, signal: AbortSignal.timeout(o.timeoutMs ?? 5000) });
        const text = await res.text();
        let parsed: T | null = null;
        try {
          parsed = text ? (JSON.parse(text) as T) : null;
        } catch {
          parsed = null;
        }
        if (res.status >= 500 && mayRetry(i)) {
          last = new ApiCallError(`${method} ${path}: ${res.status}`, res.status, errorCode(parsed));
          continue;
        }
        return { status: res.status, body: parsed };
      } catch (e) {
        last = e;
        if (!mayRetry(i)) break;
      }
    }
    throw last instanceof Error ? last : new Error(String(last));
  }

  private async ok<T>(method: string, path: string, o: CallOptions = {}): Promise<T> {
    const r = await this.call<T>(method, path, o);
    if (r.status < 200 || r.status >= 300) {
      const code = errorCode(r.body);
      throw new ApiCallError(`${method} ${path}: ${r.status}${code ? ` ${code}` : ''}`, r.status, code);
    }
    return (r.body ?? {}) as T;
  }

  register(body: Omit<RegisterBody, 'hostId'>): Promise<Partial<RegisterAnswer>> {
    const full: RegisterBody = { hostId: this.hostId, ...body };
    return this.ok('POST', '/internal/hosts/register', { body: full });
  }

  /** Throws ApiCallError with status 404 when the api does not know this host (register again). */
  heartbeat(body: HeartbeatBody, timeoutMs: number): Promise<Partial<HeartbeatAnswer>> {
    return this.ok('POST', `/internal/hosts/${encodeURIComponent(this.hostId)}/heartbeat`, { body, timeoutMs });
  }

  shutdown(): Promise<unknown> {
    return this.ok('POST', `/internal/hosts/${encodeURIComponent(this.hostId)}/shutdown`, { body: {}, timeoutMs: 3000 });
  }

  reportState(sessionId: string, state: HostReportedState, reason?: string): Promise<ApiAnswer> {
    const body: StateReportBody = reason ? { state, reason } : { state };
    return this.call('POST', `/internal/sessions/${encodeURIComponent(sessionId)}/state`, { body, retries: 3, retryForMs: REPORT_RETRY_MS });
  }

  /**
   * Stores a save; resolves once it (or a newer save of the same slot) is stored. One write per
   * session and slot at a time: a save made while an older one is still being retried replaces
   * it, so the newest progress is written last.
   */
  save(sessionId: string, slot: string, state: Record<string, unknown>): Promise<unknown> {
    const key = `${sessionId}/${slot}`;
    const body: SaveBody = { slot, state };
    const pending = this.saving.get(key);
    if (pending) {
      pending.latest = body;
      return pending.done;
    }
    const job: { latest: SaveBody; done: Promise<unknown> } = { latest: body, done: Promise.resolve() };
    job.done = (async () => {
      try {
        for (;;) {
          const sent = job.latest;
          try {
            const answer = await this.ok('POST', `/internal/sessions/${encodeURIComponent(sessionId)}/saves`, {
              body: sent,
              retries: 2,
              retryForMs: REPORT_RETRY_MS,
            });
            if (job.latest === sent) return answer;
          } catch (e) {
            if (job.latest === sent) throw e;
          }
        }
      } finally {
        this.saving.delete(key);
      }
    })();
    this.saving.set(key, job);
    return job.done;
  }

  async screenshot(sessionId: string, png: Buffer): Promise<string> {
    const r = await this.ok<Partial<ScreenshotAnswer>>('POST', `/internal/sessions/${encodeURIComponent(sessionId)}/screenshots`, {
      raw: png,
      contentType: 'image/png',
      timeoutMs: 10_000,
    });
    if (typeof r.screenshotId !== 'string' || !r.screenshotId) throw new ApiCallError('screenshot: no screenshotId in the answer', 200, null);
    return r.screenshotId;
  }

  inputActivity(sessionId: string, at: number): Promise<unknown> {
    const body: InputActivityBody = { at };
    return this.ok('POST', `/internal/sessions/${encodeURIComponent(sessionId)}/input-activity`, { body, retryForMs: INPUT_ACTIVITY_RETRY_MS });
  }
}

function errorCode(body: unknown): string | null {
  const e = (body as { error?: { code?: unknown } } | null)?.error;
  return typeof e?.code === 'string' ? e.code : null;
}
