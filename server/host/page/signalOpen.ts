/**
 * Counts the signalling sockets the page opened, for the bridge (./bridge.ts). The publisher's
 * SignalClient opens them with the global WebSocket and does not report "open"; the contract
 * reports `ready` only once the runtime's signalling connection is open. Counted by wrapping the
 * constructor once, when the bridge's bundle loads; nothing else about the sockets changes.
 */
let opens = 0;
const waiters = new Set<() => void>();

{
  const Base = window.WebSocket;
  class CountingWebSocket extends Base {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols);
      this.addEventListener('open', () => {
        opens++;
        for (const w of waiters) w();
        waiters.clear();
      });
    }
  }
  window.WebSocket = CountingWebSocket;
}

/** How many signalling sockets have opened so far. */
export function signalOpenCount(): number {
  return opens;
}

/** Resolves true once a signalling socket is open, false after timeoutMs. */
export function signalOpened(timeoutMs: number): Promise<boolean> {
  if (opens > 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = () => resolve(true);
    waiters.add(done);
    setTimeout(() => {
      waiters.delete(done);
      resolve(false);
    }, timeoutMs);
  });
}
