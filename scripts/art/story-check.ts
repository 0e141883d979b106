/**
 * Checks a title's content against docs/vn-engine.md: compiles games/<id>/story.ink with inkjs's
 * compiler, walks EVERY path through every choice (depth first, saving and restoring the ink
 * state), and checks tags, asset ids, files, music scores and sfx entries.
 * Used by scripts/art/check-stories.ts (a report) and test/integration/stories.int.test.ts (Jest).
 */
import fs from 'node:fs';
import path from 'node:path';
import { Compiler, Story } from 'inkjs/full';
import { isWebEngineGameDir } from '../../runtime/game-dir';

export const REPO_ROOT = path.resolve(__dirname, '..', '..');
export const GAMES_DIR = path.join(REPO_ROOT, 'games');

export const CONTRACT_TAGS = ['scene', 'transition', 'char', 'hide', 'speaker', 'bgm', 'se', 'effect', 'ending'] as const;
export const TRANSITIONS = ['fade', 'crossfade', 'flash', 'none'];
export const EFFECTS = ['shake', 'flash', 'rain', 'snow', 'sakura', 'stars', 'none'];
export const POSITIONS = ['left', 'center', 'right'];
export const INSTRUMENTS = ['piano', 'pad', 'bell', 'bass', 'pluck', 'strings'];
export const SFX_TYPES = ['chime', 'door', 'wave', 'train', 'page', 'footsteps', 'bell', 'wind'];
const NOTE_RE = /^[A-G]#?-?\d$/;

export interface GameJson {
  characters: Record<string, { name: string; color: string; sprites: Record<string, string> }>;
  backgrounds: Record<string, string>;
  music: Record<string, string>;
  sfx: Record<string, string>;
  endings: Record<string, string>;
  /** optional engine extension: the title screen */
  titleScreen?: { background?: string; bgm?: string; effect?: string };
}

export interface PathResult {
  choices: number[];
  chars: number;
  endings: string[];
}

export interface GameReport {
  id: string;
  errors: string[];
  warnings: string[];
  paths: PathResult[];
  minChars: number;
  maxChars: number;
  /** characters of every distinct line of text in the story (all branches together) */
  totalChars: number;
  choicePoints: number;
  endingsReached: Record<string, number>;
  tagsUsed: Record<string, number>;
  musicBars: Record<string, number>;
}

/**
 * Whether the web VN engine plays games/<id> (meta.json "runtime"; Ren'Py's "The Question" is
 * not), read as the runtime's build reads it (runtime/game-dir.ts, without the build's esbuild).
 */
export function isWebEngineGame(id: string): boolean {
  return isWebEngineGameDir(path.join(GAMES_DIR, id));
}

/** The web-engine titles of games/: each has a story.ink to check (other runtimes have none). */
export function gameIds(): string[] {
  return fs
    .readdirSync(GAMES_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory() && isWebEngineGame(d.name) && fs.existsSync(path.join(GAMES_DIR, d.name, 'story.ink')))
    .map((d) => d.name)
    .sort();
}

/** Characters of text, not counting white space. */
export function countChars(text: string): number {
  return [...text.replace(/\s+/g, '')].length;
}

export function compileStory(source: string): { json: string; errors: string[] } {
  const compiler = new Compiler(source);
  let json = '';
  try {
    const story = compiler.Compile();
    json = story.ToJson() ?? '';
  } catch (e) {
    return { json: '', errors: [...compiler.errors, String(e)] };
  }
  return { json, errors: [...compiler.errors] };
}

