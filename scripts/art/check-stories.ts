/**
 * npx tsx scripts/art/check-stories.ts [id...]
 * Compiles every web-engine title's games/<id>/story.ink (a Ren'Py title has none), walks every
 * path through every choice and checks tags, asset ids and files against docs/vn-engine.md.
 * Prints characters of text per path and the endings reached; exits 1 when anything is wrong.
 */
import { checkGame, gameIds, isWebEngineGame, type GameReport } from './story-check';

const MIN_CHARS = 6000;

function summary(r: GameReport): string {
  const lines: string[] = [];
  const endings = Object.entries(r.endingsReached)
    .map(([e, c]) => `${e} (${c} paths)`)
    .join(', ');
  const avg = r.paths.length ? Math.round(r.paths.reduce((a, p) => a + p.chars, 0) / r.paths.length) : 0;
  lines.push(`== ${r.id}`);
  lines.push(`   paths walked: ${r.paths.length}, choice points: ${r.choicePoints}`);
  lines.push(`   characters of text per path: min ${r.minChars}, max ${r.maxChars}, mean ${avg}; all branches together ${r.totalChars}`);
  lines.push(`   distinct endings: ${Object.keys(r.endingsReached).length} — ${endings}`);
  lines.push(`   tags used: ${Object.entries(r.tagsUsed).map(([t, c]) => `${t}×${c}`).join(' ')}`);
  lines.push(`   music: ${Object.entries(r.musicBars).map(([t, b]) => `${t} ${b} bars`).join(', ')}`);
  for (const w of r.warnings.slice(0, 5)) lines.push(`   warning: ${w}`);
  for (const e of r.errors) lines.push(`   ERROR: ${e}`);
  return lines.join('\n');
}

const asked = process.argv.slice(2);
for (const id of asked.filter((a) => !isWebEngineGame(a))) console.log(`${id}: not a web-engine title (meta.json "runtime"): no story to check`);
const ids = asked.length ? asked.filter(isWebEngineGame) : gameIds();
let failed = 0;
for (const id of ids) {
  const r = checkGame(id);
  if (r.minChars < MIN_CHARS) r.errors.push(`shortest path has ${r.minChars} characters (< ${MIN_CHARS})`);
  if (Object.keys(r.endingsReached).length < 2) r.errors.push('fewer than 2 distinct endings');
  console.log(summary(r));
  if (r.errors.length) failed++;
}
console.log(failed ? `\n${failed} title(s) with errors` : `\nall ${ids.length} titles OK`);
process.exit(failed ? 1 : 0);
