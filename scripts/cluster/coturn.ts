/**
 * coturn (Debian `coturn`) as the cluster's TURN server, on loopback only, its config written into
 * the run folder (.run/cluster/turnserver.conf, mode 600: it holds the secret) and run in the
 * foreground as one of the cluster's processes, never as the system service.
 * Credentials are coturn's REST-API scheme (`use-auth-secret`): the api hands out
 * username = "<expiry unix seconds>:<session id>", password = base64(HMAC-SHA1(secret, username)),
 * and coturn refuses them once the expiry has passed. Loopback peers are allowed (every host is
 * 127.0.0.1 here); no TLS/DTLS, no CLI, no RFC 5780 second port, relay ports in a small range.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ServiceSpec } from '../stack/stack';
import type { ClusterConfig } from './config';

export const TURNSERVER_BIN = process.env.TURNSERVER_BIN || '/usr/bin/turnserver';

export function coturnConfig(c: ClusterConfig): string {
  const dir = c.stack.runDir;
  return [
    '# Written by scripts/cluster/coturn.ts for this run; changes are overwritten at the next start.',
    'listening-ip=127.0.0.1',
    'relay-ip=127.0.0.1',
    `listening-port=${c.turn.port}`,
    `min-port=${c.turn.minPort}`,
    `max-port=${c.turn.maxPort}`,
    'no-rfc5780',
    'no-tls',
    'no-dtls',
    'no-cli',
    'fingerprint',
    'use-auth-secret',
    `static-auth-secret=${c.turn.secret}`,
    `realm=${c.turn.realm}`,
    'allow-loopback-peers',
    'no-multicast-peers',
    'no-software-attribute',
    `userdb=${path.join(dir, 'turndb')}`,
    `pidfile=${path.join(dir, 'turnserver.pid')}`,
    `log-file=${path.join(dir, 'logs', 'turnserver.log')}`,
    'simple-log',
    'new-log-timestamp',
    '',
  ].join('\n');
}

export function coturnService(c: ClusterConfig, env: NodeJS.ProcessEnv): ServiceSpec {
  fs.mkdirSync(path.join(c.stack.runDir, 'logs'), { recursive: true });
  const file = path.join(c.stack.runDir, 'turnserver.conf');
  fs.writeFileSync(file, coturnConfig(c), { mode: 0o600 });
  fs.chmodSync(file, 0o600);
  // -c: only our file (not /etc/turnserver.conf); -n would ignore every file.
  return { name: 'coturn', command: TURNSERVER_BIN, args: ['-c', file], env, stopGraceMs: 3_000 };
}
