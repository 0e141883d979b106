/**
 * The runtime page's query options, read in one place. The host opens the page with them
 * (server/host/runtime.ts builds the query from its settings); a person opening the page by hand
 * can use `?game=<id>` and the rest. What each option does lives with the code that uses it:
 *   frames=change   frames only when the picture changes, from the first draw (frames.ts; main.ts)
 *   artMb=<n>       the art store's budget in MB, 0 = keep every raster (art.ts; HOST_ART_BUDGET_MB)
 *   loops=pcm       the music loop held as 16-bit samples in a worklet (audio/loops.ts; HOST_MUSIC_LOOPS)
 *   sfx=live        every sound effect synthesised live, not played from the build's files (audio/sfx-player.ts; HOST_SFX_FILES)
 *   fonts=all       a start on the title screen waits for every glyph of the story (main.ts; HOST_START_FONTS)
 *   capture=canvas  frames=change tracks are captureStream(0) + requestFrame, not written VideoFrames (frames.ts; HOST_CAPTURE)
 *   sink=none       the sound goes only to the captured stream, no output device (audio/engine.ts; HOST_AUDIO_DEVICE)
 *   sends=eager     the master chain's reverb and delay built with the context, not on first use (audio/chain.ts; HOST_AUDIO_SENDS)
 *   game, assets, story, session, monitor=1, autostart=0|1   a start by hand (main.ts)
 */

export interface PageOptions {
  frames: 'change' | 'steady';
  /** MB of art rasters, 0 = no budget; null = the art store's own (ART_CACHE_BYTES). */
  artMb: number | null;
  loops: 'pcm' | 'buffer';
  /** Sound effects from the build's files (falling back to live), or always live. */
  sfx: 'file' | 'live';
  /** What a start on the title screen waits for: the title screen's glyphs, or all of the story's. */
  fonts: 'first' | 'all';
  /** How a `change` track gets its frames: VideoFrames written to a track generator, or the canvas's own capture. */
  capture: 'frame' | 'canvas';
  /** Where the AudioContext plays besides the stream: the machine's output device, or none. */
  sink: 'device' | 'none';
  /** When the master chain's reverb and delay are built: when a live sound first needs them, or with the context. */
  sends: 'lazy' | 'eager';
  game: string | null;
  assets: string | null;
  story: string | null;
  session: string | null;
  monitor: boolean;
  /** `autostart`: '1' / '0', or null when not given. */
  autostart: string | null;
}

/** The options of `search` (default: this page's query; none outside a page). */
export function pageOptions(search: string = typeof location === 'undefined' ? '' : location.search): PageOptions {
  const q = new URLSearchParams(search);
  const art = q.get('artMb');
  const mb = art === null || art.trim() === '' ? NaN : Number(art);
  return {
    frames: q.get('frames') === 'change' ? 'change' : 'steady',
    artMb: Number.isFinite(mb) && mb >= 0 ? mb : null,
    loops: q.get('loops') === 'pcm' ? 'pcm' : 'buffer',
    sfx: q.get('sfx') === 'live' ? 'live' : 'file',
    fonts: q.get('fonts') === 'all' ? 'all' : 'first',
    capture: q.get('capture') === 'canvas' ? 'canvas' : 'frame',
    sink: q.get('sink') === 'none' ? 'none' : 'device',
    sends: q.get('sends') === 'eager' ? 'eager' : 'lazy',
    game: q.get('game'),
    assets: q.get('assets'),
    story: q.get('story'),
    session: q.get('session'),
    monitor: q.get('monitor') === '1',
    autostart: q.get('autostart'),
  };
}
