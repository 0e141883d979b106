/**
 * @jest-environment node
 */
/**
 * The Kubernetes deployment (deploy/, docs/deploy.md) checked against the code, so a renamed
 * variable, a moved port or a dropped route breaks this test and not production. Every overlay is
 * rendered with `kubectl kustomize` (in a copy of deploy/ whose secrets.env is its
 * secrets.example.env), then:
 * - each of our containers' environment, as the pod would get it (ConfigMaps, Secret, field refs,
 *   $(VAR) expansion), is fed to the program's own config loader through a proxy that records
 *   every name the loader reads: a name set on the pod that no loader read fails, and so does a
 *   value the loader refuses (production checks included);
 * - listen addresses, container ports, probe ports, Services and the hosts' API_URL agree with the
 *   ports the loaders return; probe paths are routes the real health plugins register;
 * - the Fleet's `sessions` counter, HOST_CAPACITY, the SDK health period and the FleetAutoscaler
 *   agree; coturn gets the shared secret and every $(VAR) its arguments use.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { parseAllDocuments } from 'yaml';
import { loadConfig } from '../../server/api/config';
import apiHealthRoutes from '../../server/api/routes/health';
import { defaultContentDir } from '../../server/api/services/catalogue/seed';
import { SESSIONS_COUNTER as API_COUNTER } from '../../server/api/services/sessions/placement/allocatorClient';
import { loadHostConfig } from '../../server/host/config';
import { SESSIONS_COUNTER as HOST_COUNTER } from '../../server/host/fleet/agones';
import hostHealthRoutes from '../../server/host/routes/health';
import type { HostRouteDeps } from '../../server/host/routes/deps';
import { createProcessor } from '../../server/payments';
import { catalogBaseUrl } from '../../lib/api/catalog';
import { ApiErrorSchema } from '../../lib/api-types/schemas/common';
import { cspSources } from '../../lib/security/csp';
import { permissionsPolicy } from '../../lib/security/permissions';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Env = Record<string, string>;

const ROOT = path.resolve(__dirname, '../..');
const OVERLAYS = fs.readdirSync(path.join(ROOT, 'deploy/overlays')).filter((d) => fs.existsSync(path.join(ROOT, 'deploy/overlays', d, 'kustomization.yaml')));
/** What the downward API would give (fieldRef), for the loaders to parse. */
const FIELDS: Record<string, string> = { 'metadata.name': 'yumecast-host-x7k2p-qz4dn', 'status.podIP': '10.8.0.7', 'status.hostIP': '192.0.2.10' };
/** Read by Node, Next.js and React themselves in every process. */
const PLATFORM = new Set(['NODE_ENV']);

