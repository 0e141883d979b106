import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
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
import { KEYPAD_BOTTOM_PX, Keypad } from './Keypad';
import { InputLayer, type SendInput } from './InputLayer';
import { Center, IdleWarning, Reconnecting, Tutorial } from './Overlays';
import { pill } from './pill';
import { StatsOverlay } from './stats/StatsOverlay';
import { useGamepad } from './gamepad/useGamepad';
import { useFullscreen } from './fullscreen/useFullscreen';
import { useAutoHideControls } from './useAutoHideControls';
import { FullViewportStyle } from './fullscreen/FullViewportStyle';
import { Captions } from './transcript/Captions';
import { LiveTranscript } from './transcript/LiveTranscript';
import { TranscriptPanel } from './transcript/TranscriptPanel';
import { TRANSCRIPT_KEY, TranscriptToggle } from './transcript/TranscriptToggle';
import { currentLine } from './transcript/transcriptState';
import { choiceKey, useTranscript } from './transcript/useTranscript';

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

/**
 * The top row: the back link and the transcript's button on the left, the control bar on the
 * right, in one flow so that on a narrow screen the bar wraps below instead of lying over the
 * left group (a phone's tap on the transcript's button moved the volume slider under it). Its
 * empty space lets taps through to the input layer.
 */
const TopRow = styled.div`
  position: absolute;
  top: 8px;
  left: 8px;
  right: 8px;
  z-index: 20;
  display: flex;
  flex-wrap: wrap;
  align-items: flex-start;
  gap: 6px;
  pointer-events: none;
  transition: opacity 0.3s;
  > * {
    pointer-events: auto;
  }
  /* over the picture and idle (useAutoHideControls): out of sight; on a touch screen taps go
     to the game (with a mouse the move to a control brings the row back before the click) */
  &[data-hidden='true'] {
    opacity: 0;
  }
  @media (hover: none) {
    &[data-hidden='true'] > * {
      pointer-events: none;
    }
  }
`;

/** The top row's left group: the back link and the transcript's button. */
const TopLeft = styled.div`
  display: flex;
  align-items: center;
  gap: 6px;
`;

