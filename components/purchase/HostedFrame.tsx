/**
 * One of the payment processor's hosted pages (the card form, the 3-D Secure challenge) in an
 * iframe. The page runs on the processor's origin, so the card number never passes through our
 * page (issue 9 §5). Its results come by postMessage: only messages from `origin` (named by our
 * api) and from this very frame are taken (lib/purchase/hostedMessages.ts); everything else on
 * the window is ignored. A spinner shows until the page says it is ready; a page that never
 * answers gets a Japanese message and a way to load it again.
 */
import { useEffect, useRef, useState } from 'react';
import styled from 'styled-components';
import { Button } from '@/components/ui/Button';
import { Spinner } from '@/components/ui/Spinner';
import { FormMessage } from '@/components/form/Field';
import { parseHostedMessage, type HostedMessage } from '@/lib/purchase/hostedMessages';

const Wrap = styled.div`
  position: relative;
  border-radius: 12px;
  overflow: hidden;
  background: #fff;
  margin: 0 0 16px;
  iframe {
    display: block;
    width: 100%;
    border: 0;
  }
  .waiting {
    position: absolute;
    inset: 0;
    display: flex;
    flex-direction: column;
    align-items: center;
    justify-content: center;
    gap: 10px;
    background: ${({ theme }) => theme.surface};
    color: ${({ theme }) => theme.textMuted};
  }
`;

/** How long the hosted page may take to say it is ready before we say something is wrong. */
export const READY_TIMEOUT_MS = 20_000;

interface Props {
  url: string;
  origin: string;
  title: string;
  /** Shown while the page loads. */
  loadingLabel: string;
  initialHeight: number;
  onMessage: (message: HostedMessage) => void;
  /** The card form says `ready`; the challenge page does not, so its load event counts. */
  readyOnLoad?: boolean;
  testId?: string;
}

export function HostedFrame({ url, origin, title, loadingLabel, initialHeight, onMessage, readyOnLoad = false, testId }: Props) {
  const frame = useRef<HTMLIFrameElement>(null);
  const [height, setHeight] = useState(initialHeight);
  const [ready, setReady] = useState(false);
  const [slow, setSlow] = useState(false);
  const [reloads, setReloads] = useState(0);
  const handler = useRef(onMessage);
  useEffect(() => {
    handler.current = onMessage;
  }, [onMessage]);

  useEffect(() => {
    function listen(event: MessageEvent) {
      if (frame.current && event.source !== frame.current.contentWindow) return;
      const message = parseHostedMessage(event.origin, event.data, origin);
      if (!message) return;
      if (message.type === 'ready') {
        setReady(true);
        setSlow(false);
      }
      if (message.type === 'resize') setHeight(message.height);
      handler.current(message);
    }
    window.addEventListener('message', listen);
    return () => window.removeEventListener('message', listen);
  }, [origin]);

  useEffect(() => {
    if (ready) return;
    const t = setTimeout(() => setSlow(true), READY_TIMEOUT_MS);
    return () => clearTimeout(t);
  }, [ready, reloads]);

  return (
    <>
      {slow && !ready && (
        <FormMessage $kind="error" role="alert" data-testid="hosted-slow">
          フォームを読み込めませんでした。通信環境を確認して、もう一度お試しください。
          <br />
          <Button
            $variant="normal"
            onClick={() => {
              setSlow(false);
              setReloads((n) => n + 1);
            }}
          >
            もう一度読み込む
          </Button>
        </FormMessage>
      )}
      <Wrap style={{ height }} data-testid={testId} data-ready={ready ? 'true' : 'false'}>
        <iframe
          key={reloads}
          ref={frame}
          src={url}
          title={title}
          height={height}
          sandbox="allow-scripts allow-forms allow-same-origin"
          referrerPolicy="no-referrer"
          onLoad={() => {
            if (readyOnLoad) setReady(true);
          }}
        />
        {!ready && (
          <div className="waiting" aria-live="polite">
            <Spinner label={loadingLabel} />
            <span>{loadingLabel}</span>
          </div>
        )}
      </Wrap>
    </>
  );
}
