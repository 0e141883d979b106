/**
 * The stats overlay's arithmetic and Japanese text: rates from two readings, the provider's own
 * rates when there are no counters, and `—` where a provider says nothing.
 */
import { emptyReceiverStats, type ReceiverStats } from '@/lib/streaming/types';
import { deriveFigures, formatFigures } from './figures';

function reading(at: number, patch: Partial<ReceiverStats>): ReceiverStats {
  return { ...emptyReceiverStats(at), ...patch };
}

const first = reading(1000, {
  rttMs: 18,
  fps: 12,
  framesDecoded: 100,
  width: 1280,
  height: 720,
  bytesReceived: 1_000_000,
  packetsReceived: 1000,
  packetsLost: 2,
  jitterBufferDelayS: 1.0,
  jitterBufferEmitted: 100,
  videoCodec: 'VP8',
  audioCodec: 'opus',
});
const second = reading(3000, {
  ...first,
  at: 3000,
  framesDecoded: 160,
  bytesReceived: 1_500_000,
  packetsReceived: 1396,
  packetsLost: 6,
  jitterBufferDelayS: 1.6,
  jitterBufferEmitted: 160,
});

describe('deriveFigures', () => {
  it('turns two readings into rates over the time between them', () => {
    const f = deriveFigures(first, second, 25);
    expect(f.fps).toBeCloseTo(30); // 60 frames in 2 s
    expect(f.bitrateKbps).toBeCloseTo(2000); // 500 kB in 2 s
    expect(f.lossPct).toBeCloseTo(1); // 4 lost of 400
    expect(f.lostTotal).toBe(6);
    expect(f.jitterBufferMs).toBeCloseTo(10); // 0.6 s over 60 frames
    expect(f).toMatchObject({ rttMs: 18, pingMs: 25, width: 1280, height: 720, codec: 'VP8 / opus' });
  });

  it('on the first reading uses what the provider says itself', () => {
    const f = deriveFigures(null, first, null);
    expect(f.fps).toBe(12);
    expect(f.bitrateKbps).toBeNull();
    expect(f.lossPct).toBeNull();
    expect(f.jitterBufferMs).toBeCloseTo(10); // the mean since the start
  });

  it('takes an SDK rate (agora) where there are no counters to difference', () => {
    const a = reading(1000, { bitrateBps: 1_200_000, lossPct: 0.5, fps: 24 });
    const b = reading(2000, { bitrateBps: 900_000, lossPct: 0.25, fps: 20 });
    expect(deriveFigures(a, b, null)).toMatchObject({ bitrateKbps: 900, lossPct: 0.25, fps: 20, jitterBufferMs: null });
  });

  it('ignores a previous reading from another connection (counters went back)', () => {
    const fresh = reading(5000, { framesDecoded: 10, bytesReceived: 2000, packetsReceived: 10, packetsLost: 0, fps: 5 });
    const f = deriveFigures(second, fresh, null);
    expect(f.fps).toBe(5);
    expect(f.bitrateKbps).toBeNull();
  });

  it('with no reading at all shows only the ping', () => {
    expect(deriveFigures(null, null, 40)).toMatchObject({ rttMs: null, pingMs: 40, fps: null, codec: null });
  });
});

describe('formatFigures', () => {
  it('writes each figure in Japanese, in the overlay order', () => {
    const rows = formatFigures(deriveFigures(first, second, 25));
    expect(rows.map((r) => [r.label, r.text])).toEqual([
      ['往復遅延', '18 ms（応答 25 ms）'],
      ['フレームレート', '30 fps'],
      ['解像度', '1280×720'],
      ['ビットレート', '2.00 Mbps'],
      ['パケットロス', '1.0%（累計 6）'],
      ['ジッターバッファ', '10 ms'],
      ['コーデック', 'VP8 / opus'],
    ]);
    expect(rows.find((r) => r.id === 'bitrate')!.value).toBeCloseTo(2000);
  });

  it('shows a dash where the provider gives nothing, and small rates in kbps', () => {
    const rows = formatFigures({ ...deriveFigures(null, null, null), bitrateKbps: 640.4, fps: 2.5 });
    expect(Object.fromEntries(rows.map((r) => [r.id, r.text]))).toEqual({
      rtt: '—',
      fps: '2.5 fps',
      resolution: '—',
      bitrate: '640 kbps',
      loss: '—',
      'jitter-buffer': '—',
      codec: '—',
    });
  });
});
