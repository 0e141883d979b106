import styled from 'styled-components';
import type { LegalDocument } from '@/content/legal/types';
import { PageHead } from '@/components/seo/PageHead';
import { PageFrame } from '@/components/ui/Page';

const Body = styled.article`
  line-height: 1.9;
  h2 {
    font-size: 1.1rem;
    margin: 32px 0 8px;
  }
  p {
    margin: 0 0 12px;
  }
  ol,
  ul {
    margin: 0 0 12px;
    padding-left: 1.5em;
  }
  .updated {
    color: ${({ theme }) => theme.textMuted};
    font-size: 0.9rem;
  }
`;

/** Renders one of the policy texts in content/legal. */
export function LegalPage({ doc, path }: { doc: LegalDocument; path: string }) {
  return (
    <>
      <PageHead title={doc.title} description={doc.intro.join('')} path={path} />
      <PageFrame title={doc.title} narrow>
        <Body>
          <p className="updated">最終更新日：{doc.updatedAt.replace(/^(\d+)-(\d+)-(\d+)$/, '$1年$2月$3日')}</p>
          {doc.intro.map((p) => (
            <p key={p}>{p}</p>
          ))}
          {doc.sections.map((s) => (
            <section key={s.heading}>
              <h2>{s.heading}</h2>
              {s.paragraphs.map((p) => (
                <p key={p}>{p}</p>
              ))}
              {s.items && (
                <ol>
                  {s.items.map((i) => (
                    <li key={i}>{i}</li>
                  ))}
                </ol>
              )}
            </section>
          ))}
        </Body>
      </PageFrame>
    </>
  );
}
