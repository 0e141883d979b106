/**
 * The multi-node stack's layout (`npm run cluster`, docs/cluster.md): the stack's own config in
 * its `cluster` mode (PostgreSQL, emulators, sandbox; its web and api ports are HAProxy's
 * frontends), plus the replicas behind HAProxy, the host agents and coturn. Every port comes from
 * the environment (CLUSTER_*) with a default in the cluster's own range, clear of `npm start`
 * (3000, 8080-8091, 8300, 54329, 9099, 5001) and the test stack (3100, 8180-8191, 8380, 54339,
 * 9199, 5101); everything listens on 127.0.0.1. Secrets are made per start unless set.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { stackConfig, stackEnv, stackSecrets, urls, type StackConfig } from '../stack/config';

export interface Replica {
  /** Process name (log file .run/cluster/logs/<name>.log, HAProxy server name). */
  name: string;
  port: number;
}

export interface HostMember extends Replica {
  hostId: string;
  pagePort: number;
}

export interface ClusterConfig {
  stack: StackConfig;
  /** API replicas behind HAProxy's api frontend (stack.apiPort). */
  apis: Replica[];
  /** Web replicas behind HAProxy's web frontend (stack.webPort). */
  webs: Replica[];
  hosts: HostMember[];
  /** Runtimes each host may hold (sessions + warm) and keeps warm. */
  hostCapacity: number;
  hostWarm: number;
  turn: {
    /** coturn's listening port (UDP and TCP) on 127.0.0.1. */
    port: number;
    /** Relay ports (below Linux's ephemeral range, so nothing else takes them by chance). */
    minPort: number;
    maxPort: number;
    /** coturn's static-auth-secret; the api signs credentials with the same (TURN_SECRET). */
    secret: string;
    /** Lifetime of the credentials the api issues (TURN_TTL_S). */
    ttlS: number;
    realm: string;
  };
  /** The control endpoint of a running cluster (kill/start a member); 0 = any free port. */
  controlPort: number;
  /** Shared by every api replica: signal tokens and the host secret must be the same on each. */
  signalSecret: string;
  hostSharedSecret: string;
}

const num = (v: string | undefined, d: number) => (v && /^\d+$/.test(v) ? Number(v) : d);
const random = (bytes = 24) => randomBytes(bytes).toString('base64url');

/**
 * `npm test`'s cluster phase runs a cluster of its own: every port CLUSTER_TEST_OFFSET (40) above
 * the developer's `npm run cluster` (TURN relays the next 50 ports), its own build, database and
 * run folder, so a test run neither collides with nor wipes a cluster someone is using.
 */
export type ClusterVariant = 'dev' | 'test';

const TEST_SUFFIX = '-test';

/** The test variant's layout: every port of the dev layout (each `…Port`) moved by `off`, into folders of its own. */
function testStack(stack: StackConfig, off: number): StackConfig {
  const ports = Object.fromEntries(Object.entries(stack).filter(([k, v]) => k.endsWith('Port') && typeof v === 'number').map(([k, v]) => [k, (v as number) + off]));
  return {
    ...stack,
    ...ports,
    distDir: `${stack.distDir}${TEST_SUFFIX}`,
    pgDataDir: `${stack.pgDataDir}${TEST_SUFFIX}`,
    runDir: `${stack.runDir}${TEST_SUFFIX}`,
  };
}

