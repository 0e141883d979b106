/**
 * A multi-step auth flow (sign up: link → send the mail → sign out; a redirect login coming
 * back) passes through states the app must not act on: a just-linked visitor is briefly a
 * "verified" user, which would send the sign-up page home, and a user without a name is signed
 * out by the rules of spec section 4. While a flow runs, the listener holds its reports and
 * reports the user as the flow left it, once every flow is done.
 */
let running = 0;
const idleListeners = new Set<() => void>();

export function isAuthFlowRunning(): boolean {
  return running > 0;
}

/** Called each time the last running flow ends. */
export function onAuthFlowsIdle(listener: () => void): () => void {
  idleListeners.add(listener);
  return () => idleListeners.delete(listener);
}

export async function runAuthFlow<T>(fn: () => Promise<T>): Promise<T> {
  running += 1;
  try {
    return await fn();
  } finally {
    running -= 1;
    if (running === 0) for (const l of [...idleListeners]) l();
  }
}
