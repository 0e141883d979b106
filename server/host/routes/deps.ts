/**
 * What the agent's route plugins (routes/health.ts, routes/sessions.ts) are given by
 * buildHostAgent (agent.ts): the settings they answer with and the pieces they drive. The
 * agent's state and registry change after the routes are registered, so they are read per call.
 */
import type { HostConfig } from '../config';
import type { RuntimePool } from '../pool';
import type { SessionRuntime } from '../session-runtime';
import type { Registry } from '../registry';
import type { AgentState } from '../schemas';
import type { SessionManager } from '../sessions';

export interface HostRouteDeps {
  config: Pick<HostConfig, 'hostId' | 'capacity' | 'sharedSecret'>;
  pool: RuntimePool<SessionRuntime>;
  sessions: SessionManager;
  /** The agent's state: sessions start only while it is `running`. */
  agentState(): AgentState;
  /** The registry client, once the agent started with registration on (else null). */
  registry(): Registry | null;
}
