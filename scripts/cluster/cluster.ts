/**
 * Starts the multi-node stack (docs/cluster.md): PostgreSQL and the Firebase emulators as in
 * `npm start`, coturn, the api replicas behind HAProxy, the payments sandbox, the host agents and
 * the web replicas behind HAProxy, through the stack's own parts (scripts/stack/stack.ts), and
 * gives control over its members: kill one (SIGKILL: a crash), start it again, or restart the
 * api replicas one at a time (drained in HAProxy first). Used by `npm run cluster` and by
 * scripts/test.ts for the cluster suite.
 */
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { ensureRuntimeBuild, ensureWebBuild } from '../stack/build';
import { assertPortsFree, ProcessSet, services, sharedServicePorts, startSharedServices, waitUntilServing, webReady, type Log, type ServiceSpec } from '../stack/stack';
import { apiEnv, clusterEnv, clusterPorts, clusterUrls, hostEnv, type ClusterConfig } from './config';
import { coturnService } from './coturn';
import { haproxyCommand, haproxyServerStates, haproxyService } from './haproxy';

export interface Cluster {
  config: ClusterConfig;
  urls: ReturnType<typeof clusterUrls>;
  env: NodeJS.ProcessEnv;
  processGroups: number[];
  /** Names of the members that can be killed and started (api-1, web-2, host-3, coturn, …). */
  members(): { name: string; running: boolean; pid?: number }[];
  /** Kills a member's whole process group at once (SIGKILL unless told otherwise). */
  kill(name: string, signal?: NodeJS.Signals): Promise<void>;
  /** Starts a stopped or killed member again and waits until it serves (and HAProxy has it back). */
  start(name: string): Promise<void>;
  /** Drains one api or web replica in HAProxy, stops it gracefully, starts it, waits till it is back. */
  restart(name: string): Promise<void>;
  /** HAProxy's view: server name → UP / DOWN / MAINT / DRAIN. */
  proxyStates(): Promise<Record<string, string>>;
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until every host has registered with the api (through HAProxy) and is Ready. */
async function waitForHosts(databaseUrl: string, ids: string[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const client = new pg.Client({ connectionString: databaseUrl });
    try {
      await client.connect();
      const { rows } = await client.query<{ id: string }>(`SELECT id FROM hosts WHERE id = ANY($1) AND state = 'Ready' AND reported_warm > 0`, [ids]);
      if (rows.length === ids.length) return;
    } catch {
      /* not yet */
    } finally {
      await client.end().catch(() => undefined);
    }
    if (Date.now() > deadline) throw new Error(`the hosts ${ids.join(', ')} did not all register Ready with a warm runtime within ${timeoutMs / 1000} s`);
    await sleep(500);
  }
}

export async function startCluster(c: ClusterConfig, log: Log = console.log): Promise<Cluster> {
  const env = clusterEnv(c);
  const u = clusterUrls(c);
  const procs = new ProcessSet(path.join(c.stack.runDir, 'logs'));
  /** How each member tells it is serving (its own port, not HAProxy's). */
  const health = new Map<string, { url: string; timeoutMs: number; ready?: (body: string) => boolean }>();
  const backend = (name: string) => (name.startsWith('api-') ? 'api_replicas' : name.startsWith('web-') ? 'web_replicas' : null);
  /** Every HAProxy backend a replica serves in (an api replica also takes hosts' /internal/ calls). */
  const backends = (name: string) => (name.startsWith('api-') ? ['api_replicas', 'api_by_host'] : name.startsWith('web-') ? ['web_replicas'] : []);

  const launch = (spec: ServiceSpec, url?: string, timeoutMs = 60_000, ready?: (body: string) => boolean) => {
    if (url) health.set(spec.name, { url, timeoutMs, ...(ready ? { ready } : {}) });
    return procs.start(spec);
  };
  const serving = async (name: string) => {
    const m = procs.get(name);
    const h = health.get(name);
    if (!m) throw new Error(`${name} is not running`);
    if (h) await waitUntilServing(m, h.url, h.timeoutMs, h.ready);
  };
  const proxyStates = () => haproxyServerStates(c);
  const proxyHas = async (name: string, want: string, timeoutMs = 20_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const s = (await proxyStates().catch(() => ({}) as Record<string, string>))[name];
      if (s?.startsWith(want)) return;
      if (Date.now() > deadline) throw new Error(`HAProxy did not see ${name} ${want} within ${timeoutMs / 1000} s (it says ${s ?? 'nothing'})`);
      await sleep(200);
    }
  };