/** Renders one overlay in a copy of deploy/ that holds the example secrets. */
function render(overlay: string): Obj[] {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'yumecast-deploy-'));
  try {
    // a real secrets.env (gitignored) is never copied: the example's values stand in for it
    fs.cpSync(path.join(ROOT, 'deploy'), tmp, { recursive: true, filter: (src) => path.basename(src) !== 'secrets.env' });
    const dir = path.join(tmp, 'overlays', overlay);
    fs.copyFileSync(path.join(dir, 'secrets.example.env'), path.join(dir, 'secrets.env'));
    const run = spawnSync('kubectl', ['kustomize', dir], { encoding: 'utf8' });
    if (run.error) throw new Error(`kubectl is needed to render deploy/ (kubectl kustomize): ${run.error.message}`);
    if (run.status !== 0) throw new Error(`kubectl kustomize deploy/overlays/${overlay} failed:\n${run.stderr}`);
    return parseAllDocuments(run.stdout).map((doc) => doc.toJS() as Obj).filter(Boolean);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/** Calls `fn` with `env` behind a proxy and returns what it returned and every name it read. */
function traced<T>(env: Env, fn: (env: Env) => T): { value: T; read: Set<string> } {
  const read = new Set<string>();
  const proxy = new Proxy(env, {
    get: (target, key) => (typeof key === 'string' && read.add(key), Reflect.get(target, key)),
    has: (target, key) => (typeof key === 'string' && read.add(key), Reflect.has(target, key)),
  });
  return { value: fn(proxy), read };
}

/** The same for code that reads process.env itself. */
function tracedProcessEnv(env: Env, fn: () => void): Set<string> {
  const saved = process.env;
  const { read } = traced(env, (proxy) => {
    process.env = proxy as NodeJS.ProcessEnv;
    try {
      fn();
    } finally {
      process.env = saved;
    }
  });
  return read;
}

class Manifest {
  constructor(readonly objects: Obj[]) {}
  find(kind: string, name: string): Obj {
    const found = this.objects.find((o) => o.kind === kind && o.metadata.name === name);
    if (!found) throw new Error(`no ${kind} ${name} in the rendered overlay`);
    return found;
  }
  all(kind: string): Obj[] {
    return this.objects.filter((o) => o.kind === kind);
  }
  /** The ConfigMap or Secret data under a (hash-suffixed) name. */
  data(kind: 'ConfigMap' | 'Secret', name: string): Env {
    const o = this.find(kind, name);
    if (kind === 'ConfigMap') return { ...(o.data ?? {}) };
    return Object.fromEntries(Object.entries<string>(o.data ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')]));
  }
  /** The environment a container gets, and the names set on it (helpers only expanded into others apart). */
  env(container: Obj): { env: Env; names: string[]; helpers: string[] } {
    const env: Env = {};
    for (const from of container.envFrom ?? []) {
      if (from.configMapRef) Object.assign(env, this.data('ConfigMap', from.configMapRef.name));
      if (from.secretRef) Object.assign(env, this.data('Secret', from.secretRef.name));
    }
    const expand = (v: string) => v.replace(/\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g, (m, name: string) => env[name] ?? m);
    for (const e of container.env ?? []) {
      const ref = e.valueFrom;
      if (e.value !== undefined) env[e.name] = expand(String(e.value));
      else if (ref?.fieldRef) env[e.name] = FIELDS[ref.fieldRef.fieldPath] ?? fail(`no test value for fieldRef ${ref.fieldRef.fieldPath}`);
      else if (ref?.secretKeyRef || ref?.configMapKeyRef) {
        const { name, key, optional } = ref.secretKeyRef ?? ref.configMapKeyRef;
        const data = this.data(ref.secretKeyRef ? 'Secret' : 'ConfigMap', name);
        if (data[key] === undefined && !optional) throw new Error(`${container.name}: ${e.name} names key ${key}, missing from ${name}`);
        if (data[key] !== undefined && data[key] !== '') env[e.name] = data[key];
      }
    }
    const names = Object.keys(env).concat((container.env ?? []).map((e: Obj) => e.name as string));
    const values = (container.env ?? []).map((e: Obj) => String(e.value ?? '')).join(' ');
    const helpers = [...new Set(names)].filter((n) => values.includes(`$(${n})`));
    return { env, names: [...new Set(names)], helpers };
  }
}

function fail(message: string): never {
  throw new Error(message);
}

/** Names set on a container that the program never read. */
function unread(names: string[], helpers: string[], read: Set<string>): string[] {
  return names.filter((n) => !read.has(n) && !PLATFORM.has(n) && !helpers.includes(n));
}

/** A probe's or Service's port, a number or the name of one of the container's ports. */
function portOf(container: Obj, port: number | string): number {
  if (typeof port === 'number') return port;
  const named = (container.ports ?? []).find((p: Obj) => p.name === port);
  return named ? named.containerPort : fail(`${container.name}: no port named ${port}`);
}

const probes = (c: Obj): Obj[] => ['startupProbe', 'livenessProbe', 'readinessProbe'].map((k) => c[k]).filter(Boolean);

async function healthApp(kind: 'api' | 'host') {
  const app = Fastify();
  // the error envelope the routes' schemas point at (the errors plugins register it the same way)
  app.addSchema(ApiErrorSchema);
  if (kind === 'api') {
    app.decorate('db', {} as never);
    await app.register(apiHealthRoutes);
  } else {
    const deps = {
      config: { hostId: 'h', capacity: 1 },
      pool: { stats: () => ({ launchFailures: 0, warm: 1, busy: 0, launching: 0 }), on: () => undefined },
      sessions: { activeCount: 0 },
      agentState: () => 'running',
      registry: () => null,
    } as unknown as HostRouteDeps;
    await app.register(hostHealthRoutes, deps);
  }
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as { port: number };
  /** GETs a path from the plugin over HTTP, as the kubelet does. */
  const get = async (url: string) => (await fetch(`http://127.0.0.1:${port}${url}`)).status;
  return { app, get };
}

describe.each(OVERLAYS)('deploy/overlays/%s', (overlay) => {
  const m = new Manifest(render(overlay));
  const apiDeploy = m.find('Deployment', 'yumecast-api');
  const webDeploy = m.find('Deployment', 'yumecast-web');
  const fleet = m.find('Fleet', 'yumecast-host');
  const api = apiDeploy.spec.template.spec.containers[0];
  const web = webDeploy.spec.template.spec.containers[0];
  const host = fleet.spec.template.spec.template.spec.containers.find((c: Obj) => c.name === fleet.spec.template.spec.container);
  const apiEnv = m.env(api);
  const apiRun = traced(apiEnv.env, (env) => {
    const config = loadConfig(env);
    createProcessor(config.payments.processorEnv);
    defaultContentDir(env);
    return config;
  });
  const apiConfig = apiRun.value;

  /** Where a URL inside the cluster lands: its Service, and the container port behind it. */
  function serviceTarget(url: string): { service: Obj; port: number } {
    const u = new URL(url);
    const service = m.find('Service', u.hostname);
    const sp = service.spec.ports.find((p: Obj) => p.port === Number(u.port)) ?? fail(`Service ${u.hostname} has no port ${u.port}`);
    const deploy = m.all('Deployment').find((d) => Object.entries<string>(service.spec.selector).every(([k, v]) => d.spec.template.metadata.labels[k] === v));
    if (!deploy) throw new Error(`Service ${u.hostname} selects no Deployment`);
    return { service, port: portOf(deploy.spec.template.spec.containers[0], sp.targetPort) };
  }

  it('the api reads every variable it is given, accepts them all, and listens where its probes and Service look', async () => {
    expect(unread(apiEnv.names, apiEnv.helpers, apiRun.read)).toEqual([]);
    expect(apiConfig.host).toBe('0.0.0.0');
    expect(portOf(api, 'http')).toBe(apiConfig.port);
    expect(serviceTarget(`http://yumecast-api:${apiConfig.port}`).port).toBe(apiConfig.port);
    const { app, get } = await healthApp('api');
    for (const p of probes(api)) {
      expect(portOf(api, p.httpGet.port)).toBe(apiConfig.port);
      expect(app.hasRoute({ method: 'GET', url: p.httpGet.path })).toBe(true);
    }
    // liveness depends on nothing outside the process (no database here)
    expect(await get(api.livenessProbe.httpGet.path)).toBe(200);
    expect(api.readinessProbe.httpGet.path).not.toBe(api.livenessProbe.httpGet.path);
    await app.close();
  });

  it("the api asks Agones' allocator for this Fleet, its namespace and the agent's port, over mTLS files it mounts", () => {
    const allocator = apiConfig.sessions.agonesAllocator ?? fail('AGONES_ALLOCATOR_URL is not set on the api');
    expect(allocator.namespace).toBe(fleet.metadata.namespace);
    expect(allocator.fleet).toBe(fleet.metadata.name);
    const port = fleet.spec.template.spec.ports.find((p: Obj) => p.name === allocator.portName);
    expect(port?.containerPort).toBe(loadHostConfig(m.env(host).env).port);
    for (const file of [allocator.clientCertFile, allocator.clientKeyFile, allocator.caFile]) {
      const mount = api.volumeMounts.find((v: Obj) => file?.startsWith(`${v.mountPath}/`)) ?? fail(`${file} is on no volume`);
      const volume = apiDeploy.spec.template.spec.volumes.find((v: Obj) => v.name === mount.name);
      const items = (volume.projected?.sources ?? [volume]).flatMap((src: Obj) => src.secret?.items ?? []);
      expect(items.map((i: Obj) => `${mount.mountPath}/${i.path}`)).toContain(file);
    }
  });

  it('the api keeps screenshots on a volume every replica shares', () => {
    const mount = api.volumeMounts.find((v: Obj) => apiConfig.sessions.screenshotDir.startsWith(v.mountPath));
    expect(mount).toBeDefined();
    const volume = apiDeploy.spec.template.spec.volumes.find((v: Obj) => v.name === mount.name);
    expect(m.find('PersistentVolumeClaim', volume.persistentVolumeClaim.claimName).spec.accessModes).toContain('ReadWriteMany');
  });

  it('the web gets only run-time variables it reads, listens on PORT, and probes a static page', () => {
    const { env, names, helpers } = m.env(web);
    const read = new Set([
      ...traced(env, (e) => (cspSources(e), permissionsPolicy(e))).read,
      ...tracedProcessEnv(env, () => catalogBaseUrl()),
    ]);
    // `next start` takes its port from PORT (commander's .env('PORT') in next's CLI)
    const nextCli = fs.readFileSync(path.join(ROOT, 'node_modules/next/dist/bin/next'), 'utf8');
    if (/program\.command\('start'\)[^;]*\.env\('PORT'\)/.test(nextCli)) read.add('PORT');
    expect(unread(names, helpers, read)).toEqual([]);
    // NEXT_PUBLIC_* are written into the build; at run time they would change nothing
    expect(names.filter((n) => n.startsWith('NEXT_PUBLIC_'))).toEqual([]);
    expect(portOf(web, 'http')).toBe(Number(env.PORT));
    expect(serviceTarget(`http://yumecast-web:${env.PORT}`).port).toBe(Number(env.PORT));
    expect(serviceTarget(env.API_URL).port).toBe(apiConfig.port);
    for (const p of probes(web)) {
      expect(portOf(web, p.httpGet.port)).toBe(Number(env.PORT));
      const page = ['.tsx', '/index.tsx'].map((ext) => path.join(ROOT, 'pages', p.httpGet.path + ext)).find((f) => fs.existsSync(f));
      expect(page).toBeDefined();
      expect(fs.readFileSync(page!, 'utf8')).not.toMatch(/getServerSideProps|getStaticProps|getInitialProps/);
    }
  });

  it('the game hosts read every variable they are given and listen where Agones, the probes and the api look', async () => {
    const { env, names, helpers } = m.env(host);
    const run = traced(env, (e) => loadHostConfig(e));
    const config = run.value;
    expect(unread(names, helpers, run.read)).toEqual([]);
    expect(config.host).toBe('0.0.0.0');
    expect(config.fleet).toBe('agones');
    expect(config.hostId).toBe(FIELDS['metadata.name']);
    expect(fleet.spec.template.spec.ports.map((p: Obj) => p.containerPort)).toContain(config.port);
    expect(new URL(config.publicUrl!).port).toBe(String(config.port));
    expect(new URL(config.publicUrl!).hostname).toBe(FIELDS['status.podIP']);
    expect(config.sharedSecret).toBe(m.env(api).env.HOST_SHARED_SECRET);
    expect(serviceTarget(config.apiUrl).port).toBe(apiConfig.port);
    // the api's tokens name <API_PUBLIC_URL as ws>/v1/signal: the pages must open it themselves
    expect(config.signalUrls).toContain(`${apiConfig.sessions.apiPublicUrl!.replace(/^http/, 'ws')}/v1/signal`);
    const { app, get } = await healthApp('host');
    for (const p of probes(host)) {
      expect(portOf(host, p.httpGet.port)).toBe(config.port);
      expect(app.hasRoute({ method: 'GET', url: p.httpGet.path })).toBe(true);
    }
    expect(await get(host.livenessProbe.httpGet.path)).toBe(200);
    await app.close();
    expect(fleet.spec.template.spec.template.spec.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(15);
  });

  it("the Fleet's sessions counter, the agent's capacity and health, and the FleetAutoscaler agree", () => {
    const config = loadHostConfig(m.env(host).env);
    const counters = fleet.spec.template.spec.counters;
    // the counter the agent keeps and the api's allocations increment
    expect(HOST_COUNTER).toBe(API_COUNTER);
    expect(counters[HOST_COUNTER].capacity).toBe(config.capacity);
    const health = fleet.spec.template.spec.health;
    expect(health.disabled ?? false).toBe(false);
    // at least two Health() calls in every period Agones checks
    expect(health.periodSeconds * 1000).toBeGreaterThanOrEqual(2 * config.agones.healthMs);
    const scalers = m.all('FleetAutoscaler');
    expect(scalers).toHaveLength(1);
    const { fleetName, policy } = scalers[0].spec;
    expect(fleetName).toBe(fleet.metadata.name);
    expect(policy.type).toBe('Counter');
    const { key, bufferSize, minCapacity, maxCapacity } = policy.counter;
    expect(key).toBe(HOST_COUNTER);
    expect(bufferSize).toBeGreaterThan(0);
    expect(minCapacity).toBeGreaterThan(bufferSize);
    expect(maxCapacity).toBeGreaterThan(minCapacity);
    expect(minCapacity % counters[key].capacity).toBe(0);
  });

  it('coturn authenticates with the Secret, and every $(VAR) of its arguments is set', () => {
    const ds = m.find('DaemonSet', 'yumecast-coturn');
    const turn = ds.spec.template.spec.containers[0];
    expect(ds.spec.template.spec.hostNetwork).toBe(true);
    const { env } = m.env(turn);
    const refs = turn.args.join(' ').match(/\$\(([A-Z_][A-Z0-9_]*)\)/g) ?? [];
    for (const ref of refs) expect(env).toHaveProperty(ref.slice(2, -1));
    expect(turn.args).toContain('--static-auth-secret=$(TURN_SECRET)');
    expect(env.TURN_SECRET).toBeTruthy();
    const configVolume = ds.spec.template.spec.volumes.find((v: Obj) => v.configMap);
    const conf = m.find('ConfigMap', configVolume.configMap.name).data['turnserver.conf'];
    expect(conf).toMatch(/^use-auth-secret$/m);
    expect(conf).not.toMatch(/^static-auth-secret/m);
    // the api signs the sessions' TURN credentials with coturn's secret, for coturn's port
    const turnConfig = apiConfig.sessions.turn ?? fail('TURN_URLS is not set on the api');
    expect(turnConfig.secret).toBe(env.TURN_SECRET);
    const port = Number(/^listening-port=(\d+)$/m.exec(conf)?.[1]);
    for (const url of turnConfig.urls) expect(Number(/:(\d+)(\?|$)/.exec(url)?.[1])).toBe(port);
    expect(turn.ports.map((p: Obj) => p.containerPort)).toContain(port);
  });

  it('every Secret key is used, every workload has probes and resources, HPAs and PDBs find their pods', () => {
    const secret = m.all('Secret')[0];
    const used = new Set<string>();
    const containers = [api, web, host, m.find('DaemonSet', 'yumecast-coturn').spec.template.spec.containers[0]];
    for (const c of containers) for (const e of c.env ?? []) if (e.valueFrom?.secretKeyRef) used.add(e.valueFrom.secretKeyRef.key);
    expect(Object.keys(secret.data).filter((k) => !used.has(k))).toEqual([]);
    for (const c of containers) {
      expect(c.livenessProbe).toBeDefined();
      expect(c.readinessProbe).toBeDefined();
      expect(c.resources.requests).toBeDefined();
      expect(c.resources.limits.memory).toBeDefined();
    }
    for (const d of [apiDeploy, webDeploy]) {
      const hpa = m.find('HorizontalPodAutoscaler', d.metadata.name);
      expect(hpa.spec.scaleTargetRef).toMatchObject({ kind: 'Deployment', name: d.metadata.name });
      expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(2);
      const pdb = m.find('PodDisruptionBudget', d.metadata.name);
      for (const [k, v] of Object.entries(pdb.spec.selector.matchLabels)) expect(d.spec.template.metadata.labels[k]).toBe(v);
    }
  });
});
