/**
 * A magazine article's Markdown turned into HTML on the server (issue 12): the article page's
 * getStaticProps calls this, so react-markdown and its parser never reach the browser (they were
 * ~35 kB gzip of the article page's first load). Server-only: import it from getStaticProps /
 * getServerSideProps alone, which Next strips from the page's browser bundle.
 *
 * The rules are the ones the page used to apply in the browser (content/magazine/README.md):
 * raw HTML in the source is dropped (skipHtml), images are not rendered (articles have none;
 * covers come from the catalogue), and links keep react-markdown's safe URL filter. React's
 * server renderer escapes every text, so the result is safe to set as the body's inner HTML.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import Markdown from 'react-markdown';

export function markdownToHtml(markdown: string): string {
  return renderToStaticMarkup(createElement(Markdown, { skipHtml: true, disallowedElements: ['img'], unwrapDisallowed: true }, markdown));
}
