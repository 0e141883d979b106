/**
 * The HTML document of every page: server-rendered styled-components CSS (every page arrives
 * styled, no flash), and the Content-Security-Policy nonce (issue 10, docs/security.md).
 *
 * proxy.ts hands a fresh nonce to pages rendered for the request (x-nonce). When this document
 * renders with one, the nonce goes on Next's scripts and links (<Head>, <NextScript>), on
 * styled-components' server <style> (ServerStyleSheet) and, through <meta property="csp-nonce">,
 * on the <style> styled-components creates in the browser; and the response's policy becomes
 * the nonce policy, set here, by the render that wrote the nonce into this very HTML. Pages
 * built before any request keep the static policy (proxy.ts's, or next.config.ts's for the
 * prerendered, revalidated routes, which the proxy does not see) and carry no nonce: a nonce
 * header on a request for one of those (which no proxy removed) is ignored.
 *
 * The head is GatedHead (below): Next's head, with the page's scripts run by the boot gate once
 * the page's main picture is painted (issue 12, docs/web-performance.md), on the pages that
 * preload their picture only (`/`, the title page, /search, /brand, the article); the others
 * (/magazine, /upgrade, the members' pages: their largest paint is text) keep Next's defer
 * scripts.
 *
 * The head also links the web app manifest (public/manifest.webmanifest, issue 13: the site can
 * be added to the home screen and opens full screen; the policy's `manifest-src 'self'` allows it)
 * with the theme colour and Apple's home-screen tags (iPhone reads those, not the manifest's
 * display mode).
 */
import Document, { Head, Html, Main, NextScript, type DocumentContext, type DocumentInitialProps } from 'next/document';
import { isValidElement, type ReactElement, type ReactNode } from 'react';
import { ServerStyleSheet } from 'styled-components';
import { BOOT_GATE_SCRIPT, BOOT_LIST_ID } from '@/lib/security/bootGate';
import { contentSecurityPolicy, NONCE_HEADER, PRERENDERED_ROUTES, siteCspSources } from '@/lib/security/csp';
import { darkTheme } from '@/styles/theme';

type ScriptElement = ReactElement<{ src?: string; nonce?: string }>;

/** `<script src>` elements among what Next rendered (inline ones, e.g. Turbopack's bootstrap, kept as they are). */
function split(nodes: ReactNode): { external: ScriptElement[]; others: ReactNode[] } {
  const external: ScriptElement[] = [];
  const others: ReactNode[] = [];
  for (const node of Array.isArray(nodes) ? nodes : [nodes]) {
    if (isValidElement(node) && node.type === 'script' && typeof (node as ScriptElement).props.src === 'string') external.push(node as ScriptElement);
    else if (node) others.push(node);
  }
  return { external, others };
}

/**
 * The document's <head>, on a page that preloads its main picture with the page's scripts behind
 * the boot gate (lib/security/bootGate.ts; issue 12, docs/web-performance.md "The page's scripts
 * after its picture"). Next writes each chunk as `<script src defer>`, which the browser runs as
 * soon as the HTML is parsed: on a fast connection before the page's main picture is painted,
 * which then waits for the framework's compile and the hydration. This head keeps all Next
 * writes but those scripts, whose URLs it writes as JSON for the inline gate, which loads and
 * runs them in the same order once the picture is painted. Next's own methods make the list
 * (getDynamicChunks, then getScripts, in render()'s order), so its chunk order and nonce are kept
 * (we set no `crossOrigin`: the chunks are our origin's).
 */
class GatedHead extends Head {
  private gated: ScriptElement[] = [];
  /** preloadsPicture()'s answer, worked out on first use (one head renders one page). */
  private picture: boolean | undefined;

