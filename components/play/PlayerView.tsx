import { useCallback, useEffect, useRef, useState } from 'react';
import { Link } from '@/components/ui/Link';
import { useRouter } from 'next/router';
import styled from 'styled-components';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { displayModal } from '@/store/slices/modal';
import { pushToast } from '@/store/slices/toastThunks';
import { loadPlayerConfig, savePlayerConfig, type PlayerConfig } from '@/lib/storage/playerConfig';
import { forceClose, getSessionAll } from '@/lib/api/sessions';
import type { HostMessage, NamedKey } from '@/lib/streaming/messages';
import { usePlaySession } from './usePlaySession';
import { StartProgress } from './StartProgress';
import { onFirstFrame } from './firstFrame';
import { FailurePanel } from './FailurePanel';
import { ControlBar } from './ControlBar';
import { Keypad } from './Keypad';
import { InputLayer, type SendInput } from './InputLayer';
import { Center, IdleWarning, Reconnecting, Tutorial } from './Overlays';

const Stage = styled.div`
  position: fixed;
  inset: 0;
  background: #000;
  color: #fff;
  overflow: hidden;
  video {
    position: absolute;
    inset: 0;
    width: 100%;
    height: 100%;
    object-fit: contain;
    background: #000;
  }
`;

const Back = styled(Link)`
  position: absolute;
  top: 8px;
  left: 8px;
  z-index: 20;
  padding: 8px 12px;
  border-radius: 18px;
  background: rgba(0, 0, 0, 0.55);
  color: #fff;
  font-size: 0.8rem;
  text-decoration: none;
`;

export interface PlayerViewProps {
  gameId: string;
  title: string;
}