/** Ports and sizes from the environment (CLUSTER_*), defaults in the cluster's own range. */
export function clusterConfig(env = process.env, variant: ClusterVariant = 'dev'): ClusterConfig {
  const off = variant === 'test' ? num(env.CLUSTER_TEST_OFFSET, 40) : 0;
  const devStack = stackConfig('cluster', env);
  const stack = off ? testStack(devStack, off) : devStack;
  const apiBase = num(env.CLUSTER_API_REPLICA_PORT, devStack.apiPort + 1) + off;
  const webBase = num(env.CLUSTER_WEB_REPLICA_PORT, devStack.webPort + 1) + off;
  const count = (name: string, d: number) => Math.max(1, Math.min(9, num(env[name], d)));
  return {
    stack,
    apis: Array.from({ length: count('CLUSTER_API_REPLICAS', 2) }, (_, i) => ({ name: `api-${i + 1}`, port: apiBase + i })),
    webs: Array.from({ length: count('CLUSTER_WEB_REPLICAS', 2) }, (_, i) => ({ name: `web-${i + 1}`, port: webBase + i })),
    // Each host takes two ports: its agent and its pages' static origin.
    hosts: Array.from({ length: count('CLUSTER_HOSTS', 3) }, (_, i) => ({
      name: `host-${i + 1}`,
      hostId: `cluster-host-${i + 1}`,
      port: stack.hostPort + 2 * i,
      pagePort: stack.hostPagePort + 2 * i,
    })),
    hostCapacity: count('CLUSTER_HOST_CAPACITY', 2),
    hostWarm: Math.min(num(env.CLUSTER_HOST_WARM_POOL, 1), 4),
    turn: {
      port: num(env.CLUSTER_TURN_PORT, 3490) + off,
      // the test variant's relays: the 50 ports after the dev cluster's
      minPort: num(env.CLUSTER_TURN_MIN_PORT, 31000) + (off ? 50 : 0),
      maxPort: num(env.CLUSTER_TURN_MAX_PORT, 31049) + (off ? 50 : 0),
      secret: env.TURN_SECRET?.trim() || random(),
      ttlS: num(env.TURN_TTL_S, 3600),
      realm: env.CLUSTER_TURN_REALM || 'yumecast.local',
    },
    controlPort: num(env.CLUSTER_CONTROL_PORT, 8299) + off,
    signalSecret: env.SIGNAL_SECRET?.trim() || random(),
    hostSharedSecret: env.HOST_SHARED_SECRET?.trim() || random(),
  };
}

/** Every port the cluster binds, with who wants it (checked free before anything starts). */
export function clusterPorts(c: ClusterConfig): [number, string][] {
  return [
    [c.stack.apiPort, "HAProxy's api frontend"],
    [c.stack.webPort, "HAProxy's web frontend"],
    ...c.apis.map((a): [number, string] => [a.port, a.name]),
    ...c.webs.map((w): [number, string] => [w.port, w.name]),
    ...c.hosts.flatMap((h): [number, string][] => [
      [h.port, h.name],
      [h.pagePort, `${h.name}'s page server`],
    ]),
    [c.turn.port, 'coturn'],
    [c.controlPort, 'the control endpoint'],
  ];
}

/** TURN URLs the api hands out: UDP and TCP on coturn's loopback port. */
export function turnUrls(c: ClusterConfig): string[] {
  return [`turn:127.0.0.1:${c.turn.port}?transport=udp`, `turn:127.0.0.1:${c.turn.port}?transport=tcp`];
}

/**
 * The environment every member sees: the stack's (whose API_URL, API_PUBLIC_URL and
 * NEXT_PUBLIC_API_URL are HAProxy's api frontend, so hosts, web and players reach the api only
 * through it), the shared secrets, the TURN settings and the proxy the api trusts.
 */
export function clusterEnv(c: ClusterConfig, base = process.env): NodeJS.ProcessEnv {
  return {
    ...stackEnv(c.stack, base, stackSecrets(base)),
    SIGNAL_SECRET: c.signalSecret,
    HOST_SHARED_SECRET: c.hostSharedSecret,
    TURN_URLS: turnUrls(c).join(','),
    TURN_SECRET: c.turn.secret,
    TURN_TTL_S: String(c.turn.ttlS),
    // HAProxy adds X-Forwarded-For: the api's per-address limits and logs see the real client.
    API_TRUST_PROXY: '127.0.0.1',
    SCREENSHOT_DIR: path.join(c.stack.runDir, 'screenshots'),
  };
}

/** One api replica's environment: its own port, the shared everything else. */
export function apiEnv(env: NodeJS.ProcessEnv, a: Replica): NodeJS.ProcessEnv {
  return { ...env, API_PORT: String(a.port) };
}

/** One host agent's: its id, ports and profile folder; the api (through HAProxy) for everything. */
export function hostEnv(c: ClusterConfig, env: NodeJS.ProcessEnv, h: HostMember): NodeJS.ProcessEnv {
  return {
    ...env,
    HOST_ID: h.hostId,
    HOST_AGENT_PORT: String(h.port),
    HOST_PAGE_PORT: String(h.pagePort),
    HOST_CAPACITY: String(c.hostCapacity),
    HOST_WARM_POOL: String(c.hostWarm),
    HOST_TMP_DIR: path.join(c.stack.runDir, 'host-tmp', h.name),
  };
}

export function clusterUrls(c: ClusterConfig) {
  const u = urls(c.stack);
  return {
    ...u,
    apis: c.apis.map((a) => `http://127.0.0.1:${a.port}`),
    webs: c.webs.map((w) => `http://127.0.0.1:${w.port}`),
    hosts: c.hosts.map((h) => `http://127.0.0.1:${h.port}`),
    turn: turnUrls(c),
  };
}
