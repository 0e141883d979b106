/**
 * npx tsx scripts/catalog/generate-titles.ts [id...]
 *
 * Builds the generated assets of the titles added with the catalogue (アマヤドリ・カフェ,
 * しずかの海のポストマン) from the parts in scripts/catalog/art/, the same way
 * scripts/art/generate.ts builds the first three titles:
 *   games/<id>/art/bg/*.svg, art/chars/<charId>/<expr>.svg, music/*.json, sfx/*.json,
 *   games/<id>/game.json, games/<id>/art/keyart.svg, public/games/<id>/keyart.png (rsvg-convert).
 * story.ink and meta.json are written by hand and never touched here.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { compose } from '../art/music';
import { expressionsOf, humanExpressions, spriteFor, type CastMember } from './art/cast';
import { CATALOG_SFX, CATALOG_TRACKS } from './art/scores';
import { arcadeSvg, BUSSTOP, busStopSvg, CAFE, cafeSvg, domeStreetSvg, farmSvg, hangarSvg, postOfficeSvg, surfaceSvg } from './art/scenes';
import { keyartSvg, type KeyArtSpec } from './art/keyart';

const ROOT = path.resolve(__dirname, '..', '..');

interface CatalogTitle {
  titleScreen: { background: string; bgm: string; effect?: 'rain' | 'snow' | 'sakura' | 'stars' };
  cast: Record<string, CastMember>;
  scenes: Record<string, () => string>;
  endings: Record<string, string>;
  keyart: KeyArtSpec;
}

const CATALOG_TITLES: Record<string, CatalogTitle> = {
  'amayadori-cafe': {
    titleScreen: { background: 'cafe_rain', bgm: 'amayadori', effect: 'rain' },
    cast: {
      chikage: { name: '千景', color: '#d07a5a' },
      shigure: { name: '時雨', color: '#3f5a8a', drawing: 'shigure', expressions: humanExpressions(['serious', 'cry']) },
      sumiko: { name: '澄子', color: '#8a6aa8', drawing: 'sumiko', expressions: humanExpressions(['cry']) },
      genzo: { name: '源さん', color: '#6a7a5a' },
      keisuke: { name: 'おじいさん', color: '#5a6a7a' },
    },
    scenes: {
      cafe_rain: () => cafeSvg(CAFE.rain),
      cafe_evening: () => cafeSvg(CAFE.evening),
      arcade_rain: arcadeSvg,
      busstop_rain: () => busStopSvg(BUSSTOP.rain),
      busstop_clear: () => busStopSvg(BUSSTOP.clear),
      busstop_memory: () => busStopSvg(BUSSTOP.memory),
    },
    endings: {
      saikai: '雨あがりの再会',
      tabi: '紺色の傘は旅をする',
    },
    keyart: {
      bg: 'cafe_rain',
      chars: [
        { id: 'sumiko', expr: 'gentle', x: 760, y: 90, scale: 0.92 },
        { id: 'shigure', expr: 'smile', x: 420, y: 60, scale: 1.0 },
      ],
      title: 'アマヤドリ・カフェ',
      latin: 'AMAYADORI CAFE',
      tagline: '雨の日にだけ現れる、紺色の傘の謎。',
      brand: 'こもれび堂',
      band: '#2f3d66',
      accent: '#f2d8a0',
      drops: true,
    },
  },
  'shizuka-no-umi-postman': {
    titleScreen: { background: 'surface', bgm: 'tsuki_no_yubin', effect: 'stars' },
    cast: {
      sora: { name: 'ソラ', color: '#3a7ab0' },
      nana: { name: 'ナナ', color: '#2aa0b8', drawing: 'robot' },
      kaguya: { name: 'かぐや局長', color: '#c8384a', drawing: 'kaguya', expressions: humanExpressions(['grin', 'teasing', 'serious']) },
      uzuki: { name: '卯月', color: '#c86a28', drawing: 'uzuki', expressions: humanExpressions([]) },
      dangoya: { name: '団子屋さん', color: '#a85a6a' },
      kenkyuin: { name: '研究員さん', color: '#5a8a4a' },
    },
    scenes: {
      yubinkyoku: postOfficeSvg,
      dome_street: domeStreetSvg,
      farm: farmSvg,
      hangar: hangarSvg,
      surface: surfaceSvg,
    },
    endings: {
      henji: 'うさぎからの返事',
      haitatsu: 'ナナの配達記録',
    },
    keyart: {
      bg: 'surface',
      chars: [
        { id: 'nana', expr: 'proud', x: 80, y: 150, scale: 0.86 },
        { id: 'uzuki', expr: 'smile', x: 700, y: 120, scale: 0.86 },
      ],
      title: 'しずかの海のポストマン',
      latin: 'POSTMAN OF THE SEA OF TRANQUILITY',
      tagline: '宛先は「月のうさぎさま」。月面郵便局、配達開始。',
      brand: '月灯工房',
      band: '#101a36',
      accent: '#f7d774',
      drops: false,
    },
  },
};

function put(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

function buildTitle(id: string, spec: CatalogTitle): string {
  const dir = path.join(ROOT, 'games', id);
  for (const sub of ['art', 'music', 'sfx']) fs.rmSync(path.join(dir, sub), { recursive: true, force: true });
  const backgrounds = Object.fromEntries(
    Object.entries(spec.scenes).map(([bgId, draw]) => {
      put(path.join(dir, `art/bg/${bgId}.svg`), draw());
      return [bgId, `art/bg/${bgId}.svg`];
    }),
  );
  const characters = Object.fromEntries(
    Object.entries(spec.cast).map(([charId, member]) => {
      const sprites: Record<string, string> = {};
      for (const expr of expressionsOf(member)) {
        sprites[expr] = `art/chars/${charId}/${expr}.svg`;
        put(path.join(dir, sprites[expr]), spriteFor(member, expr));
      }
      return [charId, { name: member.name, color: member.color, sprites }];
    }),
  );
  const music = Object.fromEntries(
    Object.entries(CATALOG_TRACKS[id]).map(([trackId, track]) => {
      put(path.join(dir, `music/${trackId}.json`), JSON.stringify(compose(track)) + '\n');
      return [trackId, `music/${trackId}.json`];
    }),
  );
  const sfx = Object.fromEntries(
    Object.entries(CATALOG_SFX[id]).map(([sfxId, s]) => {
      put(path.join(dir, `sfx/${sfxId}.json`), JSON.stringify(s, null, 2) + '\n');
      return [sfxId, `sfx/${sfxId}.json`];
    }),
  );
  const game = { titleScreen: spec.titleScreen, characters, backgrounds, music, sfx, endings: spec.endings };
  put(path.join(dir, 'game.json'), JSON.stringify(game, null, 2) + '\n');
  const keySvg = path.join(dir, 'art', 'keyart.svg');
  put(keySvg, keyartSvg(spec.keyart));
  const png = path.join(ROOT, 'public', 'games', id, 'keyart.png');
  fs.mkdirSync(path.dirname(png), { recursive: true });
  execFileSync('rsvg-convert', ['-w', '1280', '-h', '720', '-o', png, keySvg]);
  const spriteCount = Object.values(characters).reduce((a, c) => a + Object.keys(c.sprites).length, 0);
  return `${id}: ${Object.keys(backgrounds).length} backgrounds, ${spriteCount} sprites, ${Object.keys(music).length} tracks, ` +
    `${Object.keys(sfx).length} sfx, key art ${(fs.statSync(png).size / 1024).toFixed(0)} KB`;
}

const only = process.argv.slice(2);
for (const [id, spec] of Object.entries(CATALOG_TITLES)) {
  if (!only.length || only.includes(id)) console.log(buildTitle(id, spec));
}
