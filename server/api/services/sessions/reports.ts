/**
 * A host's reports on its sessions (docs/sessions.md 4.3): state changes (starting, ready,
 * playing; closed and failed end the session), saves (per user and title, at most MAX_SAVE_SLOTS
 * slots) and input activity (the idle rule's clock, written at most once per window per session:
 * inputActivity.ts). A host reports only on sessions placed on it.
 */
import { isLiveSessionState, type SessionState } from '../../../../lib/api-types/sessions';
import type { HostReportedState, SaveBody } from '../../../shared/host-contract';
import { ApiError } from '../../errors';
import { isHolding, lockSession, transition, withTransaction, type SessionRow } from '../sessionStore';
import type { SessionContext } from './context';
import { refreshHostState } from './hostStore';
import { InputActivityWindow, inputActivityWriteMs } from './inputActivity';

export const MAX_SAVE_SLOTS = 32;

/** The states a host moves a session through, in order (a report never moves it back). */
const HOST_PROGRESS: SessionState[] = ['allocating', 'starting', 'ready', 'playing'];

export class HostReports {
  private readonly inputWrites: InputActivityWindow;

  constructor(private readonly ctx: SessionContext) {
    this.inputWrites = new InputActivityWindow(inputActivityWriteMs(ctx.config), (hostId, sessionId, when) => {
      ctx.work.track(this.writeInputActivity(hostId, sessionId, when));
    });
  }

  /** The session if it is (or was) placed on this host; 404 otherwise. */
  async sessionOnHost(hostId: string, sessionId: string): Promise<SessionRow> {
    const { rows } = await this.ctx.db.query<SessionRow>('SELECT * FROM sessions WHERE id = $1 AND host_id = $2', [sessionId, hostId]);
    if (!rows[0]) throw new ApiError('session_not_found');
    return rows[0];
  }

  async hostReportState(hostId: string, sessionId: string, state: HostReportedState, reason: string | undefined): Promise<SessionState> {
    const outcome = await withTransaction(this.ctx.db, async (client) => {
      const row = await lockSession(client, sessionId);
      if (!row || row.host_id !== hostId) throw new ApiError('session_not_found');
      if (state === 'closed' || state === 'failed') {
        if (!isLiveSessionState(row.state)) return { row, ended: false, readyNow: false };
        const next =
          state === 'closed' || row.state === 'closing'
            ? await transition(client, row, 'closed', { actor: 'host', reason: 'host' })
            : await transition(client, row, 'failed', { actor: 'host', reason: reason ?? 'runtime_failed' });
        return { row: next, ended: true, readyNow: false };
      }
      if (!isHolding(row.state) || row.state === 'closing') throw new ApiError('session_closed');
      if (HOST_PROGRESS.indexOf(state) <= HOST_PROGRESS.indexOf(row.state)) return { row, ended: false, readyNow: false };
      const set = state === 'playing' ? { ready_at: row.ready_at ?? new Date() } : undefined;
      return { row: await transition(client, row, state, { actor: 'host', set }), ended: false, readyNow: state === 'ready' };
    });
    if (outcome.readyNow) this.ctx.events.emitReady(outcome.row);
    if (outcome.ended) {
      this.ctx.events.emitEnded(outcome.row, outcome.row.failure_reason ?? outcome.row.close_reason ?? 'closed');
      await refreshHostState(this.ctx.db, hostId);
      this.ctx.kickDrain();
    }
    return outcome.row.state;
  }

  async hostSave(hostId: string, sessionId: string, slot: string, state: SaveBody['state']): Promise<Date> {
    const session = await this.sessionOnHost(hostId, sessionId);
    return withTransaction(this.ctx.db, async (client) => {
      // Serialise slot creation per user and title, so the slot cap holds under concurrency.
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`saves:${session.uid}:${session.game_id}`]);
      const { rows: existing } = await client.query<{ slot: string }>('SELECT slot FROM saves WHERE uid = $1 AND game_id = $2', [
        session.uid,
        session.game_id,
      ]);
      if (!existing.some((row) => row.slot === slot) && existing.length >= MAX_SAVE_SLOTS) {
        throw new ApiError('instance_limit', 'セーブスロットの上限に達しています。');
      }
      const { rows } = await client.query<{ updated_at: Date }>(
        `INSERT INTO saves (uid, game_id, slot, state, session_id, updated_at) VALUES ($1, $2, $3, $4, $5, now())
         ON CONFLICT (uid, game_id, slot) DO UPDATE SET state = EXCLUDED.state, session_id = EXCLUDED.session_id, updated_at = now()
         RETURNING updated_at`,
        [session.uid, session.game_id, slot, JSON.stringify(state), sessionId],
      );
      return rows[0].updated_at;
    });
  }

  /**
   * The idle rule's clock. A host reports input at most every 5 s while it arrives; written
   * on every report, that is the largest stream of writes at scale (docs/scale.md). So each api
   * process writes a session's input time at most once per `inputActivityWriteMs` (trailing
   * edge: a report inside the window is kept and written when the window ends, so the stored time
   * is the latest one within the window; only its writing waits, never its value). The first
   * report after a quiet spell (e.g. right after an idle warning) is written at once. Several
   * processes each keep their own window: `greatest` keeps the stored time monotonic.
   */
  async hostInputActivity(hostId: string, sessionId: string, at: number | undefined): Promise<void> {
    const when = at === undefined ? Date.now() : Math.min(at, Date.now());
    if (this.inputWrites.defer(hostId, sessionId, when)) return;
    if (!(await this.writeInputActivity(hostId, sessionId, when))) {
      this.inputWrites.forget(sessionId);
      throw new ApiError('session_not_found');
    }
  }

  /** Writes the input times kept in open windows now (the service stopping: nothing is lost). */
  flushInputActivity(): void {
    this.inputWrites.flushAll();
  }

  private async writeInputActivity(hostId: string, sessionId: string, when: number): Promise<boolean> {
    const { rowCount } = await this.ctx.db.query(
      `UPDATE sessions SET last_input_at = greatest(coalesce(last_input_at, to_timestamp(0)), to_timestamp($3::double precision / 1000))
       WHERE id = $1 AND host_id = $2`,
      [sessionId, hostId, when],
    );
    return Boolean(rowCount);
  }
}
