/**
 * The title page's licence section (issue 15): a title whose meta.json names a licence ("The
 * Question", Expat) shows its copyright, credits, source and the permission notice; our own
 * titles show none. Rendered through the real title page, with the licence as the api sends it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { screen, within } from '@testing-library/react';
import { renderWithProviders } from '@/test/renderWithProviders';
import type { TitleDetail } from '@/lib/api/catalog';
import TitlePage from '@/pages/title/[id]';
import { TitleLicense } from './TitleLicense';

jest.mock('@/components/title/TitleActions', () => ({ TitleActions: () => null }));

const ROOT = path.resolve(__dirname, '..', '..');
const meta = JSON.parse(fs.readFileSync(path.join(ROOT, 'games/the-question/meta.json'), 'utf8')) as Record<string, unknown>;
const licenseText = fs.readFileSync(path.join(ROOT, 'games/the-question/LICENSE'), 'utf8');

const base: TitleDetail = {
  id: 'the-question',
  title: 'The Question',
  reading: 'ざ・くえすちょん',
  brandId: 'renpy',
  brand: "Ren'Py",
  description: '説明',
  tags: ['恋愛'],
  genres: ['恋愛'],
  releaseDate: '2023-02-25',
  keyArt: '/games/the-question/keyart.png',
  ageRating: 'all',
  plays: 0,
  premium: false,
  brandReading: 'れんぱい',
  screenshots: [],
  gameFolder: 'the-question',
};

const license = {
  name: meta.license as string,
  copyright: meta.copyright as string,
  credits: meta.credits as string[],
  source: meta.source as string,
  text: licenseText.trim(),
};

describe('TitleLicense', () => {
  it('shows the copyright, the licence, every credit, the source and the whole permission notice', () => {
    renderWithProviders(<TitleLicense license={license} />);
    const section = screen.getByTestId('title-license');
    expect(within(section).getByRole('heading', { name: 'ライセンスとクレジット' })).toBeInTheDocument();
    expect(screen.getByTestId('license-copyright')).toHaveTextContent('© 2004-2022 Tom Rothamel and contributors');
    expect(section).toHaveTextContent('Expat (MIT)');
    expect(section).toHaveTextContent('Debian renpy-thequestion 8.0.3+dfsg-1');
    const credits = within(within(section).getByRole('list', { name: 'クレジット' })).getAllByRole('listitem');
    expect(credits.map((li) => li.textContent)).toEqual(meta.credits);
    expect(credits.map((li) => li.textContent)).toContain('音楽: Alessio');
    const notice = screen.getByTestId('license-text');
    expect(notice).toHaveTextContent('Permission is hereby granted, free of charge');
    expect(notice).toHaveTextContent('The above copyright notice and this permission notice shall be included in all copies');
    expect(notice).toHaveTextContent('THE SOFTWARE IS PROVIDED "AS IS"');
    expect(within(notice).getAllByRole('paragraph', { hidden: true }).length).toBeGreaterThanOrEqual(4);
  });
});

describe('the title page and a licence', () => {
  it('shows the licence section, linkable as #license, for a title that has one', () => {
    renderWithProviders(<TitlePage game={{ ...base, license }} related={[]} />);
    const section = screen.getByTestId('title-license');
    expect(section).toHaveAttribute('id', 'license');
    expect(section).toHaveTextContent('Tom Rothamel');
  });

  it('shows none for a title without a licence (our own titles)', () => {
    renderWithProviders(<TitlePage game={{ ...base, id: 'hajimari-no-eki' }} related={[]} />);
    expect(screen.getByTestId('title-description')).toBeInTheDocument();
    expect(screen.queryByTestId('title-license')).toBeNull();
  });
});
