/**
 * The modal layer's notices: route blocked (login needed), settings on a wide screen without a
 * login, and a plain message. Each heading names its dialog (ModalLayer's aria-labelledby).
 */
import styled from 'styled-components';
import { Button } from '@/components/ui/Button';
import { VisuallyHidden } from '@/components/ui/VisuallyHidden';
import { useAppDispatch } from '@/store/hooks';
import { displayModal } from '@/store/slices/modal';
import type { ModalBodyProps } from './types';

const Wrap = styled.div`
  display: flex;
  flex-direction: column;
  gap: 16px;
  text-align: center;
  h2 {
    margin: 0;
    font-size: 1.15rem;
  }
  p {
    margin: 0;
    color: ${({ theme }) => theme.textMuted};
    line-height: 1.7;
  }
`;

function reload() {
  window.location.reload();
}

/**
 * Shown when a route change to a verified-only page was cancelled ("routing exception",
 * spec section 8). Its action reloads the page; the user may also log in from here.
 */
export function RouteBlockedModal({ onClose, href, titleId }: ModalBodyProps) {
  const dispatch = useAppDispatch();
  return (
    <Wrap data-testid="route-blocked-modal">
      <h2 id={titleId}>ログインが必要です</h2>
      <p>このページを見るには、メールアドレスを登録したアカウントでのログインが必要です。</p>
      <Button $variant="primary" $block onClick={() => dispatch(displayModal({ node: 'login', props: { href } }))}>
        ログイン・新規登録
      </Button>
      <Button $variant="text" $block onClick={reload} data-testid="modal-reload">
        ページを再読み込み
      </Button>
      <Button $variant="text" $block onClick={onClose}>
        閉じる
      </Button>
    </Wrap>
  );
}

/** /settings on a wide screen without a verified user (spec section 4): the action reloads. */
export function SettingsWideModal({ titleId }: ModalBodyProps) {
  const dispatch = useAppDispatch();
  return (
    <Wrap data-testid="settings-wide-modal">
      <h2 id={titleId}>設定を開くにはログインしてください</h2>
      <p>設定はログインしたアカウントごとに保存されます。ログイン後、ページを再読み込みしてください。</p>
      <Button $variant="primary" $block onClick={() => dispatch(displayModal({ node: 'login' }))}>
        ログイン・新規登録
      </Button>
      <Button $variant="normal" $block onClick={reload} data-testid="modal-reload">
        再読み込み
      </Button>
    </Wrap>
  );
}

/** A plain message, for errors and confirmations that need the user's attention. */
export function MessageModal({ title, message, onClose, titleId }: ModalBodyProps) {
  return (
    <Wrap data-testid="message-modal">
      {/* A message without a title still names its dialog, for screen readers only. */}
      {title ? <h2 id={titleId}>{title}</h2> : <VisuallyHidden as="h2" id={titleId}>お知らせ</VisuallyHidden>}
      {message && <p>{message}</p>}
      <Button $variant="primary" $block onClick={onClose}>
        OK
      </Button>
    </Wrap>
  );
}
