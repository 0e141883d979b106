/**
 * The page side of a warm runtime's preload (the plan comes from server/host/prewarm.ts): loads
 * the Noto Sans JP subsets of the plan's characters in both weights, fetches the game files into
 * the HTTP cache and decodes the images, so a session's yumecast.start() finds them at hand; then
 * prepares the plan's first titles in the engine (yumecast.prepare, one after the other: story
 * parsed, title screen drawn), so a start of one of them only shows its title. Beside the loads
 * it warms up the page's WebRTC (lib/streaming/webrtc/warmup.ts: the peer connection factory and
 * a DTLS certificate), so the session's publisher does not do that first-use work while the game
 * starts. Runs in the runtime's Chromium page; the bridge (./bridge.ts) exposes it as `prewarm`.
 */
import type { PrepareInfo, YumecastApi } from '../../../runtime/src/types';
import type { PrewarmResult } from '../bridge-protocol';
import type { PrewarmPlan } from '../prewarm';
import { warmUpWebRtc } from '../../../lib/streaming/webrtc/warmup';

/** Gives up waiting after this long (whatever loaded is cached; the rest loads on demand). */
const PREWARM_MAX_MS = 15_000;
/** Preparing titles stops being waited for after this long in all (a start takes what is ready). */
const PREPARE_MAX_MS = 10_000;


/** Prepares the plan's titles one at a time (each one's work on the page's thread is short). */
async function prepareTitles(plan: PrewarmPlan, y: YumecastApi | null): Promise<PrepareInfo[]> {
  const out: PrepareInfo[] = [];
  if (!y || typeof y.prepare !== 'function') return out;
  const end = performance.now() + PREPARE_MAX_MS;
  for (const t of plan.prepare ?? []) {
    const left = end - performance.now();
    if (left <= 0) break;
    const info = await Promise.race([
      y.prepare(t.gameId, { assetBase: t.assetBase, storyUrl: t.storyUrl }),
      new Promise<null>((r) => setTimeout(() => r(null), left)),
    ]);
    if (!info) break;
    out.push(info);
  }
  return out;
}

/** `y`: the VN runtime's API (null: not loaded, nothing is prepared). */
export async function prewarmPage(plan: PrewarmPlan, y: YumecastApi | null): Promise<PrewarmResult> {
  const t0 = performance.now();
  let loaded = 0;
  let failed = 0;
  const count = (ok: boolean) => (ok ? loaded++ : failed++);
  const family = '"Noto Sans JP"';
  const fonts = Promise.all([400, 700].map((w) => document.fonts.load(`${w} 30px ${family}`, plan.charset || 'あ'))).then(
    () => true,
    () => false,
  );
  const fetches = plan.fetch.map((u) =>
    fetch(u)
      .then((r) => r.arrayBuffer().then(() => count(r.ok)))
      .catch(() => count(false)),
  );
  const images = plan.images.map(
    (u) =>
      new Promise<void>((resolve) => {
        const img = new Image();
        img.onload = () => {
          count(true);
          resolve();
        };
        img.onerror = () => {
          count(false);
          resolve();
        };
        img.src = u;
      }),
  );
  // beside the loads (mostly off the page's thread: WebRTC's threads; ~20–40 ms in all, the
  // loads take longer): the session's connection then skips the page's first-use work
  const webrtc = warmUpWebRtc();
  const all = Promise.all([fonts, webrtc, ...fetches, ...images]);
  await Promise.race([all, new Promise((r) => setTimeout(r, PREWARM_MAX_MS))]);
  const fontsOk = document.fonts.check(`400 30px ${family}`, 'はじめから') && document.fonts.check(`700 30px ${family}`, 'はじめから');
  // Waited for (≤ PREPARE_MAX_MS; ~0.1–0.2 s a title): the runtime counts as warm, and gets a
  // session, only once its page's thread is free again, so a start never competes with the
  // preparation of titles it does not play (a start of a title still preparing would wait for it).
  const prepared = (await prepareTitles(plan, y)).map((p) => ({ gameId: p.gameId, ok: p.ok, ms: p.ms }));
  return { ms: Math.round(performance.now() - t0), fontsOk, loaded, failed, prepared };
}
