/**
 * Bench: the signalling join with both peers on one api replica against the two on different
 * replicas through the signal bus (PostgreSQL LISTEN/NOTIFY; docs/sessions.md "Signalling across
 * replicas"). Two real api apps on one schema, a FakeHost (testing/fake-host.ts), real WebSockets.
 * One join: the player's socket is opened (the host's is already there) → the player has
 * `peer-joined` → the host has `peer-joined` → the host's offer (a 6 kB SDP, a real offer's size)
 * is at the player → the player's answer is at the host. Each arm runs its joins one after the
 * other, interleaved (same, cross, same, …) so machine noise hits both alike. Prints ms
 * (median, p95) per arm and the machine's load.
 *
 *   npx tsx server/dev/with-services.ts -- node_modules/.bin/tsx bench/signal-join.ts [--joins 40]
 */
import os from 'node:os';

const argv = process.argv.slice(2);
const arg = (name: string, def: string): string => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] ? argv[i + 1] : def;
};
const JOINS = Number(arg('joins', '40'));
const GAME = 'hoshifuru-toshokan';
const OFFER = `v=0\r\n${'a=candidate:1 1 udp 2122260223 127.0.0.1 50000 typ host generation 0\r\n'.repeat(90)}`;

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))] : NaN;
}

async function main(): Promise<void> {
  if (!process.env.DATABASE_URL || !process.env.FIREBASE_AUTH_EMULATOR_HOST) {
    throw new Error('run under server/dev/with-services.ts (PostgreSQL and the Auth emulator)');
  }
  const { startSessionApp, request, TEST_HOST_SECRET, TestUsers, waitFor } = await import('../server/api/testing/sessions');
  const { createTestSchema } = await import('../server/api/testing/test-app');
  const { FakeHost } = await import('../server/api/testing/fake-host');
  const { SignalPeer } = await import('../server/api/testing/signal-peer');

  const schema = await createTestSchema('bench_sigjoin');
  const sessions = { readyJoinTimeoutMs: 600_000, reconnectGraceMs: 600_000, sweepIntervalMs: 60_000 };
  const a = await startSessionApp(schema.name, sessions);
  const b = await startSessionApp(schema.name, sessions);
  const host = await new FakeHost({ id: 'bench-sig', capacity: JOINS * 2 + 2, secret: TEST_HOST_SECRET, apiBase: a.base }).listen();
  await host.register();
  const users = new TestUsers();
  const open: InstanceType<typeof SignalPeer>[] = [];
  const times: Record<'same replica' | 'across replicas', number[]> = { 'same replica': [], 'across replicas': [] };
  try {
    for (let i = 0; i < JOINS * 2; i++) {
      const arm = i % 2 === 0 ? 'same replica' : 'across replicas';
      const user = await users.email();
      const started = await request(a.base, 'GET', `/v1/game/${GAME}/start`, { token: user.idToken });
      const id = started.body.game_session_id as string;
      await waitFor(async () => (await request(a.base, 'GET', `/v1/session/${id}/status`, { token: user.idToken })).body.session_state === 'ready', 10_000);
      const token = (await request(a.base, 'GET', `/v1/session/${id}/get_token`, { token: user.idToken })).body.webrtc_signal_token as string;
      const h = new SignalPeer(a.app.signalUrl(), host.started.get(id)!.signalToken);
      open.push(h);
      await h.opened;
      await waitFor(() => a.app.signalRelay.has(id, 'host'), 5_000);
      // the host offers the moment it hears of the player, as the publisher does
      h.ws.on('message', (data) => {
        if (JSON.parse(data.toString()).type === 'peer-joined') h.send({ type: 'offer', sdp: OFFER });
      });
      const t0 = performance.now();
      const p = new SignalPeer((arm === 'same replica' ? a : b).app.signalUrl(), token);
      open.push(p);
      p.ws.on('message', (data) => {
        if (JSON.parse(data.toString()).type === 'offer') p.send({ type: 'answer', sdp: 'v=0 answer' });
      });
      await h.next({ type: 'answer' }, 10_000);
      times[arm].push(performance.now() - t0);
      p.close();
      h.close();
      await request(a.base, 'GET', `/v1/session/${id}/force_close`, { token: user.idToken });
    }
  } finally {
    for (const peer of open) peer.ws.terminate();
    await host.close();
    await a.close();
    await b.close();
    await users.cleanup();
    await schema.drop();
  }
  console.log(`signal join, ${JOINS} joins per arm, interleaved; load ${os.loadavg().map((x) => x.toFixed(2)).join(' ')} on ${os.cpus().length} cores`);
  console.log('| arm | median ms | p95 ms | min ms |');
  console.log('|---|---|---|---|');
  for (const [arm, xs] of Object.entries(times)) {
    console.log(`| ${arm} | ${quantile(xs, 0.5).toFixed(1)} | ${quantile(xs, 0.95).toFixed(1)} | ${Math.min(...xs).toFixed(1)} |`);
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
