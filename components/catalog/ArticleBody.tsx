import Markdown from 'react-markdown';
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

/**
 * An article's Japanese Markdown (content/magazine/README.md) as React elements. Raw HTML in the
 * source is dropped (skipHtml), images are not rendered (articles have none; covers come from the
 * catalogue), and links keep react-markdown's safe URL filter.
 */
export function ArticleBody({ markdown }: { markdown: string }) {
  return (
    <Body data-testid="article-body">
      <Markdown skipHtml disallowedElements={['img']} unwrapDisallowed>
        {markdown}
      </Markdown>
    </Body>
  );
}
