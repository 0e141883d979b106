import { screen } from '@testing-library/react';
import { renderWithProviders } from '@/test/renderWithProviders';
import { Button, BUTTON_SIZES, BUTTON_VARIANTS } from './Button';
import { Spinner, SPINNER_SIZES } from './Spinner';
import { EmptyState } from './EmptyState';

describe('Button', () => {
  it('offers the seven variants and two sizes of the spec', () => {
    expect(BUTTON_VARIANTS).toEqual(['normal', 'primary', 'attention', 'destructive', 'intense', 'text', 'text-attention']);
    expect(BUTTON_SIZES).toEqual(['normal', 'large']);
  });
  it.each(BUTTON_VARIANTS)('renders the %s variant in both sizes', (variant) => {
    for (const size of BUTTON_SIZES) {
      const { unmount } = renderWithProviders(
        <Button $variant={variant} $size={size}>
          押す
        </Button>,
      );
      const b = screen.getByRole('button', { name: '押す' });
      expect(b).toHaveAttribute('data-variant', variant);
      expect(b).toHaveAttribute('data-size', size);
      expect(b).toHaveAttribute('type', 'button');
      unmount();
    }
  });
  it('gives large buttons a taller hit area than normal ones', () => {
    renderWithProviders(
      <>
        <Button $size="normal">小</Button>
        <Button $size="large">大</Button>
      </>,
    );
    const small = getComputedStyle(screen.getByText('小')).minHeight;
    const large = getComputedStyle(screen.getByText('大')).minHeight;
    expect(parseInt(large, 10)).toBeGreaterThan(parseInt(small, 10));
  });
});

describe('Spinner', () => {
  it('comes in small, normal and large', () => {
    expect(SPINNER_SIZES).toEqual(['small', 'normal', 'large']);
    renderWithProviders(
      <>
        {SPINNER_SIZES.map((s) => (
          <Spinner key={s} size={s} label={s} />
        ))}
      </>,
    );
    const widths = SPINNER_SIZES.map((s) => parseInt(getComputedStyle(screen.getByLabelText(s)).width, 10));
    expect(widths[0]).toBeLessThan(widths[1]);
    expect(widths[1]).toBeLessThan(widths[2]);
  });
});

describe('EmptyState', () => {
  it('shows its Japanese title', () => {
    renderWithProviders(<EmptyState title="まだブックマークはありません" />);
    expect(screen.getByText('まだブックマークはありません')).toBeInTheDocument();
  });
});