/** The play page's stage: progress while starting, then the video with its controls. */
export function PlayerView({ gameId, title }: PlayerViewProps) {
  const router = useRouter();
  const dispatch = useAppDispatch();
  const videoRef = useRef<HTMLVideoElement | null>(null);
  const [cfg, setCfg] = useState<PlayerConfig>(() => loadPlayerConfig());
  const update = useCallback((patch: Partial<PlayerConfig>) => {
    setCfg((c) => {
      const next = { ...c, ...patch };
      savePlayerConfig(next);
      return next;
    });
  }, []);

  const onHostMessage = useCallback(
    (m: HostMessage) => {
      if (m.type === 'screenshot-saved') dispatch(pushToast('success', { message: 'スクリーンショットを保存しました（マイリスト）' }));
      if (m.type === 'error' && m.code === 'screenshot_failed') dispatch(pushToast('error', { message: 'スクリーンショットを保存できませんでした。' }));
      if (m.type === 'error' && m.code === 'screenshot_limit') dispatch(pushToast('error', { message: 'スクリーンショットの保存上限に達しました。' }));
    },
    [dispatch],
  );
  // A visitor is signed in anonymously only after the first auth report (which lets the page
  // render): the session starts once there is a user whose token the api can check.
  const hasUser = useAppSelector((s) => !!s.user.user);
  const visitorSignInFailed = useAppSelector((s) => s.user.user === null && s.user.loginErrorCode !== null);
  const { snap, actions, retry } = usePlaySession(gameId, hasUser, onHostMessage);
  const failure = snap?.failure ?? (visitorSignInFailed ? 'network_lost' : null);
  const onRetry = visitorSignInFailed && !snap ? () => window.location.reload() : retry;

  // The received stream plays in the <video>; volume and mute follow the config. Its first
  // presented frame ends the start's progress (the controller's `playing`).
  useEffect(() => {
    const v = videoRef.current;
    if (!v || !snap?.stream) return;
    if (v.srcObject !== snap.stream) v.srcObject = snap.stream;
    void v.play().catch(() => undefined);
    return onFirstFrame(v, actions.framePresented);
  }, [snap?.stream, actions]);
  useEffect(() => {
    if (videoRef.current) videoRef.current.volume = cfg.volume;
  }, [cfg.volume, snap?.stream]);

  const send: SendInput = actions.send;
  const videoBox = useCallback(() => videoRef.current?.getBoundingClientRect() ?? null, []);

  const onExit = async () => {
    await actions.exit();
    void router.push(`/title/${encodeURIComponent(gameId)}`);
  };
  const onCloseOthers = async () => {
    const live = await getSessionAll().catch(() => []);
    await Promise.all(live.map((s) => forceClose(s.sessionId).catch(() => undefined)));
    retry();
  };
  const onFullscreen = () => {
    if (document.fullscreenElement) void document.exitFullscreen();
    else void document.documentElement.requestFullscreen?.().catch(() => undefined);
  };

  const playing = snap?.step === 'playing' && !snap.failure;
  const isTouch = typeof window !== 'undefined' && window.matchMedia?.('(pointer: coarse)').matches;
  const tutorial = playing && isTouch && !cfg.guidance.touchControllerTutorial ? 'touch' : playing && cfg.touchControllerMode === 'touchpad' && !cfg.guidance.controllerKnobTutorial ? 'knob' : null;

  return (
    <Stage data-testid="play-stage" data-step={snap?.step ?? 'start'} data-connection={snap?.connection ?? ''} data-session={snap?.sessionId ?? ''}>
      <video ref={videoRef} autoPlay playsInline data-testid="game-video" />
      {failure ? (
        <Center>
          <FailurePanel
            failure={failure}
            gameId={gameId}
            onRetry={onRetry}
            onCloseOthers={onCloseOthers}
            onLogin={() => dispatch(displayModal({ node: 'login' }))}
          />
        </Center>
      ) : !playing ? (
        <Center>
          <StartProgress step={snap?.step ?? 'start'} queuePosition={snap?.queuePosition ?? null} title={title} />
        </Center>
      ) : (
        <>
          <InputLayer mode={cfg.touchControllerMode} knob={cfg.knobPosition} onKnobMove={(p) => update({ knobPosition: p })} send={send} videoBox={videoBox} />
          <Back href={`/title/${encodeURIComponent(gameId)}`}>← {title}</Back>
          <ControlBar
            volume={cfg.volume}
            quality={cfg.videoQuality}
            touchMode={cfg.touchControllerMode}
            keypadShown={cfg.keypadShown}
            onVolume={(volume) => update({ volume })}
            onQuality={(videoQuality) => {
              update({ videoQuality });
              actions.setQuality(videoQuality);
            }}
            onTouchMode={(touchControllerMode) => update({ touchControllerMode })}
            onKeypad={() => update({ keypadShown: !cfg.keypadShown })}
            onFullscreen={onFullscreen}
            onScreenshot={() => actions.screenshot()}
            onExit={() => void onExit()}
          />
          {(cfg.keypadShown || cfg.keypadPinned) && (
            <Keypad
              pinned={cfg.keypadPinned}
              onPin={() => update({ keypadPinned: !cfg.keypadPinned })}
              onKey={(key: NamedKey) => {
                send({ type: 'key', kind: 'down', key });
                send({ type: 'key', kind: 'up', key });
                if (!cfg.keypadPinned) update({ keypadShown: false });
              }}
            />
          )}
          {snap.reconnecting && <Reconnecting />}
          {snap.idleSecondsLeft !== null && <IdleWarning secondsLeft={snap.idleSecondsLeft} onContinue={() => send({ type: 'pointer', kind: 'move', x: 0.5, y: 0.5 })} />}
          {tutorial && (
            <Tutorial
              kind={tutorial}
              onDone={() =>
                update({
                  guidance: {
                    ...cfg.guidance,
                    ...(tutorial === 'touch' ? { touchControllerTutorial: true } : { controllerKnobTutorial: true }),
                  },
                })
              }
            />
          )}
        </>
      )}
    </Stage>
  );
}