function checkFiles(dir: string, game: GameJson, errors: string[], musicBars: Record<string, number>): void {
  const exists = (rel: string, what: string) => {
    if (typeof rel !== 'string' || !rel) errors.push(`${what}: no path`);
    else if (path.isAbsolute(rel) || rel.includes('..')) errors.push(`${what}: path must be relative to the title folder: ${rel}`);
    else if (!fs.existsSync(path.join(dir, rel))) errors.push(`${what}: missing file ${rel}`);
  };
  for (const k of ['characters', 'backgrounds', 'music', 'sfx', 'endings'] as const) {
    if (!game[k] || typeof game[k] !== 'object') errors.push(`game.json: missing "${k}"`);
  }
  for (const [id, c] of Object.entries(game.characters ?? {})) {
    if (!c.name) errors.push(`character ${id}: no display name`);
    if (!/^#[0-9a-fA-F]{6}$/.test(c.color ?? '')) errors.push(`character ${id}: colour must be #rrggbb`);
    for (const [expr, p] of Object.entries(c.sprites ?? {})) exists(p, `sprite ${id}/${expr}`);
  }
  for (const [id, p] of Object.entries(game.backgrounds ?? {})) exists(p, `background ${id}`);
  for (const [id, p] of Object.entries(game.music ?? {})) {
    exists(p, `music ${id}`);
    const file = path.join(dir, p);
    if (!fs.existsSync(file)) continue;
    try {
      const s = JSON.parse(fs.readFileSync(file, 'utf8'));
      if (!(s.bpm > 0)) errors.push(`music ${id}: bpm`);
      if (!(s.lengthBeats > 0)) errors.push(`music ${id}: lengthBeats`);
      if (!Array.isArray(s.tracks) || s.tracks.length === 0) errors.push(`music ${id}: tracks`);
      const kinds = new Set<string>();
      for (const t of s.tracks ?? []) {
        if (!INSTRUMENTS.includes(t.instrument)) errors.push(`music ${id}: instrument ${t.instrument}`);
        kinds.add(t.instrument);
        if (!(t.volume >= 0 && t.volume <= 1)) errors.push(`music ${id}: volume ${t.volume}`);
        for (const nt of t.notes ?? []) {
          const [start, name, len, vel] = nt;
          if (!(start >= 0 && start < s.lengthBeats) || !NOTE_RE.test(name) || !(len > 0) || !(vel >= 0 && vel <= 1)) {
            errors.push(`music ${id}: bad note ${JSON.stringify(nt)}`);
            break;
          }
        }
      }
      if (!kinds.has('bass')) errors.push(`music ${id}: no bass line`);
      const bars = s.lengthBeats / (s.beatsPerBar ?? 4);
      musicBars[id] = bars;
      if (bars < 16) errors.push(`music ${id}: only ${bars} bars`);
    } catch (e) {
      errors.push(`music ${id}: ${String(e)}`);
    }
  }
  for (const [id, p] of Object.entries(game.sfx ?? {})) {
    exists(p, `sfx ${id}`);
    const file = path.join(dir, p);
    if (!fs.existsSync(file)) continue;
    try {
      const s = JSON.parse(fs.readFileSync(file, 'utf8'));
      if (!SFX_TYPES.includes(s.type)) errors.push(`sfx ${id}: type ${s.type}`);
    } catch (e) {
      errors.push(`sfx ${id}: ${String(e)}`);
    }
  }
  for (const [id, title] of Object.entries(game.endings ?? {})) if (!title) errors.push(`ending ${id}: no title`);
  const ts = game.titleScreen;
  if (ts) {
    if (ts.background && !game.backgrounds?.[ts.background]) errors.push(`titleScreen: unknown background ${ts.background}`);
    if (ts.bgm && !game.music?.[ts.bgm]) errors.push(`titleScreen: unknown track ${ts.bgm}`);
    if (ts.effect && !EFFECTS.includes(ts.effect)) errors.push(`titleScreen: unknown effect ${ts.effect}`);
  }
}

/** Checks one tag; returns the ending id when it is an ending tag. */
function checkTag(tag: string, game: GameJson, errors: string[], tagsUsed: Record<string, number>, where: string): string | null {
  const m = /^\s*([a-z]+)\s*:\s*(.*?)\s*$/.exec(tag);
  if (!m) {
    errors.push(`${where}: tag not in "name: value" form: #${tag}`);
    return null;
  }
  const [, name, value] = m;
  tagsUsed[name] = (tagsUsed[name] ?? 0) + 1;
  const err = (msg: string) => errors.push(`${where}: #${tag}: ${msg}`);
  switch (name) {
    case 'scene':
      if (!game.backgrounds?.[value]) err('unknown background');
      break;
    case 'transition':
      if (!TRANSITIONS.includes(value)) err('unknown transition');
      break;
    case 'char': {
      const [id, expr, pos, ...rest] = value.split(/\s+/);
      const c = game.characters?.[id];
      if (!c) err('unknown character');
      else if (!expr || !c.sprites?.[expr]) err(`unknown expression "${expr}"`);
      if (pos !== undefined && !POSITIONS.includes(pos)) err('unknown position');
      if (rest.length) err('too many words');
      break;
    }
    case 'hide':
      if (value !== 'all' && !game.characters?.[value]) err('unknown character');
      break;
    case 'speaker':
      if (!game.characters?.[value]) err('unknown character');
      break;
    case 'bgm':
      if (value !== 'stop' && !game.music?.[value]) err('unknown track');
      break;
    case 'se':
      if (!game.sfx?.[value]) err('unknown sfx');
      break;
    case 'effect':
      if (!EFFECTS.includes(value)) err('unknown effect');
      break;
    case 'ending':
      if (!game.endings?.[value]) err('unknown ending');
      return value;
    default:
      err('tag is not in the contract');
  }
  return null;
}

export function checkGame(id: string, opts: { maxPaths?: number } = {}): GameReport {
  const dir = path.join(GAMES_DIR, id);
  const errors: string[] = [];
  const warnings: string[] = [];
  const report: GameReport = {
    id,
    errors,
    warnings,
    paths: [],
    minChars: 0,
    maxChars: 0,
    totalChars: 0,
    choicePoints: 0,
    endingsReached: {},
    tagsUsed: {},
    musicBars: {},
  };
  let game: GameJson;
  try {
    game = JSON.parse(fs.readFileSync(path.join(dir, 'game.json'), 'utf8')) as GameJson;
  } catch (e) {
    errors.push(`game.json: ${String(e)}`);
    return report;
  }
  try {
    const meta = JSON.parse(fs.readFileSync(path.join(dir, 'meta.json'), 'utf8'));
    if (meta.id !== id) errors.push(`meta.json: id ${meta.id} is not the folder name`);
    if (meta.keyArt && !fs.existsSync(path.join(REPO_ROOT, 'public', meta.keyArt))) errors.push(`meta.json: key art ${meta.keyArt} missing`);
  } catch (e) {
    errors.push(`meta.json: ${String(e)}`);
  }
  checkFiles(dir, game, errors, report.musicBars);

  const source = fs.readFileSync(path.join(dir, 'story.ink'), 'utf8');
  const compiled = compileStory(source);
  if (compiled.errors.length || !compiled.json) {
    errors.push(...compiled.errors.map((e) => `compile: ${e}`));
    return report;
  }
  const story = new Story(compiled.json);
  const maxPaths = opts.maxPaths ?? 20000;
  const seenLines = new Set<string>();
  const seenChoicePoints = new Set<string>();
  const tagErrors = new Set<string>();

  const walk = (choices: number[], chars: number, endings: string[]): void => {
    if (report.paths.length >= maxPaths) return;
    while (story.canContinue) {
      const text = story.Continue() ?? '';
      const tags = story.currentTags ?? [];
      const where = `path [${choices.join(',')}] "${text.trim().slice(0, 24)}"`;
      const errs: string[] = [];
      let speaker = false;
      for (const t of tags) {
        const ending = checkTag(t, game, errs, report.tagsUsed, 'line');
        if (ending) endings = [...endings, ending];
        if (t.trim().startsWith('speaker')) speaker = true;
      }
      for (const e of errs) {
        if (tagErrors.has(e)) continue;
        tagErrors.add(e);
        errors.push(`${where}: ${e}`);
      }
      if (speaker && !text.trim()) errors.push(`${where}: speaker tag on an empty line`);
      if (!text.trim() && tags.length === 0) warnings.push(`${where}: empty line without tags`);
      chars += countChars(text);
      if (!seenLines.has(text)) {
        seenLines.add(text);
        report.totalChars += countChars(text);
      }
    }
    const options = story.currentChoices;
    if (options.length === 0) {
      if (endings.length === 0) errors.push(`path [${choices.join(',')}] ends without an # ending: tag`);
      if (endings.length > 1) errors.push(`path [${choices.join(',')}] reaches ${endings.length} endings`);
      for (const e of endings) report.endingsReached[e] = (report.endingsReached[e] ?? 0) + 1;
      report.paths.push({ choices, chars, endings });
      return;
    }
    const key = story.state.currentPathString ?? `${choices.length}:${options.map((o) => o.text).join('|')}`;
    if (!seenChoicePoints.has(key)) {
      seenChoicePoints.add(key);
      report.choicePoints += 1;
    }
    const saved = story.state.ToJson();
    for (let i = 0; i < options.length; i++) {
      story.state.LoadJson(saved);
      story.ChooseChoiceIndex(i);
      walk([...choices, i], chars, endings);
    }
  };
  walk([], 0, []);
  if (report.paths.length >= maxPaths) errors.push(`more than ${maxPaths} paths; not all were walked`);
  const counts = report.paths.map((p) => p.chars);
  report.minChars = counts.length ? Math.min(...counts) : 0;
  report.maxChars = counts.length ? Math.max(...counts) : 0;
  for (const e of Object.keys(game.endings ?? {})) {
    if (!report.endingsReached[e]) errors.push(`ending ${e} is declared in game.json but no path reaches it`);
  }
  return report;
}
