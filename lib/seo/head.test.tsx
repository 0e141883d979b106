import { buildSeo, cutDescription, siteSearchJsonLd, DEFAULT_DESCRIPTION, jsonLdString } from './head';

describe('page head rules', () => {
  const game = { id: 'hoshi', title: '星降る図書館', description: 'あ\nい\r\nう'.padEnd(300, 'え'), keyArt: '/games/hoshi/keyart.png' };

  it('titles a game page with the game title and the product name, canonical to /title/{id}', () => {
    const seo = buildSeo({ game }, false);
    expect(seo.title).toBe('星降る図書館 | Yumecast');
    expect(seo.canonical).toMatch(/\/title\/hoshi$/);
    expect(seo.openGraph?.images?.[0].url).toMatch(/\/games\/hoshi\/keyart\.png$/);
  });

  it('removes line breaks and cuts the description to 140 characters', () => {
    const d = buildSeo({ game }, false).description!;
    expect(d).not.toMatch(/[\r\n]/);
    expect(Array.from(d)).toHaveLength(140);
    expect(d.startsWith('あいう')).toBe(true);
    expect(cutDescription('😀'.repeat(200))).toBe('😀'.repeat(140));
  });

  it('has a Japanese default description and a site-search entry pointing at /search?q=', () => {
    const seo = buildSeo({}, false);
    expect(seo.description).toBe(DEFAULT_DESCRIPTION);
    expect(DEFAULT_DESCRIPTION).toMatch(/[ぁ-んァ-ン]/);
    const ld = siteSearchJsonLd() as { potentialAction: { target: { urlTemplate: string } } };
    expect(ld.potentialAction.target.urlTemplate).toMatch(/\/search\?q=\{search_term_string\}$/);
  });

  it('marks pages no-index when log-enable is on', () => {
    expect(buildSeo({}, true).noindex).toBe(true);
    expect(buildSeo({ game }, true).noindex).toBe(true);
    expect(buildSeo({}, false).noindex).toBe(false);
  });

  it('escapes </script> in structured data', () => {
    expect(jsonLdString({ a: '</script>' })).not.toContain('</script>');
  });
});
