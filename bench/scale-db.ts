/**
 * What the periodic calls of a running session cost the api and PostgreSQL (issue 14, docs/scale.md):
 * the play page's status poll (a playing session, every 5 s; a queued one, every 2 s), the host's
 * heartbeat (every 2 s), its input-activity report (at most every 5 s while input arrives) and
 * the play page's WebRTC stats (every 10 s). The real api (buildApp on PostgreSQL, as
 * bench/search-latency.ts builds it) with fake hosts (server/api/testing/fake-host.ts) and
 * emulator users, in a throwaway schema.
 *
 * For each call: `--concurrency` clients for `--seconds` over loopback, then req/s, p50 / p95 ms,
 * and what PostgreSQL did per call:
 * - statements the api sent (every query on the app's pool connections, counted in this process
 *   by wrapping pg.Client#query): reads (SELECT, including FOR UPDATE), writes (INSERT, UPDATE,
 *   DELETE, a WITH that writes) and transaction control (BEGIN, COMMIT, SAVEPOINT…);
 * - rows written, by the server's own counters (pg_stat_user_tables of the bench's schema:
 *   inserted, updated, of which HOT, deleted), and commits and WAL bytes of the whole cluster
 *   (pg_stat_database, pg_current_wal_lsn: meaningful when the bench has the server to itself,
 *   e.g. with its own PGPORT_LOCAL / PG_DATA_DIR).
 *
 * `--config before,after`: `before` puts the heartbeat and input-activity code of commit 7f239d1
 * (bench/scale-db-before.ts) in place of the service's own for its turn; `after` is the code as it
 * is. Both arms run on the same api and schema, one after the other, per call.
 *
 * Two more measurements: input activity at the host's pace, scaled down ten times (every session
 * reports every 500 ms, the window is 1.5 s: production's 5 s and 15 s), with the kept reports'
 * writes at the windows' ends counted; and `--starts` sequential starts with free slots on 10
 * host rows, then on `--fleet` more (rows inserted directly, all pointing at one fake host): the
 * allocation locks every healthy host row, so a start's cost grows with the fleet; each start
 * round runs with the placement before the fix (`every host locked`, bench/scale-db-placement.ts)
 * and as the code is (`one host lock`).
 *
 *   npx tsx server/dev/with-services.ts -- node_modules/.bin/tsx bench/scale-db.ts [--seconds 5] [--concurrency 16] [--hosts 10] [--per-host 4] [--queued 10] [--starts 15] [--fleet 2000] [--config before,after]
 */
import os from 'node:os';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { counted, countStatements, flushAppCounters, ours, serverCounters } from './scale-db-counters';
import { everyHostLockArm } from './scale-db-placement';
import type { FakeHost as FakeHostType } from '../server/api/testing/fake-host';

const argv = process.argv.slice(2);
const arg = (name: string, def: string): string => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] ? argv[i + 1] : def;
};
const SECONDS = Number(arg('seconds', '5'));
const CONCURRENCY = Number(arg('concurrency', '16'));
const HOSTS = Number(arg('hosts', '10'));
const PER_HOST = Number(arg('per-host', '4'));
const QUEUED = Number(arg('queued', '10'));
const CONFIGS = arg('config', 'before,after').split(',').filter(Boolean);
const STARTS = Number(arg('starts', '15'));
const FLEET = Number(arg('fleet', '2000'));
/** The input-activity window and report period, a tenth of production's (15 s and the host's 5 s). */
const INPUT_WINDOW_MS = 1_500;
const INPUT_EVERY_MS = 500;
const GAME = 'hoshifuru-toshokan';

// ── one measured call ────────────────────────────────────────────────────────────────────────

interface Row {
  call: string;
  config: string;
  calls: number;
  rps: number;
  p50: number;
  p95: number;
  errors: number;
  /** CPU of this process (the api and the bench's clients) per call, ms. */
  cpuMs: number;
  perCall: { read: number; write: number; tx: number; ins: number; upd: number; hot: number; del: number; commits: number; walBytes: number };
}

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))] : NaN;
}

/** Calls `one` from CONCURRENCY clients for SECONDS: each call's time and status. */
function closedLoop(one: (i: number) => Promise<number>): () => Promise<{ times: number[]; errors: number }> {
  return async () => {
    const times: number[] = [];
    let errors = 0;
    const deadline = performance.now() + SECONDS * 1000;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async (_, w) => {
        for (let i = w; performance.now() < deadline; i += CONCURRENCY) {
          const t = performance.now();
          const status = await one(i).catch(() => 0);
          if (status !== 200) errors++;
          times.push(performance.now() - t);
        }
      }),
    );
    return { times, errors };
  };
}

