/**
 * The page side of a warm runtime's preload (the plan comes from server/host/prewarm.ts): loads
 * the Noto Sans JP subsets of the plan's characters in both weights, fetches the game files into
 * the HTTP cache and decodes the images, so a session's yumecast.start() finds them at hand. Runs
 * in the runtime's Chromium page; the bridge (./bridge.ts) exposes it as `prewarm`.
 */
import type { PrewarmResult } from '../bridge-protocol';
import type { PrewarmPlan } from '../prewarm';

/** Gives up waiting after this long (whatever loaded is cached; the rest loads on demand). */
const PREWARM_MAX_MS = 15_000;

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
  return { ms: Math.round(performance.now() - t0), fontsOk, loaded, failed };
}
