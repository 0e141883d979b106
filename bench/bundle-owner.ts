/**
 * Who produced a piece of a browser bundle, from the source path its source map names
 * (bench/page-weight.ts --modules / --route): a package under node_modules (scoped too), Next's
 * precompiled client (its maps point back to Next's own sources as ../../src/…), webpack's
 * runtime, or a folder (with `fine`, a file) of ours. Apart from the bench so it can be tested
 * without a build.
 */
/** Where a source in a map belongs: a package (node_modules/<name>, scoped too) or a folder of ours. */
export function owner(source: string, fine = false): string {
  const s = source.replace(/^webpack:\/\/(_N_E\/)?/, '').replace(/^\.\//, '');
  const nm = s.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const parts = s.slice(nm + 'node_modules/'.length).split('/');
    const pkg = parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
    // Next's own client and its compiled copies of React (next/dist/compiled/react-dom …)
    const compiled = s.slice(nm).match(/^node_modules\/next\/dist\/compiled\/([^/]+)/);
    if (compiled) return `next (compiled ${compiled[1]})`;
    return fine && pkg === 'next' ? `next: ${parts.slice(1).join('/')}` : pkg;
  }
  if (s.startsWith('webpack/')) return 'webpack runtime';
  // Next's precompiled client maps back to its own sources (../../src/client/…, ../../src/shared/…)
  if (s.startsWith('../')) return fine ? `next (its client): ${s.replace(/^(\.\.\/)+(src\/)?/, '')}` : 'next (its client)';
  return fine ? `ours: ${s}` : `ours: ${s.split('/')[0]}`;
}