  try {
    await assertPortsFree([...sharedServicePorts(c.stack), ...clusterPorts(c)]);
    await ensureWebBuild(c.stack, env, log);
    await ensureRuntimeBuild(log);
    for (const h of c.hosts) fs.mkdirSync(path.join(c.stack.runDir, 'host-tmp', h.name), { recursive: true });

    const shared = await startSharedServices(c.stack, env, procs, log);

    log(`• coturn (TURN) on 127.0.0.1:${c.turn.port}, relay ports ${c.turn.minPort}-${c.turn.maxPort}`);
    launch(coturnService(c, env));

    // One replica first: it applies the migrations; the others start on a migrated database.
    const [first, ...others] = c.apis;
    log(`• api replicas on ${c.apis.map((a) => a.port).join(', ')}`);
    launch(services.api(first.name, apiEnv(env, first)), `http://127.0.0.1:${first.port}/health`);
    await serving(first.name);
    for (const a of others) launch(services.api(a.name, apiEnv(env, a)), `http://127.0.0.1:${a.port}/health`);

    log(`• HAProxy: api on ${u.api}, web on ${u.web}`);
    launch(haproxyService(c, env));

    log(`• payments sandbox on ${u.paymentsSandbox}`);
    launch(services.sandbox(c.stack, env), `${u.paymentsSandbox}/`);

    for (const a of others) await serving(a.name);
    await proxyHas('api-1', 'UP');
    log('  ✓ api replicas ready behind HAProxy');

    log(`• host agents on ${c.hosts.map((h) => h.port).join(', ')} (warm pool ${c.hostWarm}, capacity ${c.hostCapacity})`);
    for (const h of c.hosts) launch(services.host(h.name, hostEnv(c, env, h)), `http://127.0.0.1:${h.port}/health`, 90_000);

    log(`• web replicas on ${c.webs.map((w) => w.port).join(', ')}`);
    for (const w of c.webs) launch(services.web(w.name, c.stack, w.port, env), `http://127.0.0.1:${w.port}/`, 60_000, webReady);

    await shared.emulatorsReady();
    log('  ✓ Auth and Functions emulators ready');
    await serving('payments-sandbox');
    for (const h of c.hosts) await serving(h.name);
    await waitForHosts(u.databaseUrl, c.hosts.map((h) => h.hostId), 120_000);
    log('  ✓ host agents registered through HAProxy, each with a warm runtime');
    for (const w of c.webs) await serving(w.name);
    for (const r of [...c.apis, ...c.webs]) await proxyHas(r.name, 'UP');
    await waitUntilServing(procs.get('haproxy')!, `${u.web}/`, 30_000, webReady);
    log('  ✓ web replicas ready behind HAProxy');
  } catch (e) {
    await procs.stop();
    throw e;
  }

  const start = async (name: string) => {
    const spec = procs.spec(name);
    if (!spec) throw new Error(`no member named ${name}`);
    if (procs.get(name)) return;
    procs.forget(name);
    procs.start(spec);
    await serving(name);
    if (backend(name)) await proxyHas(name, 'UP');
  };

  return {
    config: c,
    urls: u,
    env,
    processGroups: procs.processGroups,
    members: () =>
      [...new Set([...c.apis, ...c.webs, ...c.hosts].map((m) => m.name).concat(['coturn', 'haproxy', 'payments-sandbox']))].map((name) => ({
        name,
        running: !!procs.get(name),
        pid: procs.get(name)?.child.pid,
      })),
    async kill(name, signal = 'SIGKILL') {
      const m = procs.get(name);
      if (!m) throw new Error(`${name} is not running`);
      procs.signal(name, signal);
      await m.exited;
    },
    start,
    async restart(name) {
      const b = backend(name);
      if (!b) throw new Error(`only api and web replicas restart behind HAProxy (not ${name})`);
      // Drain: no new requests or tunnels go there; HAProxy's check then sees it leave.
      for (const each of backends(name)) await haproxyCommand(c, `set server ${each}/${name} state drain`);
      await sleep(1_500);
      await procs.stopOne(name);
      for (const each of backends(name)) await haproxyCommand(c, `set server ${each}/${name} state ready`);
      await start(name);
    },
    proxyStates,
    stop: () => procs.stop(),
  };
}

/**
 * What the cluster suite (test/cluster/) needs to know of a running cluster, as environment
 * variables: HAProxy's api address, the control endpoint, the members, the database, the
 * emulator and the shared secrets (to check TURN credentials and ask the hosts).
 */
export function suiteEnv(cluster: Cluster, control: { url: string; token: string }): Record<string, string> {
  const { config: c, env, urls: u } = cluster;
  return {
    CLUSTER_API_URL: u.api,
    CLUSTER_WEB_URL: u.web,
    CLUSTER_CONTROL_URL: control.url,
    CLUSTER_CONTROL_TOKEN: control.token,
    CLUSTER_HOSTS: JSON.stringify(c.hosts.map((h, i) => ({ name: h.name, hostId: h.hostId, url: u.hosts[i] }))),
    CLUSTER_APIS: JSON.stringify(c.apis.map((a, i) => ({ name: a.name, url: u.apis[i] }))),
    DATABASE_URL: u.databaseUrl,
    FIREBASE_AUTH_EMULATOR_HOST: u.auth,
    FIREBASE_PROJECT_ID: c.stack.projectId,
    HOST_SHARED_SECRET: c.hostSharedSecret,
    TURN_SECRET: c.turn.secret,
    TURN_TTL_S: String(c.turn.ttlS),
    ...(env.CHROMIUM_PATH ? { CHROMIUM_PATH: env.CHROMIUM_PATH } : {}),
  };
}

/** Writes suiteEnv to <run dir>/suite.env (mode 600), for running the suite by hand against `npm run cluster`. */
export function writeSuiteEnv(cluster: Cluster, control: { url: string; token: string }): string {
  const file = path.join(cluster.config.stack.runDir, 'suite.env');
  const lines = Object.entries(suiteEnv(cluster, control)).map(([k, v]) => `${k}='${v.replace(/'/g, `'\\''`)}'`);
  fs.writeFileSync(file, `${lines.join('\n')}\n`, { mode: 0o600 });
  return file;
}