async function measure(
  app: FastifyInstance,
  stats: pg.Pool,
  schema: string,
  call: string,
  config: string,
  drive: () => Promise<{ times: number[]; errors: number }>,
  /** Waited after the calls, inside the measurement (work a call leaves for later, e.g. kept writes). */
  tailMs = 0,
): Promise<Row> {
  await flushAppCounters(app);
  const before = await serverCounters(stats, schema);
  const start = { ...counted };
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const { times, errors } = await drive();
  const secs = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  if (tailMs > 0) await new Promise((resolve) => setTimeout(resolve, tailMs));
  await app.sessions.settle();
  const sent = { read: counted.read - start.read, write: counted.write - start.write, tx: counted.tx - start.tx };
  await flushAppCounters(app);
  const after = await serverCounters(stats, schema);
  const n = times.length;
  const per = (x: number) => x / n;
  return {
    call,
    config,
    calls: n,
    rps: n / secs,
    p50: quantile(times, 0.5),
    p95: quantile(times, 0.95),
    errors,
    cpuMs: (cpu.user + cpu.system) / 1000 / n,
    perCall: {
      read: per(sent.read),
      write: per(sent.write),
      tx: per(sent.tx),
      ins: per(after.ins - before.ins),
      upd: per(after.upd - before.upd),
      hot: per(after.hot - before.hot),
      del: per(after.del - before.del),
      // the flush's own statements are autocommit reads: one commit per pool connection, twice
      commits: per(after.commits - before.commits - 2 * app.db.totalCount - 2),
      walBytes: per(after.walBytes - before.walBytes),
    },
  };
}

function printRows(rows: Row[]): void {
  const f = (x: number, d = 2) => (Number.isFinite(x) ? x.toFixed(d) : '–');
  console.log(
    '\n| call | config | calls | req/s | p50 ms | p95 ms | errors | api + client CPU ms per call | statements per call (read / write / tx) | rows inserted / updated (HOT) / deleted per call | commits per call | WAL bytes per call |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of rows) {
    const p = r.perCall;
    const total = p.read + p.write + p.tx;
    console.log(
      `| ${r.call} | ${r.config} | ${r.calls} | ${f(r.rps, 0)} | ${f(r.p50)} | ${f(r.p95)} | ${r.errors} | ${f(r.cpuMs)} | ${f(total)} (${f(p.read)} / ${f(p.write)} / ${f(p.tx)}) | ${f(p.ins)} / ${f(p.upd)} (${f(p.hot)}) / ${f(p.del)} | ${f(p.commits)} | ${f(p.walBytes, 0)} |`,
    );
  }
}

// ── the run ──────────────────────────────────────────────────────────────────────────────────

