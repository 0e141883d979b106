/**
 * @jest-environment node
 */
/**
 * The webrtc adapters' pure parts: the publisher's codec order (the preferred codec first, the
 * others kept so a player without it still connects) and the subscriber's jitter-buffer hint
 * (video only, and only where the browser has it). Media itself is checked in a real Chromium
 * (server/host integration tests, docs/streaming.md).
 */
import { orderCodecs, withAudioPtime, withBitrateBounds } from './publisher';
import { VIDEO_JITTER_BUFFER_TARGET_MS, lowerJitterBuffer } from './subscriber';

const CODECS = [
  { mimeType: 'video/VP8' },
  { mimeType: 'video/rtx' },
  { mimeType: 'video/VP9', sdpFmtpLine: 'profile-id=0' },
  { mimeType: 'video/H264', sdpFmtpLine: 'level-asymmetry-allowed=1;packetization-mode=0;profile-level-id=42e01f' },
  { mimeType: 'video/H264', sdpFmtpLine: 'level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=640c1f' },
  { mimeType: 'video/H264', sdpFmtpLine: 'level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f' },
  { mimeType: 'video/red' },
];

describe('orderCodecs', () => {
  it('puts the preferred codec first and keeps every other one in its order', () => {
    const vp9 = orderCodecs(CODECS, 'vp9');
    expect(vp9[0].mimeType).toBe('video/VP9');
    expect(vp9.slice(1)).toEqual(CODECS.filter((c) => c.mimeType !== 'video/VP9'));
    expect(orderCodecs(CODECS, 'vp8')).toEqual(CODECS);
  });

  it('prefers constrained baseline with packetization-mode 1 for H.264', () => {
    const h = orderCodecs(CODECS, 'h264');
    expect(h[0].sdpFmtpLine).toBe('level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f');
    expect(h.slice(1, 3).every((c) => c.mimeType === 'video/H264')).toBe(true);
    expect(h).toHaveLength(CODECS.length);
  });
});

describe('lowerJitterBuffer', () => {
  it('sets the video receiver target and leaves audio alone', () => {
    const video = { jitterBufferTarget: null as number | null } as unknown as RTCRtpReceiver;
    const audio = { jitterBufferTarget: null as number | null } as unknown as RTCRtpReceiver;
    lowerJitterBuffer(video, 'video');
    lowerJitterBuffer(audio, 'audio');
    expect((video as unknown as { jitterBufferTarget: number }).jitterBufferTarget).toBe(VIDEO_JITTER_BUFFER_TARGET_MS);
    expect((audio as unknown as { jitterBufferTarget: number | null }).jitterBufferTarget).toBeNull();
  });

  it('does nothing in a browser without the hint, and survives a refusal', () => {
    const old = {} as RTCRtpReceiver;
    lowerJitterBuffer(old, 'video');
    expect('jitterBufferTarget' in old).toBe(false);
    const refusing = Object.defineProperty({}, 'jitterBufferTarget', {
      get: () => null,
      set: () => {
        throw new RangeError('no');
      },
    }) as RTCRtpReceiver;
    expect(() => lowerJitterBuffer(refusing, 'video')).not.toThrow();
  });
});

describe('withBitrateBounds', () => {
  const answer = [
    'v=0',
    'm=audio 9 UDP/TLS/RTP/SAVPF 111',
    'a=rtpmap:111 opus/48000/2',
    'a=fmtp:111 minptime=10;useinbandfec=1',
    'm=video 9 UDP/TLS/RTP/SAVPF 96 97 45',
    'a=rtpmap:96 VP8/90000',
    'a=rtpmap:97 rtx/90000',
    'a=fmtp:97 apt=96',
    'a=rtpmap:45 H264/90000',
    'a=fmtp:45 packetization-mode=1;x-google-min-bitrate=10',
    'm=application 9 UDP/DTLS/SCTP webrtc-datachannel',
    '',
  ].join('\r\n');
  const out = withBitrateBounds(answer, { start: 4000, min: 1500, max: 4000 });
  const b = 'x-google-start-bitrate=4000;x-google-min-bitrate=1500;x-google-max-bitrate=4000';

  it('bounds every video codec, adding an fmtp line where there was none', () => {
    expect(out).toContain(`a=rtpmap:96 VP8/90000\r\na=fmtp:96 ${b}\r\n`);
    expect(out).toContain(`a=fmtp:45 packetization-mode=1;${b}\r\n`);
  });

  it('leaves audio, rtx and the line endings alone', () => {
    expect(out).toContain('a=fmtp:111 minptime=10;useinbandfec=1\r\n');
    expect(out).toContain('a=fmtp:97 apt=96\r\n');
    expect(out.split('\r\n')).toHaveLength(answer.split('\r\n').length + 1);
    expect(out.match(/x-google-min-bitrate/g)).toHaveLength(2);
  });
});

describe('withAudioPtime', () => {
  const answer = ['v=0', 'm=audio 9 UDP/TLS/RTP/SAVPF 111', 'a=mid:0', 'a=rtpmap:111 opus/48000/2', 'm=video 9 UDP/TLS/RTP/SAVPF 96', 'a=mid:1', ''].join('\r\n');

  it('puts the ptime at the end of the audio section only, keeping the line endings', () => {
    const out = withAudioPtime(answer, 60);
    expect(out).toBe(['v=0', 'm=audio 9 UDP/TLS/RTP/SAVPF 111', 'a=mid:0', 'a=rtpmap:111 opus/48000/2', 'a=ptime:60', 'm=video 9 UDP/TLS/RTP/SAVPF 96', 'a=mid:1', ''].join('\r\n'));
  });

  it('replaces a ptime the answer had, and handles an audio section last in the SDP', () => {
    const last = ['v=0', 'm=audio 9 UDP/TLS/RTP/SAVPF 111', 'a=ptime:20', 'a=rtpmap:111 opus/48000/2', ''].join('\n');
    const out = withAudioPtime(last, 40);
    expect(out).toBe(['v=0', 'm=audio 9 UDP/TLS/RTP/SAVPF 111', 'a=rtpmap:111 opus/48000/2', 'a=ptime:40', ''].join('\n'));
    expect(withAudioPtime('v=0\r\nm=video 9 X 96\r\n', 60)).toBe('v=0\r\nm=video 9 X 96\r\n');
  });

  it('sets it in every audio section, replacing one in a CRLF answer, before a data channel section', () => {
    const two = ['v=0', 'm=audio 9 X 111', 'a=ptime:20', 'm=audio 9 X 111', 'a=mid:1', 'm=application 9 UDP/DTLS/SCTP webrtc-datachannel', 'a=mid:2', ''].join('\r\n');
    expect(withAudioPtime(two, 60)).toBe(
      ['v=0', 'm=audio 9 X 111', 'a=ptime:60', 'm=audio 9 X 111', 'a=mid:1', 'a=ptime:60', 'm=application 9 UDP/DTLS/SCTP webrtc-datachannel', 'a=mid:2', ''].join('\r\n'),
    );
  });
});
