/**
 * The compile hint goes on every page's first-load scripts and nowhere else, once, and a source
 * map beside a marked script is shifted by the one line it gained (scripts/stack/compile-hints.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { addCompileHints, COMPILE_HINT, firstLoadScripts } from './compile-hints';

function makeBuild(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hints-'));
  fs.mkdirSync(path.join(dir, 'static/chunks'), { recursive: true });
  const manifest = {
    pages: { '/_app': ['static/chunks/framework.js', 'static/chunks/runtime.js'], '/title/[id]': ['static/chunks/title.js', 'static/chunks/runtime.js', 'static/css/x.css'] },
    rootMainFiles: [],
    polyfillFiles: [],
  };
  fs.writeFileSync(path.join(dir, 'build-manifest.json'), JSON.stringify(manifest));
  for (const name of ['framework', 'runtime', 'title', 'firebase-lazy']) fs.writeFileSync(path.join(dir, `static/chunks/${name}.js`), `console.log("${name}");\n`);
  fs.writeFileSync(path.join(dir, 'static/chunks/framework.js.map'), JSON.stringify({ version: 3, mappings: 'AAAA', sources: ['a.js'] }));
  fs.writeFileSync(path.join(dir, 'static/chunks/title.js.map'), JSON.stringify({ version: 3, sections: [{ offset: { line: 0, column: 0 }, map: {} }] }));
  return dir;
}

const read = (dir: string, rel: string) => fs.readFileSync(path.join(dir, rel), 'utf8');

describe('compile hints', () => {
  it('lists each page’s first-load scripts once', () => {
    const dir = makeBuild();
    expect(firstLoadScripts(dir)).toEqual(['static/chunks/framework.js', 'static/chunks/runtime.js', 'static/chunks/title.js']);
  });

  it('marks the first-load scripts only, shifts their source maps, and does it once', () => {
    const dir = makeBuild();
    expect(addCompileHints(dir)).toBe(3);
    expect(read(dir, 'static/chunks/framework.js')).toBe(`${COMPILE_HINT}console.log("framework");\n`);
    expect(read(dir, 'static/chunks/title.js').startsWith('//# allFunctionsCalledOnLoad\n')).toBe(true);
    expect(read(dir, 'static/chunks/firebase-lazy.js')).toBe('console.log("firebase-lazy");\n');
    expect(JSON.parse(read(dir, 'static/chunks/framework.js.map')).mappings).toBe(';AAAA');
    expect(JSON.parse(read(dir, 'static/chunks/title.js.map')).sections[0].offset.line).toBe(1);

    expect(addCompileHints(dir)).toBe(0);
    expect(read(dir, 'static/chunks/framework.js')).toBe(`${COMPILE_HINT}console.log("framework");\n`);
    expect(JSON.parse(read(dir, 'static/chunks/framework.js.map')).mappings).toBe(';AAAA');
  });
});
