import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { PlayController, type PlaySnapshot } from '@/lib/session/playController';
import type { HostMessage } from '@/lib/streaming/messages';

/**
 * Owns one PlayController for the page's life: starts it, mirrors its snapshots into React,
 * and wires page visibility, the beacon on leave and a retry.
 */
export function usePlaySession(gameId: string | null, enabled: boolean, onHostMessage: (m: HostMessage) => void) {
  const [snap, setSnap] = useState<PlaySnapshot | null>(null);
  const [attempt, setAttempt] = useState(0);
  const ctrl = useRef<PlayController | null>(null);
  const hostCb = useRef(onHostMessage);
  useEffect(() => {
    hostCb.current = onHostMessage;
  }, [onHostMessage]);

  useEffect(() => {
    if (!gameId || !enabled) return;
    const c = new PlayController(gameId, { onChange: setSnap, onHostMessage: (m) => hostCb.current(m) });
    ctrl.current = c;
    void c.run();
    const onVisibility = () => c.setHidden(document.visibilityState === 'hidden');
    const onLeave = () => c.sendBeacon();
    document.addEventListener('visibilitychange', onVisibility);
    window.addEventListener('pagehide', onLeave);
    return () => {
      document.removeEventListener('visibilitychange', onVisibility);
      window.removeEventListener('pagehide', onLeave);
      c.sendBeacon();
      c.dispose();
      ctrl.current = null;
    };
  }, [gameId, enabled, attempt]);

  const retry = useCallback(() => {
    setSnap(null);
    setAttempt((a) => a + 1);
  }, []);

  // Stable actions for the UI; they reach whichever controller is current.
  const actions = useMemo(
    () => ({
      send: (m: Parameters<PlayController['send']>[0]) => ctrl.current?.send(m) ?? false,
      setQuality: (q: Parameters<PlayController['setQuality']>[0]) => ctrl.current?.setQuality(q),
      screenshot: () => ctrl.current?.requestScreenshot(),
      exit: async () => ctrl.current?.exit(),
      framePresented: () => ctrl.current?.framePresented(),
      liveStats: async () => ctrl.current?.liveStats() ?? null,
    }),
    [],
  );

  return { snap, actions, retry };
}