const Back = styled(Link)`
  padding: 8px 12px;
  ${pill}
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
  const topRowRef = useRef<HTMLDivElement | null>(null);
  const [cfg, setCfg] = useState<PlayerConfig>(() => loadPlayerConfig());
  const update = useCallback((patch: Partial<PlayerConfig>) => {
    setCfg((c) => {
      const next = { ...c, ...patch };
      savePlayerConfig(next);
      return next;
    });
  }, []);

  // The game's text as page text (issue 13): a live region, the backlog panel, captions.
  const transcript = useTranscript();
  const onTranscriptMessage = transcript.onHostMessage;
  const [captionPx, setCaptionPx] = useState(0);
  const [keypadPx, setKeypadPx] = useState(0);
  const [statsShown, setStatsShown] = useState(false);
  const fullscreen = useFullscreen();
  // a visitor cannot open マイリスト (verified only): their toast does not point there
  const isVisitor = useAppSelector((s) => !!s.user.user?.isAnonymous);
  const onHostMessage = useCallback(
    (m: HostMessage) => {
      onTranscriptMessage(m);
      if (m.type === 'screenshot-saved') dispatch(pushToast('success', { message: isVisitor ? 'スクリーンショットを保存しました（会員登録するとマイリストで見られます）' : 'スクリーンショットを保存しました（マイリスト）' }));
      if (m.type === 'error' && m.code === 'screenshot_failed') dispatch(pushToast('error', { message: 'スクリーンショットを保存できませんでした。' }));
      if (m.type === 'error' && m.code === 'screenshot_limit') dispatch(pushToast('error', { message: 'スクリーンショットの保存上限に達しました。' }));
    },
    [dispatch, onTranscriptMessage, isVisitor],
  );
  // A visitor is signed in anonymously only after the first auth report (which lets the page
  // render): the session starts once there is a user whose token the api can check.
  const hasUser = useAppSelector((s) => !!s.user.user);
  const visitorSignInFailed = useAppSelector((s) => s.user.user === null && s.user.loginErrorCode !== null);
  const { snap, actions, retry } = usePlaySession(gameId, hasUser, onHostMessage);
  transcript.forSession(snap?.sessionId ?? null);
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
  const pageKeys = useMemo(() => ({ [TRANSCRIPT_KEY]: transcript.toggle }), [transcript.toggle]);
  // A choice picked in the panel is the digit key the keyboard sends for it.
  const onChoose = useCallback(
    (n: number) => {
      const key = choiceKey(n);
      if (!key) return;
      send({ type: 'key', kind: 'down', key });
      send({ type: 'key', kind: 'up', key });
    },
    [send],
  );
  const videoBox = useCallback(() => videoRef.current?.getBoundingClientRect() ?? null, []);

  const onExit = async () => {
    await actions.exit();
    // in the play page's place: Back from the title page must not start the game again
    void router.replace(`/title/${encodeURIComponent(gameId)}`);
  };
  const onCloseOthers = async () => {
    const live = await getSessionAll().catch(() => []);
    await Promise.all(live.map((s) => forceClose(s.sessionId).catch(() => undefined)));
    retry();
  };

  const playing = snap?.step === 'playing' && !snap.failure;
  const padConnected = useGamepad(send, playing);
  const controlsHidden = useAutoHideControls(topRowRef, videoRef, playing);
  const isTouch = typeof window !== 'undefined' && window.matchMedia?.('(pointer: coarse)').matches;
  // a touch screen anywhere (a phone, a laptop with one): the tap / touchpad choice applies
  const hasTouch = typeof window !== 'undefined' && !!window.matchMedia?.('(any-pointer: coarse)').matches;
  const tutorial = playing && isTouch && !cfg.guidance.touchControllerTutorial ? 'touch' : playing && cfg.touchControllerMode === 'touchpad' && !cfg.guidance.controllerKnobTutorial ? 'knob' : null;

  return (
    <Stage data-testid="play-stage" data-step={snap?.step ?? 'start'} data-connection={snap?.connection ?? ''} data-session={snap?.sessionId ?? ''}>
      <FullViewportStyle />
      <video ref={videoRef} autoPlay playsInline data-testid="game-video" style={playing && transcript.captions.on ? { height: `calc(100% - ${captionPx}px)` } : undefined} />
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
          <StartProgress step={snap?.step ?? 'start'} queuePosition={snap?.queuePosition ?? null} title={title} onCancel={() => void onExit()} />
        </Center>
      ) : (
        <>
          <InputLayer mode={cfg.touchControllerMode} knob={cfg.knobPosition} knobFloor={keypadPx > 0 ? keypadPx + KEYPAD_BOTTOM_PX : 0} onKnobMove={(p) => update({ knobPosition: p })} send={send} videoBox={videoBox} pageKeys={pageKeys} />
          <TopRow ref={topRowRef} data-testid="top-row" data-hidden={controlsHidden}>
            <TopLeft>
              <Back href={`/title/${encodeURIComponent(gameId)}`}>← {title}</Back>
              <TranscriptToggle open={transcript.open} onToggle={transcript.toggle} />
            </TopLeft>
            <ControlBar
              volume={cfg.volume}
              quality={cfg.videoQuality}
              touchMode={cfg.touchControllerMode}
              keypadShown={cfg.keypadShown}
              statsShown={statsShown}
              fullscreen={fullscreen.active}
              onStats={() => setStatsShown((s) => !s)}
              onVolume={(volume) => update({ volume })}
              onQuality={(videoQuality) => {
                update({ videoQuality });
                actions.setQuality(videoQuality);
              }}
              onTouchMode={hasTouch ? (touchControllerMode) => update({ touchControllerMode }) : undefined}
              onKeypad={() => update({ keypadShown: !cfg.keypadShown })}
              onFullscreen={fullscreen.toggle}
              onScreenshot={() => actions.screenshot()}
              onExit={() => void onExit()}
            />
          </TopRow>
          <LiveTranscript entries={transcript.state.live} />
          {transcript.captions.on && <Captions line={currentLine(transcript.state)} size={transcript.captions.size} onHeight={setCaptionPx} />}
          {transcript.open && <TranscriptPanel transcript={transcript} onChoose={onChoose} />}
          {(cfg.keypadShown || cfg.keypadPinned) && (
            <Keypad
              onHeight={setKeypadPx}
              pinned={cfg.keypadPinned}
              gamepadConnected={padConnected}
              onPin={() => update({ keypadPinned: !cfg.keypadPinned })}
              onKey={(key: NamedKey) => {
                send({ type: 'key', kind: 'down', key });
                send({ type: 'key', kind: 'up', key });
                if (!cfg.keypadPinned) update({ keypadShown: false });
              }}
            />
          )}
          {statsShown && <StatsOverlay read={actions.liveStats} />}
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
