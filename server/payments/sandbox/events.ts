/**
 * Webhook events of the sandbox. `recordEvent` writes an event (and its delivery to the
 * configured endpoint) in the same transaction as the change it reports: an outbox, so no event
 * is lost and none reports a change that was rolled back. `WebhookDeliverer` POSTs pending
 * deliveries, signed in Stripe's scheme (../signature.ts) at the moment of sending, and retries
 * failures with exponential back-off (base, 2×base, 4×base … up to a ceiling) until a 2xx or
 * the last attempt. Each event has a unique id; a retry resends the same id and body.
 */
import type pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import { signPayload } from '../signature';
import type { Db, Tx } from './db';
import { newId } from './ids';
import { SANDBOX_API_VERSION, type WireEvent, type WireEventType } from './wire';

export interface EventSink {
  /** Where deliveries go; undefined = events are recorded only. */
  webhookUrl?: string;
}

/** Records an event and queues its delivery; call inside the transaction of the change. */
export async function recordEvent(tx: Tx, sink: EventSink, type: WireEventType, object: WireEvent['data']['object'], created: number): Promise<WireEvent> {
  const event: WireEvent = { id: newId('evt'), object: 'event', api_version: SANDBOX_API_VERSION, created, type, livemode: false, data: { object } };
  const payload = JSON.stringify(event);
  await tx.query('INSERT INTO events (id, type, created, payload) VALUES ($1, $2, $3, $4)', [event.id, type, created, payload]);
  if (sink.webhookUrl) await tx.query('INSERT INTO deliveries (event_id, url) VALUES ($1, $2)', [event.id, sink.webhookUrl]);
  return event;
}

export interface DelivererOptions {
  pool: Db;
  secret: string;
  baseDelayMs: number;
  maxDelayMs: number;
  maxAttempts: number;
  /** How long to wait for the receiver's answer. */
  timeoutMs?: number;
  /** How often to look for due retries when nothing wakes us. */
  pollMs?: number;
  log: FastifyBaseLogger;
}

interface DueDelivery {
  id: string;
  url: string;
  attempts: number;
  event_id: string;
  payload: string;
}

export class WebhookDeliverer {
  private running = false;
  private loopDone: Promise<void> = Promise.resolve();
  private wake: (() => void) | null = null;
  private kicked = false;

  constructor(private readonly options: DelivererOptions) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loopDone = this.loop();
  }

  /** Something was queued: look now instead of at the next poll. */
  kick(): void {
    this.kicked = true;
    this.wake?.();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loopDone;
  }

  private async loop(): Promise<void> {
    const pollMs = this.options.pollMs ?? Math.min(1_000, this.options.baseDelayMs);
    while (this.running) {
      this.kicked = false;
      let due: DueDelivery[] = [];
      try {
        due = await this.due();
        for (const delivery of due) {
          if (!this.running) break;
          await this.deliver(delivery);
        }
      } catch (error) {
        this.options.log.warn({ err: error }, 'webhook delivery pass failed');
      }
      if (!this.running || this.kicked || due.length > 0) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollMs);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = null;
    }
  }

  private async due(): Promise<DueDelivery[]> {
    const { rows } = await this.options.pool.query<DueDelivery>(
      `SELECT d.id, d.url, d.attempts, d.event_id, e.payload
         FROM deliveries d JOIN events e ON e.id = d.event_id
        WHERE d.delivered_at IS NULL AND d.failed_at IS NULL AND d.next_attempt_at <= $1
        ORDER BY d.next_attempt_at, e.seq LIMIT 20`,
      [new Date()],
    );
    return rows;
  }

  private async deliver(delivery: DueDelivery): Promise<void> {
    const attempts = delivery.attempts + 1;
    let status: number | null = null;
    let problem: string | null = null;
    try {
      const response = await fetch(delivery.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'stripe-signature': signPayload(this.options.secret, delivery.payload),
          'user-agent': 'Yumecast-Payments-Sandbox/1.0 (+webhooks)',
        },
        body: delivery.payload,
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
        redirect: 'manual',
      });
      status = response.status;
      await response.arrayBuffer().catch(() => undefined);
      if (status < 200 || status > 299) problem = `HTTP ${status}`;
    } catch (error) {
      problem = (error as Error).message;
    }
    const pool: Pick<pg.Pool, 'query'> = this.options.pool;
    if (problem === null) {
      await pool.query('UPDATE deliveries SET attempts = $2, delivered_at = now(), last_status = $3, last_error = NULL WHERE id = $1', [delivery.id, attempts, status]);
      this.options.log.info({ event: delivery.event_id, attempts }, 'webhook delivered');
      return;
    }
    if (attempts >= this.options.maxAttempts) {
      await pool.query('UPDATE deliveries SET attempts = $2, failed_at = now(), last_status = $3, last_error = $4 WHERE id = $1', [delivery.id, attempts, status, problem]);
      this.options.log.warn({ event: delivery.event_id, attempts, problem }, 'webhook delivery given up');
      return;
    }
    const delay = Math.min(this.options.maxDelayMs, this.options.baseDelayMs * 2 ** (attempts - 1));
    await pool.query('UPDATE deliveries SET attempts = $2, next_attempt_at = $3, last_status = $4, last_error = $5 WHERE id = $1', [
      delivery.id,
      attempts,
      new Date(Date.now() + delay),
      status,
      problem,
    ]);
    this.options.log.info({ event: delivery.event_id, attempts, problem, retryInMs: delay }, 'webhook delivery failed; will retry');
  }
}
