/**
 * HAProxy (Debian `haproxy`) in front of the cluster's api and web replicas, its config written
 * from the cluster's layout into the run folder (.run/cluster/haproxy.cfg) and run in the
 * foreground as one of the cluster's processes, never as the system service.
 * - api frontend (the one api address web, hosts and players use): round robin over the
 *   replicas, a real HTTP check on GET /readyz every second (a replica whose database or
 *   migrations are not ready, or that is shutting down, is out), WebSocket upgrades for
 *   /v1/signal passed through (HTTP mode handles the upgrade; `timeout tunnel` keeps them),
 *   and a request whose replica died is retried on another one (`retries` + `option redispatch`
 *   + `retry-on conn-failure empty-response`), so a killed replica costs no request.
 * - web frontend: the same over the Next.js replicas, checked on a static page.
 * The log goes to stdout, which the process set writes to .run/cluster/logs/haproxy.log, with
 * request paths but no query strings (signal tokens travel in /v1/signal's query).
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { ServiceSpec } from '../stack/stack';
import type { ClusterConfig, Replica } from './config';

export const HAPROXY_BIN = process.env.HAPROXY_BIN || '/usr/sbin/haproxy';

/** The page HAProxy checks on each web replica: prerendered, so the check costs no rendering. */
export const WEB_CHECK_PATH = '/brand';
/** The api's readiness probe (server/api/routes/health.ts). */
export const API_CHECK_PATH = '/readyz';

function servers(replicas: Replica[]): string {
  return replicas.map((r) => `  server ${r.name} 127.0.0.1:${r.port} check`).join('\n');
}

export function haproxyConfig(c: ClusterConfig): string {
  const host = c.stack.host;
  return `# Written by scripts/cluster/haproxy.ts for this run; changes are overwritten at the next start.
global
  log stdout format raw local0 info
  maxconn 4096
  stats socket ${path.join(c.stack.runDir, 'haproxy.sock')} mode 600 level admin
  pidfile ${path.join(c.stack.runDir, 'haproxy.pid')}

defaults
  mode http
  log global
  # The httplog fields, with the path but never the query string: /v1/signal carries its token there.
  log-format "%ci:%cp [%tr] %ft %b/%s %TR/%Tw/%Tc/%Tr/%Ta %ST %B %tsc %ac/%fc/%bc/%sc/%rc %sq/%bq %HM %HPO"
  option dontlognull
  option forwardfor
  option http-server-close
  # A request whose replica is gone is sent again, to another replica (redispatch on each retry).
  retries 3
  option redispatch 1
  # a 503 (a replica closing) is sent again only for reads (each frontend disables it for writes)
  retry-on conn-failure empty-response 503
  timeout connect 1s
  timeout client 60s
  timeout server 60s
  # WebSocket tunnels (/v1/signal): open as long as the session needs them.
  timeout tunnel 1h
  timeout client-fin 5s
  timeout http-request 10s
  timeout queue 5s
  # Checked every second: a dead replica is out after two failed checks, back after two good ones.
  default-server inter 1s fall 2 rise 2 on-marked-down shutdown-sessions

frontend api
  bind ${host}:${c.stack.apiPort}
  http-request disable-l7-retry unless METH_GET || METH_HEAD
  # a host's reports go to one replica while it is up: its input-activity window then saves the
  # writes it is there for (docs/scale.md, "What was fixed")
  acl host_call path_beg /internal/
  use_backend api_by_host if host_call
  default_backend api_replicas

backend api_replicas
  balance roundrobin
  option httpchk GET ${API_CHECK_PATH}
  http-check expect status 200
${servers(c.apis)}

backend api_by_host
  balance hdr(x-host-id)
  hash-type consistent
  option httpchk GET ${API_CHECK_PATH}
  http-check expect status 200
${servers(c.apis)}

frontend web
  bind ${host}:${c.stack.webPort}
  http-request disable-l7-retry unless METH_GET || METH_HEAD
  default_backend web_replicas

backend web_replicas
  balance roundrobin
  option httpchk GET ${WEB_CHECK_PATH}
  http-check expect status 200
${servers(c.webs)}
`;
}

/** Writes the config and answers how to run HAProxy on it (foreground, master-less). */
export function haproxyService(c: ClusterConfig, env: NodeJS.ProcessEnv): ServiceSpec {
  fs.mkdirSync(c.stack.runDir, { recursive: true });
  const file = path.join(c.stack.runDir, 'haproxy.cfg');
  fs.writeFileSync(file, haproxyConfig(c));
  return { name: 'haproxy', command: HAPROXY_BIN, args: ['-db', '-f', file], env, stopGraceMs: 3_000 };
}

/** `show servers state`-like view over the admin socket: server name → UP/DOWN/MAINT. */
/** Sends one command to HAProxy's admin socket and answers what it printed. */
export function haproxyCommand(c: ClusterConfig, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    const sock = net.createConnection(path.join(c.stack.runDir, 'haproxy.sock'), () => sock.end(`${command}\n`));
    sock.on('data', (d) => (out += d.toString()));
    sock.on('end', () => resolve(out));
    sock.on('error', reject);
  });
}

export async function haproxyServerStates(c: ClusterConfig): Promise<Record<string, string>> {
  const text = await haproxyCommand(c, 'show stat');
  const states: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const f = line.split(',');
    // show stat CSV: pxname, svname, …, status is field 17 (index 17).
    // A replica serves in several backends (api_replicas, api_by_host), each checked on its own:
    // it is UP only when every one of them says so.
    if (f.length > 18 && f[1] !== 'FRONTEND' && f[1] !== 'BACKEND' && !line.startsWith('#')) {
      if (!states[f[1]] || !f[17].startsWith('UP')) states[f[1]] = f[17];
    }
  }
  return states;
}
