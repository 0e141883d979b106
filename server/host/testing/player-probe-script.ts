/**
 * The page side of the player probe (server/host/testing/player-probe.ts, which injects it as an
 * init script and reads it): plain JavaScript text, so it runs the same under tsx and Jest.
 *
 * PROBE_SCRIPT wraps RTCPeerConnection and WebSocket (recording every instance; the player's own
 * code is unchanged) and defines window.__probe: the received video's inbound-rtp stats, the
 * first presented frame, input-to-photon latency from the received video, a log of the
 * signalling sockets, and the connection timeline (signalling frames by type, socket and peer
 * connection state changes, tracks, first frames) in Date.now() ms: the system clock the bench,
 * the host and every page on the machine share; a high-resolution performance.now() time (the
 * first frame's) is converted when it is taken.
 *
 * DEFAULT_JITTER_SCRIPT: the receiver as before issue 11 (see there).
 * ANSWER_AFTER_APPLY_SCRIPT: the answer sent after it is applied, as before issue 11 (see there).
 */

export const PROBE_SCRIPT = String.raw`
(() => {
  if (window.__probe) return;
  const pcs = [];
  const sig = [];
  // the timeline: { at: Date.now() ms, ev, n (which socket / peer connection), detail? }
  const timeline = [];
  const mark = (ev, n, detail, at) => { const e = { at: at ?? Date.now(), ev, n }; if (detail) e.detail = detail; timeline.push(e); };
  // a signalling frame's type (and a peer event's role)
  const kindOf = (data) => {
    if (typeof data !== 'string') return ['binary'];
    try { const m = JSON.parse(data); return [String(m.type), m.role]; } catch { return ['unparsed']; }
  };
  const NativePC = window.RTCPeerConnection;
  window.RTCPeerConnection = class extends NativePC {
    constructor(...args) {
      super(...args);
      const n = pcs.length;
      pcs.push(this);
      mark('pc:new', n);
      this.addEventListener('connectionstatechange', () => mark('pc:connection:' + this.connectionState, n));
      this.addEventListener('iceconnectionstatechange', () => mark('pc:ice:' + this.iceConnectionState, n));
      this.addEventListener('track', (e) => mark('pc:track:' + e.track.kind, n));
      this.addEventListener('datachannel', (e) => mark('pc:datachannel', n, e.channel.label));
    }
  };
  const NativeWS = window.WebSocket;
  window.WebSocket = class extends NativeWS {
    constructor(url, protocols) {
      super(url, protocols);
      const n = sig.length;
      const rec = { url: String(url).replace(/token=[^&]*/, 'token=…'), opened: false, frames: [], close: null };
      sig.push(rec);
      this.__n = n;
      mark('ws:new', n);
      this.addEventListener('open', () => { rec.opened = true; mark('ws:open', n); });
      // whole frames, except long ones (SDP): those are cut and marked
      this.addEventListener('message', (e) => {
        const [type, role] = kindOf(e.data);
        mark('rx:' + type, n, role);
        rec.frames.push(typeof e.data !== 'string' ? '(binary)' : e.data.length > 1000 ? e.data.slice(0, 200) + '…(cut)' : e.data);
      });
      this.addEventListener('close', (e) => { rec.close = { code: e.code, reason: e.reason, at: Date.now() }; mark('ws:close', n, String(e.code)); });
    }
    send(data) {
      mark('tx:' + kindOf(data)[0], this.__n);
      return super.send(data);
    }
  };
  const video = () => document.getElementById('v');
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const nextFrame = (v, ms) => new Promise((resolve) => {
    let done = false;
    const t = setTimeout(() => { done = true; resolve(null); }, ms);
    v.requestVideoFrameCallback((now, meta) => { if (done) return; clearTimeout(t); resolve({ now, meta }); });
  });
  window.__probe = {
    pcs,
    sig,
    timeline,
    /** inbound-rtp video of the newest peer connection (null before one exists). */
    async inbound() {
      const pc = pcs[pcs.length - 1];
      if (!pc || pc.connectionState === 'closed') return null;
      const report = await pc.getStats();
      let out = null;
      report.forEach((s) => {
        if (s.type === 'inbound-rtp' && s.kind === 'video') {
          out = { fps: s.framesPerSecond ?? 0, width: s.frameWidth ?? 0, height: s.frameHeight ?? 0, decoded: s.framesDecoded ?? 0,
                  dropped: s.framesDropped ?? 0, bytes: s.bytesReceived ?? 0, at: s.timestamp, codec: s.codecId ?? '',
                  jitterBufferDelay: s.jitterBufferDelay ?? 0, jitterBufferEmitted: s.jitterBufferEmittedCount ?? 0,
                  decodeTime: s.totalDecodeTime ?? 0, lost: s.packetsLost ?? 0, nacks: s.nackCount ?? 0 };
        }
      });
      return out;
    },
    /**
     * performance.now() of the first presented video frame after this call (null on timeout);
     * also on the timeline ('video:first-frame', Date.now() ms).
     */
    firstFrame(timeoutMs) {
      const v = video();
      const start = v.getVideoPlaybackQuality().totalVideoFrames;
      return new Promise((resolve) => {
        let done = false;
        const finish = (t) => {
          if (done) return;
          done = true; clearInterval(iv); clearTimeout(to);
          if (t !== null) mark('video:first-frame', undefined, undefined, Date.now() - (performance.now() - t));
          resolve(t);
        };
        v.requestVideoFrameCallback((now) => finish(now));
        // rVFC needs a source; a decoded-frame counter catches the frame too
        const iv = setInterval(() => { if (v.getVideoPlaybackQuality().totalVideoFrames > start) finish(performance.now()); }, 4);
        const to = setTimeout(() => finish(null), timeoutMs);
      });
    },
    /**
     * Sends a key (down + up) on the data channel and waits for the received video to change in
     * region [x0, y0, x1, y1] (0..1 of the frame). Per sample: the picture on screen and the
     * frames that follow within 250 ms each (their noise sets the threshold), send, then compare
     * every presented frame. Returns one entry per sample.
     */
    async keyLatency(opts) {
      const { key, samples, gapMs = 300, region = [0, 0, 1, 1], timeoutMs = 2000, minDiff = 6 } = opts;
      const v = video();
      const W = 320, H = 180;
      const c = document.createElement('canvas');
      c.width = W; c.height = H;
      const g = c.getContext('2d', { willReadFrequently: true });
      const x0 = Math.floor(region[0] * W), y0 = Math.floor(region[1] * H);
      const rw = Math.max(1, Math.floor(region[2] * W) - x0), rh = Math.max(1, Math.floor(region[3] * H) - y0);
      const grab = () => {
        g.drawImage(v, 0, 0, W, H);
        const d = g.getImageData(x0, y0, rw, rh).data;
        const out = new Uint8Array(d.length / 4);
        for (let i = 0; i < out.length; i++) out[i] = (d[4 * i] * 2 + d[4 * i + 1] * 5 + d[4 * i + 2]) >> 3;
        return out;
      };
      const diff = (a, b) => { let s = 0; for (let i = 0; i < a.length; i++) s += Math.abs(a[i] - b[i]); return s / a.length; };
      const results = [];
      for (let n = 0; n < samples; n++) {
        // a random phase against the frame cadence
        await sleep(gapMs + Math.random() * 100);
        // the picture on screen is the baseline: a host that sends frames only when the picture
        // changes (issue 11) may send none for seconds on a still scene
        if (!v.videoWidth) { results.push({ error: 'no video before the input' }); continue; }
        let f = await nextFrame(v, 100);
        let base = grab();
        let noise = 0;
        for (let k = 0; k < 3; k++) {
          f = await nextFrame(v, 250);
          if (!f) break; // a static scene may send few frames: what we have is the baseline
          const cur = grab();
          noise = Math.max(noise, diff(base, cur));
          base = cur;
        }
        const threshold = Math.max(minDiff, noise * 4);
        const t0 = performance.now();
        window.player.send({ v: 1, type: 'key', kind: 'down', key });
        window.player.send({ v: 1, type: 'key', kind: 'up', key });
        let hit = null;
        let frames = 0;
        while (performance.now() - t0 < timeoutMs) {
          const fr = await nextFrame(v, timeoutMs);
          if (!fr) break;
          frames++;
          const d = diff(base, grab());
          if (d > threshold) {
            const m = fr.meta;
            // the photon: this callback's time. The frame is the video's picture from now on (its
            // pixels were just read above); expectedDisplayTime equals it on the jitter buffer's
            // path, but on the low-latency path (a sender's playout delay 0) it is stale, from
            // 30 ms before the frame arrived to 230 ms after (docs/performance.md)
            hit = { photonMs: fr.now - t0, presentedMs: fr.now - t0, displayMs: (m.expectedDisplayTime ?? fr.now) - t0,
                    submittedMs: m.presentationTime !== undefined ? m.presentationTime - t0 : null,
                    receivedMs: m.receiveTime !== undefined ? m.receiveTime - t0 : null,
                    decodeMs: m.processingDuration !== undefined ? m.processingDuration * 1000 : null,
                    diff: d, threshold, frames };
            break;
          }
        }
        results.push(hit ?? { error: 'no change seen within ' + timeoutMs + ' ms', threshold, frames });
      }
      return results;
    },
  };
})();
`;

