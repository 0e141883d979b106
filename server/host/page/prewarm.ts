/**
 * The page side of a warm runtime's preload (the plan comes from server/host/prewarm.ts): loads
 * the Noto Sans JP subsets of the plan's characters in both weights, fetches the game files into
 * the HTTP cache and decodes the images, so a session's yumecast.start() finds them at hand; then
 * prepares the plan's first titles in the engine (yumecast.prepare, one after the other: story
 * parsed, title screen drawn), so a start of one of them only shows its title. Runs in the
 * runtime's Chromium page; the bridge (./bridge.ts) exposes it as `prewarm`.
 */
import type { PrepareInfo, YumecastApi } from '../../../runtime/src/types';
import type { PrewarmResult } from '../bridge-protocol';
import type { PrewarmPlan } from '../prewarm';

/** Gives up waiting after this long (whatever loaded is cached; the rest loads on demand). */
const PREWARM_MAX_MS = 15_000;
/** Preparing titles stops being waited for after this long in all (a start takes what is ready). */
const PREPARE_MAX_MS = 10_000;

/** What the last prewarm's preparations did (a page-side record for tests and debugging). */
declare global {
  interface Window {
    __yumecastPrepared?: PrepareInfo[];
  }
}

/** Prepares the plan's titles one at a time (each one's work on the page's thread is short). */
async function prepareTitles(plan: PrewarmPlan): Promise<PrepareInfo[]> {
  const y = (window as unknown as { yumecast?: YumecastApi }).yumecast;
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

export async function prewarmPage(plan: PrewarmPlan): Promise<PrewarmResult> {
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
  const all = Promise.all([fonts, ...fetches, ...images]);
  await Promise.race([all, new Promise((r) => setTimeout(r, PREWARM_MAX_MS))]);
  const fontsOk = document.fonts.check(`400 30px ${family}`, 'はじめから') && document.fonts.check(`700 30px ${family}`, 'はじめから');
  window.__yumecastPrepared = await prepareTitles(plan);
  return { ms: Math.round(performance.now() - t0), fontsOk, loaded, failed };
}
