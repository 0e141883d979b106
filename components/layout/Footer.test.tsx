/**
 * The footer's links: every spec page of the legal texts and the plans, each one at least 24 px
 * to tap (WCAG 2.2, 2.5.8 Target Size (Minimum); the text alone was 22 px on a phone).
 */
import { screen } from '@testing-library/react';
import { renderWithProviders } from '@/test/renderWithProviders';
import { MIN_TARGET_SIZE } from '@/styles/breakpoints';
import { Footer } from './Footer';

describe('Footer', () => {
  it('links the terms, the privacy policy and the other fixed pages', () => {
    renderWithProviders(<Footer />);
    const links = screen.getAllByRole('link');
    expect(links.map((a) => a.getAttribute('href'))).toEqual(expect.arrayContaining(['/terms', '/privacy', '/tokushoho', '/purpose', '/brand', '/upgrade']));
  });

  it('gives each link a tap target of at least 24 px', () => {
    renderWithProviders(<Footer />);
    expect(MIN_TARGET_SIZE).toBe(24);
    for (const a of screen.getAllByRole('link')) {
      const style = getComputedStyle(a);
      // min-height holds only on a box that is not inline
      expect(style.display).toBe('inline-flex');
      expect(parseFloat(style.minHeight)).toBeGreaterThanOrEqual(24);
    }
  });
});
