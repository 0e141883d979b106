import { onFirstFrame } from './firstFrame';

it('calls back once on loadeddata, and not after the clean-up', () => {
  const v = document.createElement('video');
  const done = jest.fn();
  const stop = onFirstFrame(v, done);
  expect(done).not.toHaveBeenCalled();
  v.dispatchEvent(new Event('loadeddata'));
  v.dispatchEvent(new Event('loadeddata'));
  expect(done).toHaveBeenCalledTimes(1);
  stop();

  const later = jest.fn();
  onFirstFrame(v, later)();
  v.dispatchEvent(new Event('loadeddata'));
  expect(later).not.toHaveBeenCalled();
});

it('takes the video frame callback where the browser has one (the first presented frame), once', () => {
  const v = document.createElement('video') as HTMLVideoElement & { requestVideoFrameCallback: jest.Mock; cancelVideoFrameCallback: jest.Mock };
  let frame: (() => void) | null = null;
  v.requestVideoFrameCallback = jest.fn((cb: () => void) => {
    frame = cb;
    return 7;
  });
  v.cancelVideoFrameCallback = jest.fn();
  const done = jest.fn();
  const stop = onFirstFrame(v, done);
  frame!();
  v.dispatchEvent(new Event('loadeddata'));
  expect(done).toHaveBeenCalledTimes(1);
  stop();
  expect(v.cancelVideoFrameCallback).toHaveBeenCalledWith(7);
});

it('calls back at once when the video already has a frame', () => {
  const v = document.createElement('video');
  Object.defineProperty(v, 'readyState', { value: 4 });
  const done = jest.fn();
  onFirstFrame(v, done);
  expect(done).toHaveBeenCalledTimes(1);
});