  /**
   * Whether the page preloads a picture (next/image `preload`: a `<link rel=preload as=image>`
   * in the page's head): the gate is for those pages. A page whose largest paint is text keeps
   * Next's scripts as they are: its text is shown with the first paint, and holding its scripts
   * until then cost its hydration 0.3–0.9 s on a throttled phone (docs/performance.md, sixth round).
   */
  private preloadsPicture(): boolean {
    if (this.picture === undefined) {
      const head = (this.context as { head?: ReactNode[] }).head ?? [];
      this.picture = head.some((el) => isValidElement<{ rel?: string; as?: string }>(el) && el.type === 'link' && el.props.rel === 'preload' && el.props.as === 'image');
    }
    return this.picture;
  }

  getDynamicChunks(files: Parameters<Head['getDynamicChunks']>[0]) {
    if (!this.preloadsPicture()) return super.getDynamicChunks(files);
    const { external, others } = split(super.getDynamicChunks(files));
    this.gated.push(...external);
    return others as ReturnType<Head['getDynamicChunks']>;
  }

  getScripts(files: Parameters<Head['getScripts']>[0]) {
    if (!this.preloadsPicture()) return super.getScripts(files);
    const { external, others } = split(super.getScripts(files));
    const all = [...this.gated, ...external];
    const nonce = all[0]?.props.nonce ?? this.props.nonce;
    const list = JSON.stringify(all.map((s) => s.props.src)).replace(/</g, '\\u003c');
    return [
      ...others,
      <script key="boot-list" id={BOOT_LIST_ID} type="application/json" dangerouslySetInnerHTML={{ __html: list }} />,
      <script key="boot-gate" nonce={nonce} dangerouslySetInnerHTML={{ __html: BOOT_GATE_SCRIPT }} />,
    ] as unknown as ReturnType<Head['getScripts']>;
  }
}

interface Props extends DocumentInitialProps {
  nonce?: string;
}

/** The proxy's nonce (base64 of 16 bytes), or none. */
function requestNonce(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  return value && /^[A-Za-z0-9+/]{22}==$/.test(value) ? value : undefined;
}

export default class AppDocument extends Document<Props> {
  static async getInitialProps(ctx: DocumentContext): Promise<Props> {
    const prerendered = (PRERENDERED_ROUTES as readonly string[]).includes(ctx.pathname);
    const nonce = prerendered ? undefined : requestNonce(ctx.req?.headers[NONCE_HEADER]);
    const sheet = new ServerStyleSheet(nonce ? { nonce } : undefined);
    const originalRenderPage = ctx.renderPage;
    try {
      ctx.renderPage = () =>
        originalRenderPage({ enhanceApp: (App) => (props) => sheet.collectStyles(<App {...props} />) });
      const initialProps = await Document.getInitialProps(ctx);
      if (nonce && ctx.res && !ctx.res.headersSent) {
        ctx.res.setHeader('Content-Security-Policy', contentSecurityPolicy({ sources: siteCspSources(), nonce, dev: process.env.NODE_ENV === 'development' }));
      }
      return { ...initialProps, styles: [initialProps.styles, sheet.getStyleElement()], nonce };
    } finally {
      sheet.seal();
    }
  }

  render() {
    const { nonce } = this.props;
    return (
      <Html lang="ja">
        <GatedHead nonce={nonce}>
          {nonce && <meta property="csp-nonce" nonce={nonce} />}
          <meta name="theme-color" content={darkTheme.background} />
          <link rel="icon" href="/favicon.ico" />
          <link rel="manifest" href="/manifest.webmanifest" />
          <link rel="apple-touch-icon" href="/icons/apple-touch-icon.png" />
          <meta name="mobile-web-app-capable" content="yes" />
          <meta name="apple-mobile-web-app-capable" content="yes" />
          <meta name="apple-mobile-web-app-status-bar-style" content="black" />
          <meta name="apple-mobile-web-app-title" content="ユメキャスト" />
        </GatedHead>
        <body>
          <Main />
          <NextScript nonce={nonce} />
        </body>
      </Html>
    );
  }
}
