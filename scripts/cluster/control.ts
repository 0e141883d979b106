/**
 * The control endpoint of a running cluster, on 127.0.0.1 only and behind a per-run bearer token:
 * the cluster suite (test/cluster/) kills, starts and restarts members through it, while the
 * process that started the cluster keeps owning every process (so its stop and the leftover
 * check cover whatever the suite started again). `npm run cluster` prints its address and token
 * for trying failures by hand:
 *   GET  /members                     names, running, pid
 *   GET  /proxy                       HAProxy's server states
 *   POST /members/<name>/kill         SIGKILL (?signal=SIGTERM for a clean stop)
 *   POST /members/<name>/start        start again, answer once it serves
 *   POST /members/<name>/restart      drain in HAProxy, stop, start, answer once it is back
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Cluster } from './cluster';

export interface ControlServer {
  url: string;
  token: string;
  close(): Promise<void>;
}

const SIGNALS = new Set(['SIGKILL', 'SIGTERM', 'SIGSTOP', 'SIGCONT']);

export async function startControl(cluster: Cluster, port: number, log: (l: string) => void = () => undefined): Promise<ControlServer> {
  const token = process.env.CLUSTER_CONTROL_TOKEN?.trim() || randomBytes(24).toString('base64url');
  const names = () => new Set(cluster.members().map((m) => m.name));
  const server = http.createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.headers.authorization !== `Bearer ${token}`) return send(401, { error: 'unauthorized' });
    const u = new URL(req.url ?? '/', 'http://control');
    const run = (what: string, action: () => Promise<unknown>) => {
      const started = Date.now();
      action().then(
        (result) => {
          log(`  control: ${what} (${Date.now() - started} ms)`);
          send(200, { ok: true, ms: Date.now() - started, ...(result && typeof result === 'object' ? result : {}) });
        },
        (error: Error) => send(500, { ok: false, error: error.message }),
      );
    };
    if (req.method === 'GET' && u.pathname === '/members') return send(200, { members: cluster.members() });
    if (req.method === 'GET' && u.pathname === '/proxy') return run('proxy states', async () => ({ states: await cluster.proxyStates() }));
    const m = /^\/members\/([a-z0-9-]+)\/(kill|start|restart)$/.exec(u.pathname);
    if (req.method !== 'POST' || !m) return send(404, { error: 'not_found' });
    const [, name, action] = m;
    if (!names().has(name)) return send(404, { error: 'no_such_member' });
    if (action === 'kill') {
      const signal = (u.searchParams.get('signal') ?? 'SIGKILL') as NodeJS.Signals;
      if (!SIGNALS.has(signal)) return send(400, { error: 'bad_signal' });
      return run(`${signal} ${name}`, () => cluster.kill(name, signal));
    }
    return run(`${action} ${name}`, () => (action === 'start' ? cluster.start(name) : cluster.restart(name)));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    token,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
