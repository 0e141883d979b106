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
 * The head also links the web app manifest (public/manifest.webmanifest, issue 13: the site can
 * be added to the home screen and opens full screen; the policy's `manifest-src 'self'` allows it)
 * with the theme colour and Apple's home-screen tags (iPhone reads those, not the manifest's
 * display mode).
 */
import Document, { Head, Html, Main, NextScript, type DocumentContext, type DocumentInitialProps } from 'next/document';
import { ServerStyleSheet } from 'styled-components';
import { contentSecurityPolicy, NONCE_HEADER, PRERENDERED_ROUTES, siteCspSources } from '@/lib/security/csp';
import { darkTheme } from '@/styles/theme';

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
        <Head nonce={nonce}>
          {nonce && <meta property="csp-nonce" nonce={nonce} />}
          <meta name="theme-color" content={darkTheme.background} />
          <link rel="icon" href="/favicon.ico" />
          <link rel="manifest" href="/manifest.webmanifest" />
          <link rel="apple-touch-icon" href="/icons/apple-touch-icon.png" />
          <meta name="mobile-web-app-capable" content="yes" />
          <meta name="apple-mobile-web-app-capable" content="yes" />
          <meta name="apple-mobile-web-app-status-bar-style" content="black" />
          <meta name="apple-mobile-web-app-title" content="ユメキャスト" />
        </Head>
        <body>
          <Main />
          <NextScript nonce={nonce} />
        </body>
      </Html>
    );
  }
}
