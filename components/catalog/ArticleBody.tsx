/**
 * A magazine article's body: the HTML the server rendered from its Markdown
 * (lib/catalog/markdownHtml.ts, in the page's getStaticProps), in the magazine's typography.
 */
import styled from 'styled-components';

const Body = styled.div`
  line-height: 1.95;
  font-size: 1rem;
  h2 {
    margin: 2em 0 0.6em;
    font-size: 1.25rem;
    padding-bottom: 4px;
    border-bottom: 1px solid ${({ theme }) => theme.border};
  }
  h3 {
    margin: 1.6em 0 0.5em;
    font-size: 1.1rem;
  }
  p {
    margin: 0 0 1.1em;
  }
  blockquote {
    margin: 0 0 1.1em;
    padding: 4px 16px;
    border-left: 4px solid ${({ theme }) => theme.primary};
    color: ${({ theme }) => theme.textMuted};
  }
  ul,
  ol {
    margin: 0 0 1.1em;
    padding-left: 1.5em;
  }
`;

/** `html` comes from markdownToHtml only (escaped, no raw HTML, safe links). */
export function ArticleBody({ html }: { html: string }) {
  return <Body data-testid="article-body" dangerouslySetInnerHTML={{ __html: html }} />;
}
