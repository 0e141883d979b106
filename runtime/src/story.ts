/**
 * The ink story: the precompiled JSON written by runtime/build.ts (fast), or else story.ink
 * compiled in the page with inkjs's compiler (loaded only then, as its own chunk).
 */
import { Story } from 'inkjs';
import { fetchJson, fetchText } from './assets';
import { platform } from './platform';

/** What runtime/build.ts writes to dist/games/<id>.json. */
export interface PrecompiledStory {
  format: 'yumecast-story';
  v: 1;
  gameId: string;
  /** The compiled ink JSON (a string, as Story's constructor takes it). */
  ink: string;
  /** Every character of the story's text, for preloading the font subsets. */
  charset: string;
  builtAt: string;
}

export interface LoadedStory {
  story: Story;
  /** The compiled ink JSON (art.ts reads the order of its scene and char tags). */
  ink: string;
  charset: string;
  source: 'precompiled' | 'compiled';
  /** ms spent in Story's constructor (parsing the JSON into ink's runtime objects). */
  parseMs: number;
}

function parse(ink: string): { story: Story; parseMs: number } {
  const t0 = performance.now();
  const story = new Story(ink);
  return { story, parseMs: Math.round(performance.now() - t0) };
}

export class StoryCompileError extends Error {
  constructor(readonly errors: string[]) {
    super(`story.ink does not compile: ${errors.slice(0, 5).join(' | ')}`);
  }
}

/** Unique characters of a text (for font preloading). */
export function charsetOf(text: string): string {
  return Array.from(new Set(Array.from(text.replace(/\s+/g, '')))).join('');
}

export async function loadStory(storyUrl: string, assetBase: string): Promise<LoadedStory> {
  if (storyUrl) {
    try {
      const pre = await fetchJson<PrecompiledStory>(new URL(storyUrl, platform().baseHref()).href);
      if (pre && pre.format === 'yumecast-story' && typeof pre.ink === 'string') {
        return { ...parse(pre.ink), ink: pre.ink, charset: pre.charset ?? '', source: 'precompiled' };
      }
    } catch {
      /* not built: compile below */
    }
  }
  const src = await fetchText(new URL('story.ink', new URL(assetBase, platform().baseHref())).href);
  const ink = await compileInk(src);
  return { ...parse(ink), ink, charset: charsetOf(src), source: 'compiled' };
}

/** Compiles ink source to the runtime JSON with inkjs's compiler (imported on demand). */
export async function compileInk(source: string): Promise<string> {
  const { Compiler, CompilerOptions } = await import('inkjs/full');
  const errors: string[] = [];
  const options = new CompilerOptions(null, [], false, (message: string, type: number) => {
    // ErrorType: 0 author message, 1 warning, 2 error
    if (type === 2) errors.push(message);
  });
  const compiler = new Compiler(source, options);
  let compiled;
  try {
    compiled = compiler.Compile();
  } catch (e) {
    throw new StoryCompileError(errors.length ? errors : [String(e)]);
  }
  if (!compiled || errors.length) throw new StoryCompileError(errors.length ? errors : ['no output']);
  const json = compiled.ToJson();
  if (typeof json !== 'string') throw new StoryCompileError(['ToJson returned nothing']);
  return json;
}
