/**
 * Whether a title folder (games/<id>/, or a fixture's) is one the web VN engine plays: the one
 * reader of a folder's meta.json "runtime" for the tools that walk title folders on disk — the
 * runtime's build (runtime/build.ts, which re-exports it), the host's prewarm plan and the story
 * checks (scripts/art/story-check.ts). What the field means is lib/api-types/titleRuntime.ts's.
 *
 * A module of its own, with node's fs and nothing else, so that code which only asks this
 * question (a jsdom unit test, the host) does not load the build and, through it, esbuild.
 */
import fs from 'node:fs';
import path from 'node:path';
import { isWebEngineMetaText } from '../lib/api-types/titleRuntime';

/**
 * Whether `gameDir` is a title the web engine plays. No meta.json (a fixture), or one that cannot
 * be read, is a web title, as isWebEngineMetaText says.
 */
export function isWebEngineGameDir(gameDir: string): boolean {
  let text: string | null = null;
  try {
    text = fs.readFileSync(path.join(gameDir, 'meta.json'), 'utf8');
  } catch {
    /* none */
  }
  return isWebEngineMetaText(text);
}
