/**
 * What the cluster suite knows of the running cluster (scripts/test.ts starts it and passes these
 * in the environment): HAProxy's api address, the control endpoint (kill / start / restart a
 * member), the hosts, the database and the TURN secret; plus the calls the suite makes through
 * HAProxy as a player's browser would (test users from the Auth emulator, sessions, tokens).
 */
import pg from 'pg';

function required(name: string): string {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set: the cluster suite runs against a running cluster (npm test starts one; see docs/cluster.md)`);
  return v;
}

export interface HostInfo {
  name: string;
  hostId: string;
  url: string;
}

export const cluster = {
  apiUrl: required('CLUSTER_API_URL'),
  webUrl: required('CLUSTER_WEB_URL'),
  controlUrl: required('CLUSTER_CONTROL_URL'),
  controlToken: required('CLUSTER_CONTROL_TOKEN'),
  databaseUrl: required('DATABASE_URL'),
  authEmulator: required('FIREBASE_AUTH_EMULATOR_HOST'),
  projectId: process.env.FIREBASE_PROJECT_ID || 'demo-yumecast',
  hosts: JSON.parse(required('CLUSTER_HOSTS')) as HostInfo[],
  apis: JSON.parse(required('CLUSTER_APIS')) as { name: string; url: string }[],
  hostSecret: required('HOST_SHARED_SECRET'),
  turnSecret: required('TURN_SECRET'),
  turnTtlS: Number(process.env.TURN_TTL_S || 3600),
};

export const GAME = 'hoshifuru-toshokan';
export const LIVE_STATES = ['allocating', 'starting', 'ready', 'playing'];
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function until<T>(fn: () => Promise<T | null | undefined | false> | T | null | undefined | false, what: string, ms = 30_000, step = 250): Promise<T> {
  const end = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}${last ? ` (last error: ${(last as Error).message})` : ''}`);
    await sleep(step);
  }
}

/** Kills (SIGKILL), starts or restarts a member of the cluster through its control endpoint. */
export async function control(action: 'kill' | 'start' | 'restart', name: string): Promise<number> {
  const r = await fetch(`${cluster.controlUrl}/members/${name}/${action}`, { method: 'POST', headers: { authorization: `Bearer ${cluster.controlToken}` }, signal: AbortSignal.timeout(150_000) });
  const body = (await r.json()) as { ok?: boolean; error?: string; ms?: number };
  if (!r.ok || !body.ok) throw new Error(`control ${action} ${name}: ${body.error ?? r.status}`);
  return body.ms ?? 0;
}

export async function proxyStates(): Promise<Record<string, string>> {
  const r = await fetch(`${cluster.controlUrl}/proxy`, { headers: { authorization: `Bearer ${cluster.controlToken}` } });
  return ((await r.json()) as { states: Record<string, string> }).states;
}

export interface User {
  uid: string;
  idToken: string;
}

let counter = 0;
/** A signed-up user with a verified e-mail (the Auth emulator's REST API, as e2e/support does). */
export async function createUser(): Promise<User> {
  const base = `http://${cluster.authEmulator}/identitytoolkit.googleapis.com/v1`;
  const post = async <T>(url: string, body: unknown, owner = false) => {
    const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...(owner ? { authorization: 'Bearer owner' } : {}) }, body: JSON.stringify(body) });
    if (!r.ok) throw new Error(`emulator ${url}: HTTP ${r.status}`);
    return (await r.json()) as T;
  };
  const email = `cluster-${Date.now().toString(36)}-${process.pid}-${++counter}@example.com`;
  const password = 'secret-pass-1';
  const up = await post<{ localId: string }>(`${base}/accounts:signUp?key=demo-api-key`, { email, password, returnSecureToken: true });
  await post(`${base}/projects/${cluster.projectId}/accounts:update`, { localId: up.localId, emailVerified: true }, true);
  const s = await post<{ idToken: string }>(`${base}/accounts:signInWithPassword?key=demo-api-key`, { email, password, returnSecureToken: true });
  return { uid: up.localId, idToken: s.idToken };
}

/** A call to the api through HAProxy, as the player's browser makes it. */
export async function api<T = Record<string, unknown>>(path: string, user: User): Promise<{ status: number; body: T }> {
  const r = await fetch(`${cluster.apiUrl}${path}`, { headers: { authorization: `Bearer ${user.idToken}` }, signal: AbortSignal.timeout(10_000) });
  return { status: r.status, body: (await r.json().catch(() => null)) as T };
}

export async function startSession(user: User, game = GAME): Promise<string> {
  const r = await api<{ game_session_id: string }>(`/v1/game/${game}/start`, user);
  expect(r.status).toBe(200);
  return r.body.game_session_id;
}

export async function sessionState(user: User, id: string): Promise<{ session_state: string; failure_reason?: string }> {
  const r = await api<{ session_state: string; failure_reason?: string }>(`/v1/session/${id}/status`, user);
  if (r.status !== 200) throw new Error(`status of ${id}: HTTP ${r.status}`);
  return r.body;
}

export async function waitForState(user: User, id: string, states: string[], ms = 60_000): Promise<string> {
  return until(async () => {
    const s = await sessionState(user, id);
    if (s.session_state === 'failed' && !states.includes('failed')) throw new Error(`session ${id} failed: ${s.failure_reason}`);
    return states.includes(s.session_state) ? s.session_state : null;
  }, `session ${id} to be ${states.join(' or ')}`, ms);
}

export interface TokenAnswer {
  webrtc_signal_url: string;
  webrtc_signal_token: string;
  webrtc_ice_servers: { urls: string | string[]; username?: string; credential?: string }[];
}

export async function getToken(user: User, id: string): Promise<TokenAnswer> {
  const r = await until(async () => {
    const t = await api<TokenAnswer>(`/v1/session/${id}/get_token`, user);
    return t.status === 200 ? t : null;
  }, `a token for ${id}`, 60_000);
  return r.body;
}

export async function forceClose(user: User, id: string): Promise<void> {
  await api(`/v1/session/${id}/force_close`, user).catch(() => undefined);
}

/** The session's row (host, state) straight from PostgreSQL. */
export async function query<R extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<R[]> {
  const client = new pg.Client({ connectionString: cluster.databaseUrl });
  await client.connect();
  try {
    return (await client.query<R>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

export async function sessionRow(id: string): Promise<{ state: string; host_id: string | null; failure_reason: string | null }> {
  const rows = await query<{ state: string; host_id: string | null; failure_reason: string | null }>('SELECT state, host_id, failure_reason FROM sessions WHERE id = $1', [id]);
  return rows[0];
}

/** The host agent's own view of one session (its counters), with the shared secret. */
export async function hostSession(host: HostInfo, id: string): Promise<{ state: string; counters?: Record<string, number> } | null> {
  const r = await fetch(`${host.url}/sessions/${id}`, { headers: { 'x-host-secret': cluster.hostSecret } }).catch(() => null);
  return r?.ok ? ((await r.json()) as { session: { state: string; counters?: Record<string, number> } }).session : null;
}

/** Open signalling sockets on each api replica (its /metrics, read on loopback), in CLUSTER_APIS order. */
export async function signalConnections(): Promise<number[]> {
  return Promise.all(
    cluster.apis.map(async (a) => {
      const text = await fetch(`${a.url}/metrics`, { signal: AbortSignal.timeout(5_000) }).then(
        (r) => r.text(),
        () => '',
      );
      const m = /^yumecast_api_signal_connections (\d+)/m.exec(text);
      return m ? Number(m[1]) : 0;
    }),
  );
}
