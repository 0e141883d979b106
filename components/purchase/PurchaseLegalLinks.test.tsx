/**
 * The purchase pages' legal links (terms, privacy, 特定商取引法に基づく表記): each at least 24 px to
 * tap, as the footer's copies of them (the text alone is 22 px on a phone).
 */
import { screen } from '@testing-library/react';
import { renderWithProviders } from '@/test/renderWithProviders';
import { PurchaseLegalLinks } from './PurchaseLegalLinks';

describe('PurchaseLegalLinks', () => {
  it('links the three legal pages, each a tap target of at least 24 px', () => {
    renderWithProviders(<PurchaseLegalLinks />);
    const links = screen.getAllByRole('link');
    expect(links.map((a) => a.getAttribute('href'))).toEqual(['/terms', '/privacy', '/tokushoho']);
    for (const a of links) {
      const style = getComputedStyle(a);
      expect(style.display).toBe('inline-flex');
      expect(parseFloat(style.minHeight)).toBeGreaterThanOrEqual(24);
    }
  });
});
