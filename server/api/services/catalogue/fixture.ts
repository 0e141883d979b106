/**
 * Writes a catalogue in the repository's format (games/<id>/meta.json, content/brands.json,
 * content/magazine/<slug>.md) into a folder, for integration tests and bench/search-latency.ts,
 * and makes synthetic catalogues of any size. Goes through the real seed like the real one.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Brand } from './types';

export interface FixtureTitle {
  id: string;
  title: string;
  reading: string;
  /** A brand's name, as meta.json names it. */
  brand: string;
  description?: string;
  tags?: string[];
  genres?: string[];
  releaseDate?: string;
  ageRating?: 'all' | 'r15' | 'r18';
  screenshots?: { src: string; width: number; height: number; alt: string }[];
  /** More meta.json fields as written (e.g. "runtime", "license", "credits"). */
  extra?: Record<string, unknown>;
  /** More files of the folder by name (e.g. LICENSE). */
  files?: Record<string, string>;
}

export interface FixtureArticle {
  slug: string;
  title: string;
  publishedAt: string;
  gameIds: string[];
  tags?: string[];
}

export interface CatalogueFixture {
  brands: Brand[];
  titles: FixtureTitle[];
  articles?: FixtureArticle[];
}

export interface FixtureDirs {
  gamesDir: string;
  contentDir: string;
}

export const FIXTURE_BRANDS: Brand[] = [
  { id: 'test-brand-a', name: 'テストブランドＡ', reading: 'てすとぶらんどえー', description: 'テスト用のブランドです。' },
  { id: 'test-brand-b', name: '星霜ソフト', reading: 'せいそうそふと', description: 'テスト用のもうひとつのブランドです。' },
];

export async function writeTitle(gamesDir: string, t: FixtureTitle): Promise<void> {
  await mkdir(path.join(gamesDir, t.id), { recursive: true });
  const meta = {
    id: t.id,
    title: t.title,
    reading: t.reading,
    brand: t.brand,
    brandReading: '',
    description: t.description ?? `${t.title}の説明文です。`,
    tags: t.tags ?? [],
    genres: t.genres ?? [],
    releaseDate: t.releaseDate ?? '2026-01-01',
    ageRating: t.ageRating ?? 'all',
    keyArt: `/games/${t.id}/keyart.png`,
    ...(t.screenshots ? { screenshots: t.screenshots } : {}),
    ...t.extra,
  };
  await writeFile(path.join(gamesDir, t.id, 'meta.json'), JSON.stringify(meta, null, 2));
  for (const [name, text] of Object.entries(t.files ?? {})) await writeFile(path.join(gamesDir, t.id, name), text);
}

export async function writeArticle(contentDir: string, a: FixtureArticle): Promise<void> {
  await mkdir(path.join(contentDir, 'magazine'), { recursive: true });
  const text = [
    '---',
    `slug: ${a.slug}`,
    `title: ${a.title}`,
    `lead: ${a.title}のリードです。`,
    `publishedAt: ${a.publishedAt}`,
    'author: テスト編集部',
    `gameIds: [${a.gameIds.join(', ')}]`,
    `tags: [${(a.tags ?? ['テスト']).join(', ')}]`,
    `cover: /games/${a.gameIds[0] ?? 'none'}/keyart.png`,
    '---',
    '',
    `## ${a.title}`,
    '',
    '本文です。',
    '',
  ].join('\n');
  await writeFile(path.join(contentDir, 'magazine', `${a.slug}.md`), text);
}

export async function writeCatalogue(root: string, fixture: CatalogueFixture): Promise<FixtureDirs> {
  const dirs = { gamesDir: path.join(root, 'games'), contentDir: path.join(root, 'content') };
  await mkdir(dirs.gamesDir, { recursive: true });
  await mkdir(path.join(dirs.contentDir, 'magazine'), { recursive: true });
  await writeFile(path.join(dirs.contentDir, 'brands.json'), JSON.stringify(fixture.brands, null, 2));
  for (const title of fixture.titles) await writeTitle(dirs.gamesDir, title);
  for (const article of fixture.articles ?? []) await writeArticle(dirs.contentDir, article);
  return dirs;
}

const SYLLABLES = ['か', 'さ', 'た', 'な', 'は', 'ま', 'や', 'ら', 'わ', 'ほし', 'つき', 'ゆめ', 'はる', 'なつ', 'よる', 'うみ'];
const KANJI = ['星', '月', '夢', '春', '夏', '夜', '海', '駅', '空', '花', '雪', '風', '街', '森', '光', '音'];
const GENRES = ['学園・青春', 'ファンタジー', '恋愛', 'ミステリー', '日常', 'SF', 'ホラー', '歴史'];
const TAGS = ['短編', '長編', '泣ける', 'ほのぼの', '謎解き', '音楽', '旅', '図書館', '猫', '雨', 'マルチエンディング', '夏'];

/** A deterministic catalogue of `n` titles over the fixture brands (bench and paging tests). */
export function syntheticTitles(n: number): FixtureTitle[] {
  return Array.from({ length: n }, (_, i) => {
    const a = i % 16;
    const b = Math.floor(i / 16) % 16;
    const c = Math.floor(i / 256) % 16;
    const day = String((i % 28) + 1).padStart(2, '0');
    const month = String(Math.floor(i / 28) % 12 + 1).padStart(2, '0');
    return {
      id: `synthetic-${String(i).padStart(4, '0')}`,
      title: `${KANJI[a]}${KANJI[b]}の${KANJI[c]}物語 ${i}`,
      reading: `${SYLLABLES[a]}${SYLLABLES[b]}の${SYLLABLES[c]}ものがたり ${i}`,
      brand: FIXTURE_BRANDS[i % FIXTURE_BRANDS.length].name,
      description: `${KANJI[b]}の降る${KANJI[a]}の町で、${TAGS[i % TAGS.length]}の物語がはじまる。ノベルゲーム第${i}作。`,
      tags: [TAGS[i % TAGS.length], TAGS[(i * 7) % TAGS.length]].filter((t, k, all) => all.indexOf(t) === k),
      genres: [GENRES[i % GENRES.length]],
      releaseDate: `${2020 + (i % 7)}-${month}-${day}`,
      ageRating: i % 10 === 9 ? 'r18' : 'all',
    };
  });
}
