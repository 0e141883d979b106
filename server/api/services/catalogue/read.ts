/**
 * Reads the catalogue from the repository: games/<id>/meta.json (titles), content/brands.json
 * (brands) and content/magazine/<slug>.md (articles, front matter as content/magazine/README.md
 * describes). Every problem throws an Error naming the file and the field, so a bad content
 * change stops the api start with a message instead of serving a half-broken catalogue.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import matter from 'gray-matter';
import { GAME_ID_RE } from '../../../../lib/api-types/ids';
import { AGE_RATINGS, type ScreenshotImageWire, type TitleLicenseWire } from '../../../../lib/api-types/schemas/catalog';
import { parseTitleRuntime, type TitleRuntime } from '../../../../lib/api-types/titleRuntime';
import { DATE_RE, SLUG_RE, type Article, type Brand, type Title } from './types';

type Json = Record<string, unknown>;

class Fields {
  constructor(
    readonly label: string,
    private readonly record: Json,
  ) {}

  fail(field: string, what: string): never {
    throw new Error(`${this.label}: "${field}" ${what}`);
  }

  string(field: string): string {
    const value = this.record[field];
    if (typeof value !== 'string' || value.trim() === '') this.fail(field, 'must be a non-empty string');
    return value.trim();
  }

  strings(field: string): string[] {
    const value = this.record[field] ?? [];
    if (!Array.isArray(value) || value.some((item) => typeof item !== 'string' || item.trim() === '')) {
      this.fail(field, 'must be a list of non-empty strings');
    }
    return [...new Set((value as string[]).map((item) => item.trim()))];
  }

  /**
   * YYYY-MM-DD, a real day. YAML front matter turns such values into Dates (rolling 2026-13-45
   * over into 2027), so for Markdown the text as written (`raw`) is what gets checked.
   */
  date(field: string, raw?: string): string {
    const value = raw ?? this.record[field];
    const text = value instanceof Date && !Number.isNaN(value.getTime()) ? value.toISOString().slice(0, 10) : value;
    const day = typeof text === 'string' && DATE_RE.test(text) ? new Date(`${text}T00:00:00Z`) : null;
    const real = day !== null && !Number.isNaN(day.getTime()) && day.toISOString().startsWith(text as string);
    if (!real) this.fail(field, 'must be a date written YYYY-MM-DD');
    return text as string;
  }
}

async function listDir(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/** The file's text, or null when it does not exist. */
async function readOptional(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw error;
  }
}

function parseJson(file: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`${file} is not valid JSON: ${(error as Error).message}`);
  }
}

function asRecord(file: string, value: unknown): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`${file} must hold a JSON object`);
  return value as Json;
}

export async function readBrands(contentDir: string): Promise<Brand[]> {
  const file = path.join(contentDir, 'brands.json');
  const text = await readOptional(file);
  if (text === null) throw new Error(`${file} is missing: every title's brand must be listed there`);
  const list = parseJson(file, text);
  if (!Array.isArray(list)) throw new Error(`${file} must hold a JSON list of brands`);
  const brands = list.map((item, index) => {
    const fields = new Fields(`${file} [${index}]`, asRecord(file, item));
    const brand = {
      id: fields.string('id'),
      name: fields.string('name'),
      reading: fields.string('reading'),
      description: fields.string('description'),
    };
    if (!GAME_ID_RE.test(brand.id)) fields.fail('id', 'must match [a-z0-9][a-z0-9-]*');
    return brand;
  });
  for (const key of ['id', 'name'] as const) {
    const seen = new Set<string>();
    for (const brand of brands) {
      if (seen.has(brand[key])) throw new Error(`${file}: two brands share the ${key} "${brand[key]}"`);
      seen.add(brand[key]);
    }
  }
  return brands;
}

function screenshotsOf(fields: Fields, value: unknown): ScreenshotImageWire[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) fields.fail('screenshots', 'must be a list of {src, width, height, alt}');
  return value.map((item: unknown) => {
    const shot = (typeof item === 'object' && item !== null ? item : {}) as Json;
    const ok =
      typeof shot.src === 'string' && shot.src.startsWith('/') &&
      Number.isInteger(shot.width) && (shot.width as number) > 0 &&
      Number.isInteger(shot.height) && (shot.height as number) > 0 &&
      typeof shot.alt === 'string' && shot.alt.trim() !== '';
    if (!ok) fields.fail('screenshots', 'items need src (a path), positive integer width and height, and a Japanese alt');
    return { src: shot.src as string, width: shot.width as number, height: shot.height as number, alt: (shot.alt as string).trim() };
  });
}

/** meta.json "premium": true for subscriber-only titles; absent means false (docs/purchase.md). */
function premiumOf(fields: Fields, value: unknown): boolean {
  if (value === undefined) return false;
  if (typeof value !== 'boolean') fields.fail('premium', 'must be true or false');
  return value;
}