async function main(): Promise<void> {
  if (!process.env.DATABASE_URL || !process.env.FIREBASE_AUTH_EMULATOR_HOST) {
    console.error('scale-db needs PostgreSQL and the Auth emulator: run it under server/dev/with-services.ts');
    process.exit(2);
  }
  const bound = setTimeout(() => {
    console.error('bench: over 10 min, stopping');
    process.exit(2);
  }, 600_000);
  bound.unref();
  countStatements();
  const { startSessionApp, request, TEST_HOST_SECRET, TestUsers, waitFor } = await import('../server/api/testing/sessions');
  const { createTestSchema } = await import('../server/api/testing/test-app');
  const { FakeHost } = await import('../server/api/testing/fake-host');
  const { beforeArm } = await import('./scale-db-before');

  console.log(
    `scale-db: ${os.cpus().length} cores, load ${os.loadavg().map((x) => x.toFixed(2)).join(' / ')}, node ${process.version}; ` +
      `${HOSTS} hosts × ${PER_HOST} playing sessions, ${QUEUED} queued; ${CONCURRENCY} concurrent clients for ${SECONDS} s per call; configs ${CONFIGS.join(', ')}`,
  );

  const schema = await createTestSchema('bench_scale');
  const stats = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 1 });
  stats.on('connect', (client) => ours.add(client));
  // The sweeper off: only the measured calls reach PostgreSQL. A production-sized pool.
  const sessionConfig = { sweeper: false, hostHeartbeatTimeoutMs: 6_000, inputActivityWriteMs: INPUT_WINDOW_MS } as Parameters<typeof startSessionApp>[1];
  const api = await startSessionApp(schema.name, sessionConfig, { config: { dbPoolMax: 10 } });
  const users = new TestUsers();
  const hosts: FakeHostType[] = [];
  try {
    for (let h = 0; h < HOSTS; h++) {
      const host = await new FakeHost({ id: `bench-host-${h}`, capacity: PER_HOST, secret: TEST_HOST_SECRET, apiBase: api.base }).listen();
      hosts.push(host);
      const answer = await host.register();
      if (answer.status !== 200) throw new Error(`register: ${answer.status}`);
    }
    // One user and one playing session per slot (the hosts heartbeat meanwhile: allocation only
    // takes hosts with a fresh heartbeat; they stop before anything is measured).
    for (const host of hosts) host.startHeartbeats(1_000);
    const sessions: { id: string; token: string; host: FakeHostType }[] = [];
    const players = [];
    for (let i = 0; i < HOSTS * PER_HOST; i++) players.push(await users.email());
    for (const user of players) {
      const started = await request(api.base, 'GET', `/v1/game/${GAME}/start`, { token: user.idToken });
      if (started.status !== 200) throw new Error(`start: ${started.status} ${JSON.stringify(started.body)}`);
      sessions.push({ id: started.body.game_session_id, token: user.idToken, host: hosts[0] });
    }
    await waitFor(
      async () => {
        const { rows } = await schema.pool.query(`SELECT count(*)::int AS n FROM sessions WHERE state = 'ready'`);
        return rows[0].n === sessions.length;
      },
      30_000,
      'every session ready',
    );
    const { rows: placed } = await schema.pool.query<{ id: string; host_id: string }>('SELECT id, host_id FROM sessions');
    for (const s of sessions) s.host = hosts.find((h) => h.id === placed.find((p) => p.id === s.id)?.host_id) ?? hosts[0];
    for (const s of sessions) await s.host.report(s.id, 'playing');
    for (const host of hosts) host.stopHeartbeats();
    await api.app.sessions.settle();

    const arms = {
      before: () => beforeArm(api.app.sessions),
      after: () => () => undefined,
    } as Record<string, () => () => void>;
    for (const config of CONFIGS) if (!arms[config]) throw new Error(`unknown config ${config} (before, after)`);

    const calls: { call: string; one: (i: number) => Promise<number> }[] = [
      {
        call: 'status (playing)',
        one: async (i) => {
          const s = sessions[i % sessions.length];
          return (await request(api.base, 'GET', `/v1/session/${s.id}/status`, { token: s.token })).status;
        },
      },
      {
        call: 'heartbeat',
        one: async (i) => {
          const host = hosts[i % hosts.length];
          const ids = sessions.filter((s) => s.host === host).map((s) => s.id);
          return (await host.call('POST', `/internal/hosts/${host.id}/heartbeat`, { activeSessions: ids.length, warm: 1, sessionIds: ids })).status;
        },
      },
      {
        call: 'input-activity',
        one: async (i) => {
          const s = sessions[i % sessions.length];
          return (await s.host.call('POST', `/internal/sessions/${s.id}/input-activity`, { at: Date.now() })).status;
        },
      },
      {
        call: 'stats (collect)',
        one: async (i) => {
          const s = sessions[i % sessions.length];
          const body = { sessionId: s.id, gameId: GAME, stats: { rttMs: 12, fps: 30, kbps: 600, packetsLost: 0, jitterMs: 3, codec: 'video/H264' } };
          return (await request(api.base, 'POST', '/v1/collect/stats/webrtc', { token: s.token, body })).status;
        },
      },
    ];

    const rows: Row[] = [];
    for (const { call, one } of calls) {
      for (const config of CONFIGS) {
        const restore = arms[config]();
        try {
          rows.push(await measure(api.app, stats, schema.name, call, config, closedLoop(one)));
        } finally {
          restore();
        }
        console.log(`  ${call}, ${config}: ${rows.at(-1)!.rps.toFixed(0)} req/s`);
      }
    }

    // Input activity at the host's pace (scaled down ten times): every session reports every
    // INPUT_EVERY_MS for 6 s; the kept reports' writes at the window's end are counted.
    for (const config of CONFIGS) {
      const restore = arms[config]();
      try {
        const drive = async () => {
          const times: number[] = [];
          let errors = 0;
          const end = performance.now() + 6_000;
          await Promise.all(
            sessions.map(async (s, k) => {
              await new Promise((resolve) => setTimeout(resolve, (k * INPUT_EVERY_MS) / sessions.length));
              while (performance.now() < end) {
                const t = performance.now();
                const answer = await s.host.call('POST', `/internal/sessions/${s.id}/input-activity`, { at: Date.now() });
                if (answer.status !== 200) errors++;
                times.push(performance.now() - t);
                await new Promise((resolve) => setTimeout(resolve, Math.max(0, INPUT_EVERY_MS - (performance.now() - t))));
              }
            }),
          );
          return { times, errors };
        };
        rows.push(await measure(api.app, stats, schema.name, `input-activity, each session every ${INPUT_EVERY_MS} ms (window ${INPUT_WINDOW_MS} ms)`, config, drive, INPUT_WINDOW_MS * 2));
      } finally {
        restore();
      }
    }

    // Queued sessions: every slot is taken, so these wait (their status poll writes last_polled_at).
    const queued: { id: string; token: string }[] = [];
    for (let i = 0; i < QUEUED; i++) {
      const user = await users.email();
      const started = await request(api.base, 'GET', `/v1/game/${GAME}/start`, { token: user.idToken });
      if (started.status !== 200) throw new Error(`start (queued): ${started.status}`);
      queued.push({ id: started.body.game_session_id, token: user.idToken });
    }
    if (queued.length) {
      rows.push(
        await measure(
          api.app,
          stats,
          schema.name,
          'status (queued)',
          'as is',
          closedLoop(async (i) => {
            const s = queued[i % queued.length];
            return (await request(api.base, 'GET', `/v1/session/${s.id}/status`, { token: s.token })).status;
          }),
        ),
      );
      for (const config of CONFIGS) {
        const restore = arms[config]();
        try {
          const row = await measure(
            api.app,
            stats,
            schema.name,
            'heartbeat, a queue waiting',
            config,
            closedLoop(async (i) => {
              const host = hosts[i % hosts.length];
              const ids = sessions.filter((s) => s.host === host).map((s) => s.id);
              return (await host.call('POST', `/internal/hosts/${host.id}/heartbeat`, { activeSessions: ids.length, warm: 1, sessionIds: ids })).status;
            }),
          );
          rows.push(row);
        } finally {
          restore();
        }
      }
    }
    // Starts: the allocation locks every healthy host row (allocation.ts), so its cost grows with
    // the fleet. Sequential starts with free slots on a few host rows, then with FLEET more.
    for (const s of queued) await request(api.base, 'GET', `/v1/session/${s.id}/force_close`, { token: s.token });
    await api.app.sessions.settle();
    hosts[0].autoReady = false;
    const extra = async (from: number, count: number) => {
      await schema.pool.query(
        `INSERT INTO hosts (id, url, capacity, state, reported_active, reported_warm, registered_at, last_heartbeat_at, updated_at)
         SELECT 'bench-fleet-' || i, $1, 100, 'Ready', 0, 0, now(), now(), now() FROM generate_series($2::int, $3::int) AS i`,
        [hosts[0].url, from, from + count - 1],
      );
    };
    // `every host locked`: the placement before issue 14's fix (bench/scale-db-placement.ts).
    const placementArms: Record<string, () => () => void> = {
      'every host locked (before)': () => everyHostLockArm(api.app.sessions),
      'one host lock (as is)': () => () => undefined,
    };
    const startRound = async (config: string) => {
      const starters: { idToken: string }[] = [];
      for (let i = 0; i < STARTS; i++) starters.push(await users.email());
      await schema.pool.query('UPDATE hosts SET last_heartbeat_at = now()');
      const { rows: n } = await schema.pool.query(`SELECT count(*)::int AS n FROM hosts WHERE state IN ('Ready', 'Allocated')`);
      const restore = placementArms[config]();
      try {
        rows.push(
          await measure(api.app, stats, schema.name, `start with ${n[0].n} healthy hosts (sequential)`, config, async () => {
            const times: number[] = [];
            let errors = 0;
            for (const user of starters) {
              const t = performance.now();
              const answer = await request(api.base, 'GET', `/v1/game/${GAME}/start`, { token: user.idToken });
              if (answer.status !== 200) errors++;
              times.push(performance.now() - t);
            }
            return { times, errors };
          }),
        );
      } finally {
        restore();
      }
      const { rows: waiting } = await schema.pool.query(`SELECT count(*)::int AS n FROM sessions WHERE state = 'queued'`);
      if (waiting[0].n > 0) console.log(`  ${config}: ${waiting[0].n} sessions left queued`);
    };
    await extra(1, 10);
    for (const config of ['every host locked (before)', 'one host lock (as is)']) await startRound(config);
    await extra(11, FLEET);
    for (const config of ['every host locked (before)', 'one host lock (as is)']) await startRound(config);

    printRows(rows);
    console.log(`\nload at the end: ${os.loadavg().map((x) => x.toFixed(2)).join(' / ')}`);
  } finally {
    await Promise.allSettled(hosts.map((host) => host.close()));
    await api.close();
    await users.cleanup();
    await stats.end();
    await schema.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
