/**
 * The play page's stats overlay (issue 13 "What streaming users expect"): round trip, received
 * frame rate, resolution, bit rate, packet loss, jitter-buffer delay and codec, read about once a
 * second from the controller's `liveStats()` (getStats() of the provider and the ping/pong on the
 * message channel) while the overlay is mounted. Unmounted, nothing polls: PlayerView mounts it
 * only while the control bar's 統計 toggle is on. Not a live region (it would speak every second).
 */
import { useEffect, useState } from 'react';
import styled from 'styled-components';
import type { PlayStatsReading } from '@/lib/session/playController';
import type { ReceiverStats } from '@/lib/streaming/types';
import { deriveFigures, formatFigures, type StatsRow } from './figures';

/** How often the overlay reads, ms. */
export const STATS_OVERLAY_INTERVAL_MS = 1000;

const Panel = styled.section`
  position: absolute;
  /* below the back link and the transcript's toggle (top-left), clear of the control bar */
  top: 100px;
  left: 8px;
  z-index: 21;
  min-width: 220px;
  max-width: calc(100% - 16px);
  padding: 10px 12px;
  border-radius: 10px;
  background: rgba(0, 0, 0, 0.7);
  color: #fff;
  font-size: 0.75rem;
  line-height: 1.5;
  font-variant-numeric: tabular-nums;
  pointer-events: auto;
  h2 {
    margin: 0 0 4px;
    font-size: 0.8rem;
  }
  dl {
    display: grid;
    grid-template-columns: auto 1fr;
    gap: 2px 12px;
    margin: 0;
  }
  dt {
    color: rgba(255, 255, 255, 0.75);
  }
  dd {
    margin: 0;
  }
`;

interface Props {
  /** One reading (the controller's liveStats); undefined/null while there is no controller. */
  read(): Promise<PlayStatsReading | null | undefined>;
}

/** The overlay: polls `read` every second while mounted, shows the figures in Japanese. */
export function StatsOverlay({ read }: Props) {
  const [rows, setRows] = useState<StatsRow[]>(() => formatFigures(deriveFigures(null, null, null)));

  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let prev: ReceiverStats | null = null;
    const tick = async () => {
      const reading = await read().catch(() => null);
      if (stopped) return;
      const cur = reading?.receiver ?? null;
      setRows(formatFigures(deriveFigures(prev, cur, reading?.pingMs ?? null)));
      if (cur) prev = cur;
      timer = setTimeout(() => void tick(), STATS_OVERLAY_INTERVAL_MS);
    };
    void tick();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [read]);

  return (
    <Panel aria-label="通信の統計" data-testid="stats-overlay" onPointerDown={(e) => e.stopPropagation()}>
      <h2>通信の統計</h2>
      <dl>
        {rows.map((r) => (
          <div key={r.id} style={{ display: 'contents' }}>
            <dt>{r.label}</dt>
            <dd data-testid={`stats-${r.id}`} data-value={r.value === null ? '' : String(r.value)}>
              {r.text}
            </dd>
          </div>
        ))}
      </dl>
    </Panel>
  );
}
