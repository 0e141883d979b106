/**
 * Calls `done` once when a <video> shows its first frame of the stream it plays: the
 * requestVideoFrameCallback of browsers that have it (the frame presented), or the media
 * element's `loadeddata` (the first frame available), whichever comes first — `loadeddata` also
 * fires in a hidden tab, where video frame callbacks wait. Returns the clean-up for an effect.
 * The play page uses it to end the start's progress only when there is a picture to show.
 */
type FrameCallbackVideo = HTMLVideoElement & {
  requestVideoFrameCallback?: (cb: () => void) => number;
  cancelVideoFrameCallback?: (handle: number) => void;
};

export function onFirstFrame(video: HTMLVideoElement, done: () => void): () => void {
  const v = video as FrameCallbackVideo;
  let called = false;
  const once = () => {
    if (called) return;
    called = true;
    done();
  };
  // HAVE_CURRENT_DATA: a frame is there already
  if (v.readyState >= 2) {
    once();
    return () => undefined;
  }
  const handle = typeof v.requestVideoFrameCallback === 'function' ? v.requestVideoFrameCallback(once) : null;
  v.addEventListener('loadeddata', once);
  return () => {
    called = true;
    v.removeEventListener('loadeddata', once);
    if (handle !== null) v.cancelVideoFrameCallback?.(handle);
  };
}
