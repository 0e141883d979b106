/**
 * The structure check of `npm test` (docs/architecture.md): no import cycle anywhere in the
 * code (madge over lib/, server/, runtime/src/, store/, components/, pages/), and no file under
 * server/ or runtime/src/ longer than 500 lines. Lint checks which way imports point; this checks
 * what lint cannot see: cycles through several files, and files that grew past their seams.
 * Exits 1 with the offenders named.
 */
import fs from 'node:fs';
import path from 'node:path';
import madge from 'madge';

const ROOT = path.resolve(__dirname, '..', '..');
const CYCLE_ROOTS = ['lib', 'server', 'runtime/src', 'store', 'components', 'pages'];
const SIZE_ROOTS = ['server', 'runtime/src'];
const MAX_LINES = 500;

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && entry.name !== 'dist') out.push(...sourceFiles(full));
    } else if (/\.(ts|tsx)$/.test(entry.name)) out.push(full);
  }
  return out;
}

export function oversizedFiles(): string[] {
  return SIZE_ROOTS.flatMap((root) => sourceFiles(path.join(ROOT, root)))
    .map((file) => ({ file, lines: fs.readFileSync(file, 'utf8').split('\n').length }))
    .filter(({ lines }) => lines > MAX_LINES)
    .map(({ file, lines }) => `${path.relative(ROOT, file)}: ${lines} lines (max ${MAX_LINES})`);
}

export async function importCycles(): Promise<string[]> {
  const result = await madge(
    CYCLE_ROOTS.map((root) => path.join(ROOT, root)),
    {
      baseDir: ROOT,
      fileExtensions: ['ts', 'tsx'],
      tsConfig: path.join(ROOT, 'tsconfig.json'),
      excludeRegExp: [/node_modules/, /\.d\.ts$/],
    },
  );
  return result.circular().map((cycle) => cycle.join(' → '));
}

async function main(): Promise<void> {
  const [cycles, oversized] = [await importCycles(), oversizedFiles()];
  for (const cycle of cycles) console.log(`✗ import cycle: ${cycle}`);
  for (const line of oversized) console.log(`✗ too long: ${line}`);
  if (cycles.length === 0 && oversized.length === 0) console.log('✓ no import cycles; no file under server/ or runtime/src/ over 500 lines');
  process.exit(cycles.length + oversized.length === 0 ? 0 : 1);
}

if (require.main === module) void main();
