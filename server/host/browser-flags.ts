/**
 * The command line of the host's Chromiums (browsers.ts launches them with it; runtime.ts picks
 * the set for its options): the shared Chromium arguments (server/shared/chromium.ts), quiet
 * defaults, and the issue-11 sender field trial that asks every player to show frames at once.
 */
import { CHROMIUM_ARGS } from '../shared/chromium';

/**
 * The browser's own UI pages that Chromium loads into a renderer of every window, which is every
 * browser context here (issue 11, bench/renderer-memory.ts): the omnibox's suggestion popup as
 * WebUI (chrome://omnibox-popup.top-chrome/, and its AI-mode page). A headless host never shows an
 * omnibox, yet each session's context got that second renderer: ~40–50 MB PSS (27 MB of it
 * anonymous) counted as the session's own. Turned off, a context has one renderer: its page's.
 */
export const BROWSER_UI_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'WebUIOmniboxFullPopup'];

/**
 * CHROMIUM_ARGS' --disable-features, plus the spare renderer (so a context's renderers can be told
 * apart) and the browser UI's WebUI renderers (BROWSER_UI_FEATURES).
 */
const DISABLED_FEATURES = [
  ...(CHROMIUM_ARGS.find((a) => a.startsWith('--disable-features='))?.slice('--disable-features='.length).split(',') ?? []),
  'SpareRendererForSitePerProcess',
  ...BROWSER_UI_FEATURES,
].filter(Boolean);

/**
 * DESIGN §6 plus quiet defaults. (--disable-crashpad-for-testing would keep crashpad's daemon
 * away, but with it this Chromium's network service crashes in a loop: "FD ownership violation".
 * Instead each browser's XDG_CONFIG_HOME lies inside its user-data-dir, so crashpad's
 * --database names that folder and procs.ts finds it.) No spare renderer: browsers.ts tells a
 * context's renderers by the ones that appear while its page is made.
 */
export const CHROMIUM_FLAGS = [
  ...CHROMIUM_ARGS.filter((a) => !a.startsWith('--disable-features=')),
  `--disable-features=${DISABLED_FEATURES.join(',')}`,
  '--disable-breakpad',
  '--disable-dev-shm-usage',
  '--disable-default-apps',
  '--disable-extensions',
  '--no-default-browser-check',
  '--metrics-recording-only',
  '--password-store=basic',
];

/**
 * HOST_ZERO_PLAYOUT_DELAY: every video frame the host's browsers send carries WebRTC's playout
 * delay extension with min = max = 0 (libwebrtc's sender field trial). A Chromium player then
 * shows each frame as soon as it is decoded (its low-latency rendering path) instead of holding it
 * for a jitter-buffer target that a picture sent in bursts (a ~20 KB change, then ~2 KB refining
 * frames) drives to 100 ms and more. Audio is not affected. docs/streaming.md "Playout delay".
 */
export const ZERO_PLAYOUT_DELAY_FLAG = '--force-fieldtrials=WebRTC-ForceSendPlayoutDelay/min_ms:0,max_ms:0/';
