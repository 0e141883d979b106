import styled, { keyframes } from 'styled-components';

/** Spinner sizes of spec section 9. */
export const SPINNER_SIZES = ['small', 'normal', 'large'] as const;
export type SpinnerSize = (typeof SPINNER_SIZES)[number];
const PX: Record<SpinnerSize, number> = { small: 16, normal: 28, large: 48 };

const spin = keyframes`to { transform: rotate(360deg); }`;

const Ring = styled.span<{ $px: number }>`
  display: inline-block;
  width: ${({ $px }) => $px}px;
  height: ${({ $px }) => $px}px;
  border: ${({ $px }) => Math.max(2, Math.round($px / 8))}px solid ${({ theme }) => theme.border};
  border-top-color: ${({ theme }) => theme.primary};
  border-radius: 50%;
  animation: ${spin} 0.8s linear infinite;
`;

export function Spinner({ size = 'normal', label = '読み込み中' }: { size?: SpinnerSize; label?: string }) {
  return <Ring $px={PX[size]} role="status" aria-label={label} data-size={size} />;
}

const Center = styled.div`
  display: flex;
  flex-direction: column;
  align-items: center;
  justify-content: center;
  gap: 12px;
  min-height: 40vh;
  color: ${({ theme }) => theme.textMuted};
`;

/** A full-area loading state with a visible Japanese label. */
export function LoadingBlock({ label = '読み込み中…' }: { label?: string }) {
  return (
    <Center data-testid="loading-gate">
      <Spinner size="large" label={label} />
      <span>{label}</span>
    </Center>
  );
}
