/**
 * The licence of a title that is someone else's open-source game (issue 15: "The Question", a
 * Ren'Py sample game under the Expat (MIT) licence). Its key art and screenshots are copies of
 * the game's art, and the licence asks that the copyright and permission notice go with every
 * copy, so the title page shows the copyright, the credits, the source and the licence's text
 * (as written: a legal text is not translated). Titles without a licence show nothing.
 */
import styled from 'styled-components';
import { Section, SectionTitle } from '@/components/ui/Page';
import { FactList } from '@/components/ui/Panel';
import type { TitleLicenseWire } from '@/lib/api-types/schemas/catalog';

const Credits = styled.ul`
  list-style: none;
  padding: 0;
  margin: 0;
  line-height: 1.8;
`;

const Notice = styled.details`
  max-width: 760px;
  font-size: 0.85rem;
  color: ${({ theme }) => theme.textMuted};
  summary {
    cursor: pointer;
    color: ${({ theme }) => theme.text};
  }
  p {
    line-height: 1.7;
    overflow-wrap: anywhere;
  }
`;

export function TitleLicense({ license }: { license: TitleLicenseWire }) {
  const paragraphs = license.text.split(/\n\s*\n/).map((p) => p.trim()).filter(Boolean);
  return (
    <Section id="license" data-testid="title-license" aria-labelledby="title-license-heading">
      <SectionTitle id="title-license-heading">ライセンスとクレジット</SectionTitle>
      <FactList>
        <dt>著作権</dt>
        <dd data-testid="license-copyright">© {license.copyright}</dd>
        <dt>ライセンス</dt>
        <dd>{license.name}</dd>
        <dt>クレジット</dt>
        <dd>
          <Credits aria-label="クレジット">
            {license.credits.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </Credits>
        </dd>
        <dt>配布元</dt>
        <dd>{license.source}</dd>
      </FactList>
      <Notice data-testid="license-text">
        <summary>ライセンス全文（英語の原文）</summary>
        {paragraphs.map((p) => (
          <p key={p}>{p}</p>
        ))}
      </Notice>
    </Section>
  );
}
