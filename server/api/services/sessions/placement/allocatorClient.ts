/**
 * A client of the Agones allocator service's REST endpoint (`POST {AGONES_ALLOCATOR_URL}/
 * gameserverallocation`, the grpc-gateway JSON of Agones' proto/allocation/allocation.proto),
 * over mTLS when the client certificate, key and CA files are configured: one keep-alive agent
 * holds them (no TLS handshake per allocation), made again when a file's modification time changes
 * (rotated certificates are picked up at the next call). The request asks for a GameServer of the hosts' Fleet with
 * room in its `sessions` counter — an Allocated one first (packing onto hosts already in use), else
 * a Ready one — and increments that counter by one in the same atomic allocation (Agones'
 * high-density pattern). The answer is read as received: a GameServer name, address and the
 * agent's port make an allocation; UnAllocated (429 by default), Contention (409), 503 or a
 * network error are "no GameServer now".
 */
import { readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AgonesAllocatorConfig } from '../../sessionConfig';
import { SESSIONS_COUNTER } from '../../../../shared/host-contract';

/** The GameServer counter the hosts keep their sessions in (server/host/fleet/agones.ts). */
export { SESSIONS_COUNTER };

export type AllocatorAnswer =
  | { kind: 'allocated'; gameServerName: string; address: string; port: number; hostUrl: string }
  | { kind: 'none'; status: number; detail: string }
  | { kind: 'error'; status: number; detail: string };

/** The AllocationRequest body for one session (JSON names as the allocator's REST gateway reads them). */
export function allocationRequest(config: AgonesAllocatorConfig, sessionId: string): Record<string, unknown> {
  const selector = (gameServerState: 'ALLOCATED' | 'READY') => ({
    gameServerState,
    matchLabels: { 'agones.dev/fleet': config.fleet },
    counters: { [SESSIONS_COUNTER]: { minAvailable: 1 } },
  });
  return {
    namespace: config.namespace,
    gameServerSelectors: [selector('ALLOCATED'), selector('READY')],
    scheduling: 'Packed',
    // among the candidates, the fullest (least available capacity) first: pack
    priorities: [{ type: 'Counter', key: SESSIONS_COUNTER, order: 'Ascending' }],
    counters: { [SESSIONS_COUNTER]: { action: 'Increment', amount: 1 } },
    metadata: { annotations: { 'yumecast.dev/last-session': sessionId } },
  };
}

interface RawAnswer {
  status: number;
  text: string;
}

/** The mTLS agent, and what its files were when it was made (path and modification time of each). */
let tlsAgent: { agent: https.Agent; stamp: string } | null = null;

function fileStamp(config: AgonesAllocatorConfig): string {
  return [config.clientCertFile, config.clientKeyFile, config.caFile]
    .map((f) => {
      if (!f) return '-';
      try {
        return `${f}@${statSync(f).mtimeMs}`;
      } catch {
        return `${f}@missing`;
      }
    })
    .join('|');
}

/** The keep-alive agent for these certificate files (made again when one of them changed). */
function agentFor(config: AgonesAllocatorConfig): https.Agent {
  const stamp = fileStamp(config);
  if (tlsAgent?.stamp === stamp) return tlsAgent.agent;
  tlsAgent?.agent.destroy();
  const agent = new https.Agent({
    keepAlive: true,
    cert: config.clientCertFile ? readFileSync(config.clientCertFile) : undefined,
    key: config.clientKeyFile ? readFileSync(config.clientKeyFile) : undefined,
    ca: config.caFile ? readFileSync(config.caFile) : undefined,
  });
  tlsAgent = { agent, stamp };
  return agent;
}

function post(config: AgonesAllocatorConfig, body: string): Promise<RawAnswer> {
  const url = new URL('/gameserverallocation', config.url);
  const tls = url.protocol === 'https:';
  const options: https.RequestOptions = {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    timeout: config.timeoutMs,
    ...(tls ? { agent: agentFor(config) } : {}),
  };
  return new Promise((resolve, reject) => {
    const req = (tls ? https : http).request(url, options, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`the allocator did not answer within ${config.timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** The agent's URL from an allocation answer: the port named AGONES_HOST_PORT_NAME (else the only one). */
function hostUrlOf(config: AgonesAllocatorConfig, answer: Record<string, unknown>): { address: string; port: number; hostUrl: string } | null {
  const address = typeof answer.address === 'string' ? answer.address : '';
  const ports = Array.isArray(answer.ports) ? (answer.ports as { name?: unknown; port?: unknown }[]) : [];
  const named = ports.find((p) => p.name === config.portName) ?? (ports.length === 1 ? ports[0] : undefined);
  const port = Number(named?.port);
  if (!address || !Number.isInteger(port) || port <= 0 || port > 65535) return null;
  return { address, port, hostUrl: `http://${address.includes(':') ? `[${address}]` : address}:${port}` };
}

export async function allocate(config: AgonesAllocatorConfig, sessionId: string): Promise<AllocatorAnswer> {
  let raw: RawAnswer;
  try {
    raw = await post(config, JSON.stringify(allocationRequest(config, sessionId)));
  } catch (error) {
    return { kind: 'error', status: 0, detail: error instanceof Error ? error.message : String(error) };
  }
  let body: Record<string, unknown> = {};
  try {
    body = raw.text ? (JSON.parse(raw.text) as Record<string, unknown>) : {};
  } catch {
    // not JSON: judged by the status below
  }
  const detail = typeof body.message === 'string' ? body.message : raw.text.slice(0, 200);
  // UnAllocated answers 429 by default (the allocator's configurable unallocated status), Contention 409
  if (raw.status === 429 || raw.status === 409 || raw.status === 503) return { kind: 'none', status: raw.status, detail };
  if (raw.status !== 200) return { kind: 'error', status: raw.status, detail };
  const name = typeof body.gameServerName === 'string' ? body.gameServerName : '';
  const where = hostUrlOf(config, body);
  if (!name || !where) return { kind: 'error', status: raw.status, detail: `no GameServer name, address or port "${config.portName}" in the answer` };
  return { kind: 'allocated', gameServerName: name, ...where };
}