/**
 * The receiver as before issue 11: the player's code sets RTCRtpReceiver.jitterBufferTarget
 * (lib/streaming/webrtc/subscriber.ts); this makes that setter (and Chromium's older
 * playoutDelayHint) do nothing, so the browser keeps its default jitter buffer. The player's code
 * still sees the property, so it runs unchanged.
 */
export const DEFAULT_JITTER_SCRIPT = String.raw`
(() => {
  for (const name of ['jitterBufferTarget', 'playoutDelayHint']) {
    const d = Object.getOwnPropertyDescriptor(RTCRtpReceiver.prototype, name);
    if (d && d.configurable) Object.defineProperty(RTCRtpReceiver.prototype, name, { configurable: true, enumerable: d.enumerable, get: d.get, set() {} });
  }
})();
`;

/**
 * The answer's order as before issue 11's eighth round: the player's code sends its answer right
 * after createAnswer and applies it after (lib/streaming/webrtc/subscriber.ts); this makes
 * createAnswer apply the answer before it resolves, and the code's own setLocalDescription of
 * that answer then a no-op, so the answer leaves after it was applied. The code runs unchanged.
 */
export const ANSWER_AFTER_APPLY_SCRIPT = String.raw`
(() => {
  const P = RTCPeerConnection.prototype;
  const create = P.createAnswer;
  const apply = P.setLocalDescription;
  P.createAnswer = async function (...args) {
    const answer = await create.apply(this, args);
    await apply.call(this, answer);
    this.__answerApplied = answer.sdp;
    return answer;
  };
  P.setLocalDescription = function (d, ...rest) {
    if (d && d.type === 'answer' && d.sdp === this.__answerApplied) return Promise.resolve();
    return apply.call(this, d, ...rest);
  };
})();
`;
