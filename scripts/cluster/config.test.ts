/**
 * The cluster's layout and generated configs (scripts/cluster/): its ports clash with neither
 * `npm start`'s nor the test stack's, every member's port is distinct, the api replicas share
 * the secrets the api needs equal on each, HAProxy checks real routes and retries on another
 * replica, and coturn stays on loopback with the REST-API secret. The configs are checked by the
 * binaries themselves when haproxy is installed (`haproxy -c`).
 * @jest-environment node
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stackConfig } from '../stack/config';
import { sharedServicePorts } from '../stack/stack';
import { apiEnv, clusterConfig, clusterEnv, clusterPorts, hostEnv } from './config';
import { coturnConfig } from './coturn';
import { HAPROXY_BIN, haproxyConfig } from './haproxy';

/** An environment with only these variables (ProcessEnv's type wants NODE_ENV). */
const only = (vars: Record<string, string> = {}) => vars as NodeJS.ProcessEnv;

const portsOf = (mode: 'dev' | 'test') => {
  const c = stackConfig(mode, only());
  return [c.webPort, c.apiPort, c.pgPort, c.authPort, c.functionsPort, c.paymentsSandboxPort, c.hostPort, c.hostPagePort, ...[0, 1, 2, 3].map((i) => c.authPort + 400 + i)];
};

describe('cluster layout', () => {
  const c = clusterConfig(only());
  const mine = [...sharedServicePorts(c.stack).map(([p]) => p), ...clusterPorts(c).map(([p]) => p), ...[0, 1, 2, 3].map((i) => c.stack.authPort + 400 + i), c.turn.port + 1];

  it('has 2 api and 2 web replicas, 3 hosts with distinct ids, all on distinct ports', () => {
    expect(c.apis).toHaveLength(2);
    expect(c.webs).toHaveLength(2);
    expect(new Set(c.hosts.map((h) => h.hostId)).size).toBe(3);
    expect(new Set(mine).size).toBe(mine.length);
  });

  it("clashes with neither npm start's ports nor the test stack's", () => {
    for (const mode of ['dev', 'test'] as const) expect(mine.filter((p) => portsOf(mode).includes(p))).toEqual([]);
    // Relay ports below Linux's ephemeral range.
    expect(c.turn.maxPort).toBeLessThan(32768);
  });

  it("npm test's cluster clashes with none of them nor with npm run cluster, and keeps its own build, data and run folder", () => {
    const t = clusterConfig(only(), 'test');
    const theirs = [...sharedServicePorts(t.stack).map(([p]) => p), ...clusterPorts(t).map(([p]) => p), ...[0, 1, 2, 3].map((i) => t.stack.authPort + 400 + i), t.turn.port + 1];
    expect(new Set(theirs).size).toBe(theirs.length);
    for (const other of [mine, portsOf('dev'), portsOf('test')]) expect(theirs.filter((p) => other.includes(p))).toEqual([]);
    expect(t.turn.minPort).toBeGreaterThan(c.turn.maxPort);
    expect(t.turn.maxPort).toBeLessThan(32768);
    for (const k of ['distDir', 'pgDataDir', 'runDir'] as const) expect(t.stack[k]).not.toBe(c.stack[k]);
    expect(t.stack.pgDataDir).toMatch(/postgres-cluster-test$/);
  });

  it('takes ports and sizes from the environment', () => {
    const e = clusterConfig(only({ CLUSTER_API_PORT: '9000', CLUSTER_HOSTS: '2', CLUSTER_TURN_PORT: '4000', TURN_SECRET: 's3cret', TURN_TTL_S: '60' }));
    expect(e.stack.apiPort).toBe(9000);
    expect(e.apis.map((a) => a.port)).toEqual([9001, 9002]);
    expect(e.hosts).toHaveLength(2);
    expect(e.turn).toMatchObject({ port: 4000, secret: 's3cret', ttlS: 60 });
  });

  it('gives every replica the same secrets, HAProxy as the api address, and its own port', () => {
    const env = clusterEnv(c, only());
    const [a1, a2] = c.apis.map((a) => apiEnv(env, a));
    expect(a1.API_PORT).not.toBe(a2.API_PORT);
    for (const k of ['SIGNAL_SECRET', 'HOST_SHARED_SECRET', 'TURN_SECRET', 'INTERNAL_API_TOKEN']) expect(a1[k]).toBe(a2[k]);
    expect(env.TURN_SECRET).toBe(c.turn.secret);
    expect(env.TURN_URLS).toBe(`turn:127.0.0.1:${c.turn.port}?transport=udp,turn:127.0.0.1:${c.turn.port}?transport=tcp`);
    const h = hostEnv(c, env, c.hosts[1]);
    expect(h.API_URL).toBe(`http://127.0.0.1:${c.stack.apiPort}`);
    expect(env.NEXT_PUBLIC_API_URL).toBe(`http://127.0.0.1:${c.stack.apiPort}`);
    expect(h.HOST_ID).toBe('cluster-host-2');
    expect(h.HOST_WARM_POOL).toBe('1');
  });
});

describe('generated configs', () => {
  const c = clusterConfig(only({ TURN_SECRET: 'the-secret' }));

  it('HAProxy: checked replicas, retries elsewhere, no query strings in its log, loopback only', () => {
    const cfg = haproxyConfig(c);
    expect(cfg).toContain('option httpchk GET /readyz');
    expect(cfg).toContain('option redispatch');
    expect(cfg).toMatch(/retry-on conn-failure/);
    expect(cfg).toContain(`server api-1 127.0.0.1:${c.apis[0].port} check`);
    expect(cfg).toContain(`server web-2 127.0.0.1:${c.webs[1].port} check`);
    expect(cfg).not.toMatch(/%HU|%r\b|option httplog/);
    for (const bind of cfg.match(/^\s*bind .*$/gm) ?? []) expect(bind).toMatch(/bind 127\.0\.0\.1:\d+$/);
  });

  it('HAProxy accepts it', () => {
    if (!fs.existsSync(HAPROXY_BIN)) return;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'haproxy-cfg-'));
    const file = path.join(dir, 'haproxy.cfg');
    fs.writeFileSync(file, haproxyConfig({ ...c, stack: { ...c.stack, runDir: dir } }));
    const r = spawnSync(HAPROXY_BIN, ['-c', '-f', file], { encoding: 'utf8' });
    fs.rmSync(dir, { recursive: true, force: true });
    expect(r.stdout + r.stderr).toContain('Configuration file is valid');
  });

  it('coturn: loopback, REST-API secret, no CLI or TLS', () => {
    const cfg = coturnConfig(c).split('\n');
    for (const line of ['listening-ip=127.0.0.1', 'relay-ip=127.0.0.1', 'use-auth-secret', 'static-auth-secret=the-secret', 'allow-loopback-peers', 'no-cli', 'no-tls', 'no-dtls']) expect(cfg).toContain(line);
    expect(cfg).toContain(`min-port=${c.turn.minPort}`);
  });
});
