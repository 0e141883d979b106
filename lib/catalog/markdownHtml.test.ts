/**
 * The magazine's server-side Markdown: the rules the browser used to apply (no raw HTML, no
 * images, safe links) hold in the HTML the server sends. react-markdown is ESM-only, which this
 * Jest (CommonJS) cannot load, so the module runs in a child `tsx` process, as Next's server runs it.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');

function render(inputs: string[]): string[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'markdown-html-'));
  const script = path.join(dir, 'render.ts');
  fs.writeFileSync(
    script,
    `import { markdownToHtml } from ${JSON.stringify(path.join(ROOT, 'lib/catalog/markdownHtml'))};
process.stdout.write(JSON.stringify((${JSON.stringify(inputs)}).map(markdownToHtml)));`,
  );
  try {
    const out = execFileSync(path.join(ROOT, 'node_modules/.bin/tsx'), ['--tsconfig', path.join(ROOT, 'tsconfig.json'), script], { cwd: ROOT, encoding: 'utf8' });
    return JSON.parse(out) as string[];
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('markdownToHtml', () => {
  const [blocks, unsafe, links] = render([
    '## 見出し\n\n本文です。\n\n- 一\n- 二\n\n> 引用',
    '<script>alert(1)</script>\n\n![絵](/x.png)\n\n1 < 2 & "a"',
    '[ok](/title/amayadori-cafe) [bad](javascript:alert(1))',
  ]);

  it('renders headings, paragraphs, lists and quotes', () => {
    expect(blocks).toContain('<h2>見出し</h2>');
    expect(blocks).toContain('<p>本文です。</p>');
    expect(blocks).toContain('<li>一</li>');
    expect(blocks).toContain('<blockquote>');
  });

  it('drops raw HTML and images, escapes text', () => {
    expect(unsafe).not.toContain('<script');
    expect(unsafe).not.toContain('<img');
    expect(unsafe).toContain('1 &lt; 2 &amp; ');
  });

  it('keeps safe links and removes javascript: ones', () => {
    expect(links).toContain('href="/title/amayadori-cafe"');
    expect(links).not.toContain('javascript:');
  });
});