/** meta.json "runtime" (lib/api-types/titleRuntime.ts checks it: absent = the web engine). */
function runtimeOf(fields: Fields, value: unknown): TitleRuntime {
  const parsed = parseTitleRuntime(value);
  if (!parsed.ok) throw new Error(`${fields.label}: ${parsed.reason}`);
  return parsed.runtime;
}

/**
 * meta.json "license" (with "copyright", "credits", "source") and the licence text in
 * games/<id>/LICENSE: all required once "license" is there, since the title page must show
 * them with the game's art (docs/renpy.md §7). No "license": none shown.
 */
async function licenseOf(fields: Fields, record: Json, dir: string): Promise<TitleLicenseWire | undefined> {
  if (record.license === undefined) return undefined;
  const credits = fields.strings('credits');
  if (credits.length === 0) fields.fail('credits', 'must list who made the game when "license" is given');
  const text = (await readOptional(path.join(dir, 'LICENSE')))?.trim();
  if (!text) fields.fail('license', 'needs the licence text beside it in LICENSE');
  return { name: fields.string('license'), copyright: fields.string('copyright'), credits, source: fields.string('source'), text };
}

/** games/<id>/meta.json of every folder that has one; brands are resolved by their name. */
export async function readTitles(gamesDir: string, brands: Brand[]): Promise<Title[]> {
  const byName = new Map(brands.map((brand) => [brand.name, brand]));
  const titles: Title[] = [];
  for (const entry of await listDir(gamesDir)) {
    if (!GAME_ID_RE.test(entry)) continue;
    const file = path.join(gamesDir, entry, 'meta.json');
    const text = await readOptional(file);
    if (text === null) continue;
    const record = asRecord(file, parseJson(file, text));
    const fields = new Fields(`games/${entry}/meta.json`, record);
    if (record.id !== undefined && record.id !== entry) fields.fail('id', `is "${String(record.id)}"; it must match its folder`);
    const brandName = fields.string('brand');
    const brand =
      byName.get(brandName) ??
      fields.fail('brand', `names 「${brandName}」, which content/brands.json does not list (known: ${[...byName.keys()].join('、')})`);
    const ageRating = fields.string('ageRating') as Title['ageRating'];
    if (!AGE_RATINGS.includes(ageRating)) fields.fail('ageRating', `must be one of ${AGE_RATINGS.join(', ')}`);
    const license = await licenseOf(fields, record, path.join(gamesDir, entry));
    titles.push({
      id: entry,
      title: fields.string('title'),
      reading: fields.string('reading'),
      brandId: brand.id,
      description: fields.string('description'),
      tags: fields.strings('tags'),
      genres: fields.strings('genres'),
      releaseDate: fields.date('releaseDate'),
      ageRating,
      keyArt: fields.string('keyArt'),
      screenshots: screenshotsOf(fields, record.screenshots),
      gameFolder: entry,
      premium: premiumOf(fields, record.premium),
      runtime: runtimeOf(fields, record.runtime),
      ...(license ? { license } : {}),
    });
  }
  return titles;
}

/** content/magazine/<slug>.md (README.md is the format's description, not an article). */
export async function readArticles(contentDir: string, titleIds: ReadonlySet<string>): Promise<Article[]> {
  const dir = path.join(contentDir, 'magazine');
  const articles: Article[] = [];
  for (const name of await listDir(dir)) {
    if (!name.endsWith('.md') || name === 'README.md') continue;
    const label = `content/magazine/${name}`;
    const text = await readFile(path.join(dir, name), 'utf8');
    let parsed: matter.GrayMatterFile<string>;
    try {
      // No cache: gray-matter caches by content, and a test may parse the same text twice.
      parsed = matter(text, {});
    } catch (error) {
      throw new Error(`${label}: the front matter is not valid: ${(error as Error).message}`);
    }
    const fields = new Fields(label, parsed.data as Json);
    const slug = fields.string('slug');
    if (!SLUG_RE.test(slug) || `${slug}.md` !== name) fields.fail('slug', 'must match the file name and [a-z0-9-]');
    const gameIds = fields.strings('gameIds');
    for (const id of gameIds) if (!titleIds.has(id)) fields.fail('gameIds', `names "${id}", which games/ does not hold`);
    const body = parsed.content.trim();
    if (!body) fields.fail('body', 'is empty');
    articles.push({
      slug,
      title: fields.string('title'),
      lead: fields.string('lead'),
      publishedAt: fields.date('publishedAt', /^publishedAt:[ \t]*(\S+)[ \t]*$/m.exec(parsed.matter)?.[1]),
      author: fields.string('author'),
      gameIds,
      tags: fields.strings('tags'),
      cover: fields.string('cover'),
      body,
    });
  }
  return articles;
}
