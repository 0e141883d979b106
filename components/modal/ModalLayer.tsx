/**
 * The one modal layer (spec section 2): the store's modal, looked up in the registry, in a
 * dimmed overlay with a close button. As a dialog (issue 12): named by its heading, focus kept
 * inside while open and given back to the opener on close (useFocusTrap), Escape closes.
 */
import { useEffect, useId, useRef, useState } from 'react';
import styled, { css } from 'styled-components';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { hideModal, type ModalNode, type ModalProps } from '@/store/slices/modal';
import { Icon } from '@/components/layout/icons';
import { media } from '@/styles/breakpoints';
import { MODAL_REGISTRY } from './registry';
import { useFocusTrap } from './useFocusTrap';

/** Modal transition timeout of spec section 9. */
export const MODAL_TRANSITION_MS = 500;

const Overlay = styled.div<{ $shown: boolean }>`
  position: fixed;
  inset: 0;
  z-index: 100;
  display: flex;
  align-items: center;
  justify-content: center;
  padding: 16px;
  background: ${({ theme }) => theme.overlay};
  opacity: ${({ $shown }) => ($shown ? 1 : 0)};
  transition: opacity ${MODAL_TRANSITION_MS}ms ease;
`;

const Dialog = styled.div<{ $shown: boolean }>`
  position: relative;
  width: 100%;
  max-width: 440px;
  max-height: calc(100vh - 32px);
  overflow-y: auto;
  padding: 32px 24px 24px;
  border-radius: 16px;
  background: ${({ theme }) => theme.surface};
  color: ${({ theme }) => theme.text};
  box-shadow: 0 16px 48px rgba(0, 0, 0, 0.4);
  transition: transform ${MODAL_TRANSITION_MS}ms ease;
  /* The dialog itself takes focus when it opens (useFocusTrap): it is no control, so no ring. */
  &:focus {
    outline: none;
  }
  ${({ $shown }) =>
    $shown
      ? css`
          transform: none;
        `
      : css`
          transform: translateY(16px);
        `}
  ${media.mobile} {
    padding: 28px 16px 20px;
  }
`;

const Close = styled.button`
  position: absolute;
  top: 8px;
  right: 8px;
  width: 40px;
  height: 40px;
  border: 0;
  border-radius: 50%;
  background: transparent;
  color: ${({ theme }) => theme.textMuted};
  cursor: pointer;
`;

interface Shown {
  node: ModalNode;
  props: ModalProps;
}

/**
 * The one modal layer (spec section 2): a dimmed overlay with a close button; the body does
 * not scroll while it is open; it fades in and out in 500 ms. What it shows is the store's
 * modal `node`, looked up in the registry.
 */
export function ModalLayer() {
  const dispatch = useAppDispatch();
  const { node, props } = useAppSelector((s) => s.modal);
  const [rendered, setRendered] = useState<Shown | null>(null);
  const [entered, setEntered] = useState(false);
  const dialogRef = useRef<HTMLDivElement>(null);
  const titleId = useId();
  useFocusTrap(dialogRef, node !== null && rendered !== null);

  // Keep showing the last modal while it fades out; pick up a new one at once.
  if (node && (rendered?.node !== node || rendered.props !== props)) setRendered({ node, props });

  useEffect(() => {
    if (node) {
      const raf = requestAnimationFrame(() => setEntered(true));
      return () => cancelAnimationFrame(raf);
    }
    const t = setTimeout(() => {
      setRendered(null);
      setEntered(false);
    }, MODAL_TRANSITION_MS);
    return () => clearTimeout(t);
  }, [node]);
  const shown = entered && node !== null;

  useEffect(() => {
    if (!rendered) return;
    document.body.classList.add('modal-open');
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && dispatch(hideModal());
    window.addEventListener('keydown', onKey);
    return () => {
      document.body.classList.remove('modal-open');
      window.removeEventListener('keydown', onKey);
    };
  }, [rendered, dispatch]);

  if (!rendered) return null;
  const Body = MODAL_REGISTRY[rendered.node];
  const close = () => dispatch(hideModal());
  return (
    <Overlay $shown={shown} onClick={close} data-testid="modal-overlay">
      <Dialog
        ref={dialogRef}
        $shown={shown}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        data-testid={`modal-${rendered.node}`}
        onClick={(e) => e.stopPropagation()}
      >
        <Close type="button" onClick={close} aria-label="閉じる" data-testid="modal-close">
          <Icon name="close" />
        </Close>
        <Body {...rendered.props} onClose={close} titleId={titleId} />
      </Dialog>
    </Overlay>
  );
}
