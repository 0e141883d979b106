/**
 * Cheap receiving peers (cheap-peer.ts) in a Node process of their own, so a bench can measure
 * their CPU and memory apart from the host's and its own: `startCheapPeers()` forks this file
 * (node --import tsx) and drives it over IPC; run as that child, this file serves the requests.
 *
 *   const peers = await startCheapPeers();
 *   const p = await peers.join(signalUrl, token);   // resolves at the first whole video frame
 *   await peers.keysEvery(p, ['Enter', '1'], 250);  // reading on, as the player would
 *   const s = await peers.stats(p);                 // frames, packets, bytes, codec, …
 *   await peers.close();                            // leaves every peer, ends the process
 */
import { fork, type ChildProcess } from 'node:child_process';
import type { PlayerMessage } from '../../../lib/streaming/messages';
import type { CheapPeerStats } from './cheap-peer';

type Request =
  | { op: 'join'; signalUrl: string; token: string; timeoutMs: number }
  | { op: 'key'; peer: number; key: string }
  | { op: 'keysEvery'; peer: number; keys: string[]; everyMs: number; releaseMs?: number }
  | { op: 'send'; peer: number; msg: PlayerMessage }
  | { op: 'stats'; peer: number }
  | { op: 'leave'; peer: number }
  | { op: 'exit' };

interface Reply {
  id: number;
  ok: boolean;
  result?: unknown;
  error?: string;
}

export interface CheapPeers {
  /** The child's pid (its CPU and memory are the peers'). */
  pid: number;
  /** Joins a session; resolves with the peer's number once its first video frame arrived. */
  join(signalUrl: string, token: string, timeoutMs?: number): Promise<number>;
  key(peer: number, key: string): Promise<boolean>;
  /** Presses `keys` every `everyMs` ms (0 stops); `releaseMs`: each let go that long after (0: at once). */
  keysEvery(peer: number, keys: string[], everyMs: number, releaseMs?: number): Promise<void>;
  /** Sends one player message on the data channel (e.g. a quality level); false before it is open. */
  send(peer: number, msg: PlayerMessage): Promise<boolean>;
  stats(peer: number): Promise<CheapPeerStats>;
  leave(peer: number): Promise<void>;
  /** Leaves every peer and ends the child (SIGKILL if it does not exit within 5 s). Idempotent. */
  close(): Promise<void>;
}

export async function startCheapPeers(): Promise<CheapPeers> {
  const child: ChildProcess = fork(__filename, ['--cheap-peer-child'], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  let next = 0;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.on('message', (m: Reply) => {
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if (m.ok) p.resolve(m.result);
    else p.reject(new Error(m.error ?? 'cheap peer failed'));
  });
  void exited.then(() => {
    for (const p of pending.values()) p.reject(new Error('cheap peer process exited'));
    pending.clear();
  });
  const call = <T>(req: Request): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const id = ++next;
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      child.send({ id, ...req });
    });
  let closed: Promise<void> | null = null;
  return {
    pid: child.pid!,
    join: (signalUrl, token, timeoutMs = 30_000) => call<number>({ op: 'join', signalUrl, token, timeoutMs }),
    key: (peer, key) => call<boolean>({ op: 'key', peer, key }),
    keysEvery: (peer, keys, everyMs, releaseMs = 0) => call<void>({ op: 'keysEvery', peer, keys, everyMs, releaseMs }),
    send: (peer, msg) => call<boolean>({ op: 'send', peer, msg }),
    stats: (peer) => call<CheapPeerStats>({ op: 'stats', peer }),
    leave: (peer) => call<void>({ op: 'leave', peer }),
    close() {
      closed ??= (async () => {
        if (child.exitCode === null && child.signalCode === null) {
          await Promise.race([call({ op: 'exit' }).catch(() => undefined), new Promise((r) => setTimeout(r, 5000))]);
          let t: NodeJS.Timeout | undefined;
          await Promise.race([exited, new Promise((r) => (t = setTimeout(r, 5000)))]);
          clearTimeout(t);
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
        }
        await exited;
      })();
      return closed;
    },
  };
}

/** The child: serves requests until `exit` or until its parent goes. */
async function serve(): Promise<void> {
  const { CheapPeer } = await import('./cheap-peer');
  const peers = new Map<number, InstanceType<typeof CheapPeer>>();
  let n = 0;
  const get = (i: number) => {
    const p = peers.get(i);
    if (!p) throw new Error(`no cheap peer ${i}`);
    return p;
  };
  const handle = async (req: Request): Promise<unknown> => {
    switch (req.op) {
      case 'join': {
        const peer = new CheapPeer();
        const i = ++n;
        peers.set(i, peer);
        await peer.join(req.signalUrl, req.token, req.timeoutMs);
        return i;
      }
      case 'key':
        return get(req.peer).key(req.key);
      case 'keysEvery':
        return get(req.peer).keysEvery(req.keys, req.everyMs, req.releaseMs ?? 0);
      case 'send':
        return get(req.peer).send(req.msg);
      case 'stats':
        return get(req.peer).stats();
      case 'leave':
        await get(req.peer).leave();
        peers.delete(req.peer);
        return undefined;
      case 'exit':
        await Promise.all([...peers.values()].map((p) => p.leave()));
        setTimeout(() => process.exit(0), 50);
        return undefined;
    }
  };
  process.on('message', (m: { id: number } & Request) => {
    void handle(m).then(
      (result) => process.send?.({ id: m.id, ok: true, result } satisfies Reply),
      (e: unknown) => process.send?.({ id: m.id, ok: false, error: e instanceof Error ? e.message : String(e) } satisfies Reply),
    );
  });
  // the parent went (crashed, killed): leave nothing behind
  process.on('disconnect', () => process.exit(0));
}

if (process.argv.includes('--cheap-peer-child')) void serve();
