/**
 * The player's uplink for SEI (see sei.ts): a 16×16 canvas video published only to carry input
 * messages to the host. A still canvas emits no frames, so each message repaints it (and asks
 * for a frame), and a slow keep-alive stops the SDK from treating the video as stalled.
 */
export interface UplinkCarrier {
  track: MediaStreamTrack;
  /** Produce a frame now. */
  kick(): void;
  stop(): void;
}

export const CARRIER_SIZE = 16;
export const CARRIER_FPS = 15;
const KEEPALIVE_MS = 1000;

export function canvasCarrier(): UplinkCarrier {
  const canvas = document.createElement('canvas');
  canvas.width = CARRIER_SIZE;
  canvas.height = CARRIER_SIZE;
  const ctx = canvas.getContext('2d');
  const track = canvas.captureStream(CARRIER_FPS).getVideoTracks()[0];
  let dark = false;
  const kick = () => {
    dark = !dark;
    if (ctx) {
      ctx.fillStyle = dark ? '#000000' : '#010101';
      ctx.fillRect(0, 0, CARRIER_SIZE, CARRIER_SIZE);
    }
    (track as MediaStreamTrack & { requestFrame?: () => void }).requestFrame?.();
  };
  kick();
  const keepalive = setInterval(kick, KEEPALIVE_MS);
  return {
    track,
    kick,
    stop: () => {
      clearInterval(keepalive);
      track.stop();
    },
  };
}
