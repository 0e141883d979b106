/**
 * The button kit of spec section 9: seven variants, two sizes, as <button>, <a> and Next.js
 * link. Each fill's text colour comes from the theme (styles/theme.ts: AA contrast on the
 * fill), and every variant shows the theme's focus ring when focused by keyboard.
 */
import type { ButtonHTMLAttributes } from 'react';
import { Link } from './Link';
import styled, { css } from 'styled-components';

/** Button variants and sizes of spec section 9. */
export const BUTTON_VARIANTS = ['normal', 'primary', 'attention', 'destructive', 'intense', 'text', 'text-attention'] as const;
export const BUTTON_SIZES = ['normal', 'large'] as const;
export type ButtonVariant = (typeof BUTTON_VARIANTS)[number];
export type ButtonSize = (typeof BUTTON_SIZES)[number];

export interface ButtonStyleProps {
  $variant?: ButtonVariant;
  $size?: ButtonSize;
  $block?: boolean;
}

const variantCss = {
  normal: css`
    background: ${({ theme }) => theme.surfaceRaised};
    color: ${({ theme }) => theme.text};
    border-color: ${({ theme }) => theme.border};
  `,
  primary: css`
    background: ${({ theme }) => theme.primary};
    color: ${({ theme }) => theme.primaryText};
  `,
  attention: css`
    background: ${({ theme }) => theme.attention};
    color: ${({ theme }) => theme.attentionText};
  `,
  destructive: css`
    background: ${({ theme }) => theme.destructive};
    color: ${({ theme }) => theme.destructiveText};
  `,
  intense: css`
    background: ${({ theme }) => theme.intense};
    color: ${({ theme }) => theme.intenseText};
  `,
  text: css`
    background: transparent;
    color: ${({ theme }) => theme.text};
    padding-left: 4px;
    padding-right: 4px;
  `,
  'text-attention': css`
    background: transparent;
    color: ${({ theme }) => theme.attention};
    padding-left: 4px;
    padding-right: 4px;
  `,
} satisfies Record<ButtonVariant, ReturnType<typeof css>>;

/** Shared look for <button> and link-styled buttons (ButtonLink). */
export const buttonStyle = css<ButtonStyleProps>`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  gap: 8px;
  border: 1px solid transparent;
  border-radius: 8px;
  font: inherit;
  font-weight: 700;
  text-decoration: none;
  cursor: pointer;
  transition: filter 0.15s, opacity 0.15s;
  min-height: ${({ $size }) => ($size === 'large' ? '52px' : '40px')};
  padding: 0 ${({ $size }) => ($size === 'large' ? '28px' : '16px')};
  font-size: ${({ $size }) => ($size === 'large' ? '1.05rem' : '0.95rem')};
  width: ${({ $block }) => ($block ? '100%' : 'auto')};
  ${({ $variant = 'normal' }) => variantCss[$variant]}
  &:hover:not(:disabled) {
    filter: brightness(1.1);
  }
  &:disabled {
    opacity: 0.5;
    cursor: not-allowed;
  }
  &:focus-visible {
    outline: 2px solid ${({ theme }) => theme.focus};
    outline-offset: 2px;
  }
`;

const StyledButton = styled.button<ButtonStyleProps>`
  ${buttonStyle}
`;

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement>, ButtonStyleProps {}

/** A button in one of the seven variants and two sizes; type defaults to "button". */
export function Button({ type = 'button', $variant = 'normal', $size = 'normal', ...rest }: ButtonProps) {
  return <StyledButton type={type} $variant={$variant} $size={$size} data-variant={$variant} data-size={$size} {...rest} />;
}

export const ButtonLink = styled.a<ButtonStyleProps>`
  ${buttonStyle}
`;

/** A Next.js link (client-side navigation) that looks like a button. */
export const LinkButton = styled(Link)<ButtonStyleProps>`
  ${buttonStyle}
`;
