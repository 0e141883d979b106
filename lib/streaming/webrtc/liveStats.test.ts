/**
 * The webrtc subscriber's reading for the stats overlay (issue 13): from one getStats() report,
 * the video and audio inbound-rtp counters, frame size and rate, jitter buffer, the codecs and
 * the selected candidate pair's round trip.
 */
import { receiverStatsFromReport } from './subscriber';

const report = (stats: Record<string, unknown>[]) => new Map(stats.map((s) => [s.id as string, s])) as never;

it('reads the inbound video and audio, their codecs and the selected pair', () => {
  const r = receiverStatsFromReport(
    report([
      { id: 'T', type: 'transport', selectedCandidatePairId: 'P2' },
      { id: 'P1', type: 'candidate-pair', state: 'succeeded', nominated: true, currentRoundTripTime: 0.5 },
      { id: 'P2', type: 'candidate-pair', state: 'succeeded', nominated: true, currentRoundTripTime: 0.012 },
      { id: 'CV', type: 'codec', mimeType: 'video/VP8' },
      { id: 'CA', type: 'codec', mimeType: 'audio/opus' },
      {
        id: 'V',
        type: 'inbound-rtp',
        kind: 'video',
        codecId: 'CV',
        framesPerSecond: 30,
        framesDecoded: 300,
        frameWidth: 1280,
        frameHeight: 720,
        bytesReceived: 1_000_000,
        packetsReceived: 900,
        packetsLost: 3,
        jitterBufferDelay: 1.5,
        jitterBufferEmittedCount: 300,
      },
      { id: 'A', type: 'inbound-rtp', kind: 'audio', codecId: 'CA', bytesReceived: 50_000, packetsReceived: 100, packetsLost: 1 },
    ]),
    1234,
  );
  expect(r).toEqual({
    at: 1234,
    rttMs: 12,
    fps: 30,
    framesDecoded: 300,
    width: 1280,
    height: 720,
    bytesReceived: 1_050_000,
    bitrateBps: null,
    packetsReceived: 1000,
    packetsLost: 4,
    lossPct: null,
    jitterBufferDelayS: 1.5,
    jitterBufferEmitted: 300,
    videoCodec: 'VP8',
    audioCodec: 'opus',
  });
});

it('without a transport report takes the nominated pair; an empty report gives empty fields', () => {
  const r = receiverStatsFromReport(report([{ id: 'P', type: 'candidate-pair', state: 'succeeded', nominated: true, currentRoundTripTime: 0.02 }]), 1);
  expect(r.rttMs).toBe(20);
  expect(r.fps).toBeNull();
  expect(r.bytesReceived).toBeNull();
  expect(receiverStatsFromReport(report([]), 1).rttMs).toBeNull();
});
