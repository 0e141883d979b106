/**
 * npx tsx scripts/art/generate.ts
 *
 * Builds every generated asset of the three titles from the parts in this folder:
 *   games/<id>/art/bg/<bgId>.svg            backgrounds, 1280×720
 *   games/<id>/art/chars/<charId>/<expr>.svg character sprites, 560×680
 *   games/<id>/music/<trackId>.json          scores (docs/vn-engine.md)
 *   games/<id>/sfx/<sfxId>.json              parametric sound effects
 *   games/<id>/game.json                     engine data (ids → files, names, colours, endings)
 *   games/<id>/art/keyart.svg                key art composition
 *   public/games/<id>/keyart.png             key art, rendered with rsvg-convert (librsvg2-bin)
 * story.ink and meta.json are written by hand and never touched here.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {
  beachSvg,
  bedroomSvg,
  crossingSvg,
  konbiniSvg,
  libraryEntranceSvg,
  libraryHallSvg,
  parkSvg,
  readingRoomSvg,
  RIVER,
  riversideSvg,
  ROOFTOP,
  rooftopSvg,
  stacksSvg,
  STATION,
  stationSvg,
  townSvg,
} from './backgrounds';
import { compose, SFX, TRACKS } from './music';
import { catSvg, chihiro, hina, mio, type Design, shiori, SPRITE_H, SPRITE_W, spriteSvg, takatsuki } from './sprites';
import { FONT_SANS, FONT_SERIF, linear, petal, rng, sparkle, starPath, svgDoc } from './svg';

const ROOT = path.resolve(__dirname, '..', '..');

interface CharSpec {
  name: string;
  color: string;
  /** a human design, 'cat' for ノクト, or undefined for a voice without a sprite (the narrator) */
  design?: Design | 'cat';
  expressions?: string[];
}

interface KeyArt {
  bg: string;
  chars: Array<{ id: string; expr: string; x: number; y: number; scale: number }>;
  title: string;
  titleColor: [string, string];
  titleStroke: string;
  latin: string;
  tagline: string;
  brand: string;
  titleX: number;
  titleY: number;
  extra?: (r: () => number) => string;
}

interface TitleSpec {
  /** engine extension: the title screen's background, music and weather effect */
  titleScreen: { background: string; bgm: string; effect?: 'rain' | 'snow' | 'sakura' | 'stars' };
  characters: Record<string, CharSpec>;
  backgrounds: Record<string, () => string>;
  endings: Record<string, string>;
  keyart: KeyArt;
}

const HUMAN_EXPRESSIONS = ['normal', 'smile', 'gentle', 'sad', 'surprised', 'shy', 'troubled'];

export const TITLES: Record<string, TitleSpec> = {
  'hajimari-no-eki': {
    titleScreen: { background: 'eki_dusk', bgm: 'natsu_no_owari' },
    characters: {
      minato: { name: '湊', color: '#4f7fb8' },
      mio: { name: '澪', color: '#5b6fb5', design: mio, expressions: [...HUMAN_EXPRESSIONS, 'cry'] },
      hina: { name: '陽菜', color: '#e07a3a', design: hina, expressions: [...HUMAN_EXPRESSIONS, 'grin', 'angry'] },
    },
    backgrounds: {
      eki_dusk: () => stationSvg(STATION.dusk),
      eki_night: () => stationSvg(STATION.night),
      eki_morning: () => stationSvg(STATION.morning),
      eki_memory: () => stationSvg(STATION.memory),
      town: townSvg,
      beach: beachSvg,
    },
    endings: {
      yakusoku: '約束の切符',
      asa: 'はじまりの朝',
      wasuremono: '夏の終わりの忘れもの',
    },
    keyart: {
      bg: 'eki_dusk',
      chars: [{ id: 'mio', expr: 'gentle', x: 700, y: 60, scale: 1.0 }],
      title: 'はじまりの駅',
      titleColor: ['#ffffff', '#ffe2b8'],
      titleStroke: '#7a3f5a',
      latin: 'HAJIMARI NO EKI',
      tagline: '「この駅から、もう一度はじめたいの」',
      brand: '夕凪ソフト',
      titleX: 70,
      titleY: 150,
    },
  },
  'hoshifuru-toshokan': {
    titleScreen: { background: 'lib_entrance', bgm: 'hoshi_no_waltz', effect: 'stars' },
    characters: {
      me: { name: 'わたし', color: '#6a8aa8' },
      nazo: { name: '？？？', color: '#8a8aa0' },
      shiori: { name: 'シオリ', color: '#8a6ad0', design: shiori, expressions: [...HUMAN_EXPRESSIONS, 'cry', 'serious'] },
      nocto: { name: 'ノクト', color: '#c9a24a', design: 'cat', expressions: ['normal', 'smile', 'annoyed', 'surprised', 'sleepy'] },
    },
    backgrounds: {
      room_night: () => bedroomSvg(true),
      room_morning: () => bedroomSvg(false),
      lib_entrance: libraryEntranceSvg,
      lib_hall: libraryHallSvg,
      lib_reading: readingRoomSvg,
      lib_stacks: stacksSvg,
      lib_rooftop: () => rooftopSvg(ROOFTOP.night),
      lib_rooftop_dawn: () => rooftopSvg(ROOFTOP.dawn),
    },
    endings: {
      tsuzuki: 'つづきを書く人',
      yoru: '夜の司書',
      wasuremono: '朝の忘れもの',
    },
    keyart: {
      bg: 'lib_hall',
      chars: [
        { id: 'shiori', expr: 'smile', x: 690, y: 50, scale: 1.02 },
        { id: 'nocto', expr: 'normal', x: 470, y: 380, scale: 0.5 },
      ],
      title: '星降る図書館',
      titleColor: ['#fff8dc', '#f2c14e'],
      titleStroke: '#2a2160',
      latin: 'HOSHIFURU TOSHOKAN',
      tagline: '読まれなかった物語が、星になって降ってくる。',
      brand: '月灯工房',
      titleX: 70,
      titleY: 150,
      extra: (r) => {
        let s = '';
        for (let i = 0; i < 14; i++) s += `<path d="${sparkle(40 + r() * 560, 40 + r() * 300, 4 + r() * 9)}" fill="#fff6c8" opacity="${(0.5 + r() * 0.5).toFixed(2)}"/>`;
        s += `<path d="${starPath(560, 96, 20)}" fill="#f7d774"/>`;
        return s;
      },
    },
  },
  'sakurairo-signal': {
    titleScreen: { background: 'fumikiri', bgm: 'sakura_signal', effect: 'sakura' },
    characters: {
      haruto: { name: '遥斗', color: '#4f8ab8' },
      chihiro: { name: '千尋', color: '#c27a8a', design: chihiro, expressions: [...HUMAN_EXPRESSIONS, 'teasing', 'cry'] },
      takatsuki: { name: '高槻', color: '#3a7ad0', design: takatsuki, expressions: ['normal', 'smile', 'surprised', 'troubled'] },
    },
    backgrounds: {
      fumikiri: () => crossingSvg(false),
      fumikiri_dawn: () => crossingSvg(true),
      konbini: konbiniSvg,
      park: parkSvg,
      river_night: () => riversideSvg(RIVER.night),
      river_dawn: () => riversideSvg(RIVER.dawn),
    },
    endings: {
      yakusoku: '桜色の約束',
      shutter: 'シャッターを切る朝',
      shihatsu: '始発のベル',
    },
    keyart: {
      bg: 'fumikiri',
      chars: [{ id: 'chihiro', expr: 'gentle', x: 650, y: 60, scale: 1.0 }],
      title: '桜色シグナル',
      titleColor: ['#ffffff', '#ffc4d6'],
      titleStroke: '#7a2a4a',
      latin: 'SAKURAIRO SIGNAL',
      tagline: '終電のあと、始発まで。言えなかった気持ちと、桜の咲く朝。',
      brand: '夕凪ソフト',
      titleX: 560,
      titleY: 600,
      extra: (r) => {
        let s = '';
        for (let i = 0; i < 36; i++) s += petal(r() * 1280, r() * 720, 1.4 + r() * 1.6, r() * 360, '#ffd0de', 0.5 + r() * 0.45);
        return s;
      },
    },
  },
};

function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

function keyartSvg(spec: KeyArt): string {
  const r = rng(4242);
  const defs =
    linear('ttl', [
      { o: 0, c: spec.titleColor[0] },
      { o: 1, c: spec.titleColor[1] },
    ]) +
    linear('shade', [
      { o: 0, c: '#000000', a: 0.55 },
      { o: 0.45, c: '#000000', a: 0 },
    ], 0, 0, 0, 1) +
    linear('shadeb', [
      { o: 0.55, c: '#000000', a: 0 },
      { o: 1, c: '#000000', a: 0.55 },
    ], 0, 0, 0, 1) +
    `<filter id="glow" x="-20%" y="-40%" width="140%" height="180%"><feGaussianBlur in="SourceAlpha" stdDeviation="6"/><feOffset dx="0" dy="3" result="b"/>` +
    `<feFlood flood-color="#000000" flood-opacity="0.55"/><feComposite in2="b" operator="in"/><feMerge><feMergeNode/><feMergeNode in="SourceGraphic"/></feMerge></filter>`;
  let b = `<image href="bg/${spec.bg}.svg" x="0" y="0" width="1280" height="720"/>`;
  for (const c of spec.chars) {
    const w = SPRITE_W * c.scale;
    const h = SPRITE_H * c.scale;
    b += `<image href="chars/${c.id}/${c.expr}.svg" x="${c.x}" y="${c.y}" width="${w}" height="${h}"/>`;
  }
  if (spec.extra) b += spec.extra(r);
  const bottom = spec.titleY > 360;
  b += `<rect width="1280" height="720" fill="url(#${bottom ? 'shadeb' : 'shade'})"/>`;
  const x = spec.titleX;
  const y = spec.titleY;
  b += `<g filter="url(#glow)">`;
  b += `<text x="${x}" y="${y}" font-family="${FONT_SERIF}" font-weight="700" font-size="96" letter-spacing="6" fill="url(#ttl)" stroke="${spec.titleStroke}" stroke-width="3" paint-order="stroke">${spec.title}</text>`;
  b += `<text x="${x + 6}" y="${y + 42}" font-family="${FONT_SANS}" font-size="22" letter-spacing="9" fill="#ffffff" opacity="0.9">${spec.latin}</text>`;
  b += `<text x="${x + 4}" y="${y + 84}" font-family="${FONT_SERIF}" font-size="26" fill="#ffffff">${spec.tagline}</text>`;
  b += `</g>`;
  b += `<text x="1248" y="${bottom ? 48 : 690}" text-anchor="end" font-family="${FONT_SANS}" font-weight="700" font-size="22" letter-spacing="4" fill="#ffffff" opacity="0.85">${spec.brand}</text>`;
  return svgDoc(1280, 720, defs, b);
}

function main(): void {
  const only = process.argv.slice(2);
  for (const [id, spec] of Object.entries(TITLES)) {
    if (only.length && !only.includes(id)) continue;
    const dir = path.join(ROOT, 'games', id);
    for (const sub of ['art', 'music', 'sfx']) fs.rmSync(path.join(dir, sub), { recursive: true, force: true });
    const game = {
      titleScreen: spec.titleScreen,
      characters: {} as Record<string, { name: string; color: string; sprites: Record<string, string> }>,
      backgrounds: {} as Record<string, string>,
      music: {} as Record<string, string>,
      sfx: {} as Record<string, string>,
      endings: spec.endings,
    };
    for (const [bgId, draw] of Object.entries(spec.backgrounds)) {
      const rel = `art/bg/${bgId}.svg`;
      write(path.join(dir, rel), draw());
      game.backgrounds[bgId] = rel;
    }
    for (const [charId, c] of Object.entries(spec.characters)) {
      const sprites: Record<string, string> = {};
      for (const expr of c.expressions ?? []) {
        const rel = `art/chars/${charId}/${expr}.svg`;
        const svg = c.design === 'cat' ? catSvg(expr) : spriteSvg(c.design as Design, expr);
        write(path.join(dir, rel), svg);
        sprites[expr] = rel;
      }
      game.characters[charId] = { name: c.name, color: c.color, sprites };
    }
    for (const [trackId, t] of Object.entries(TRACKS[id])) {
      const rel = `music/${trackId}.json`;
      write(path.join(dir, rel), JSON.stringify(compose(t)) + '\n');
      game.music[trackId] = rel;
    }
    for (const [sfxId, s] of Object.entries(SFX[id])) {
      const rel = `sfx/${sfxId}.json`;
      write(path.join(dir, rel), JSON.stringify(s, null, 2) + '\n');
      game.sfx[sfxId] = rel;
    }
    write(path.join(dir, 'game.json'), JSON.stringify(game, null, 2) + '\n');
    const keySvg = path.join(dir, 'art', 'keyart.svg');
    write(keySvg, keyartSvg(spec.keyart));
    const png = path.join(ROOT, 'public', 'games', id, 'keyart.png');
    fs.mkdirSync(path.dirname(png), { recursive: true });
    execFileSync('rsvg-convert', ['-w', '1280', '-h', '720', '-o', png, keySvg]);
    console.log(`${id}: ${Object.keys(game.backgrounds).length} backgrounds, ` +
      `${Object.values(game.characters).reduce((a, c) => a + Object.keys(c.sprites).length, 0)} sprites, ` +
      `${Object.keys(game.music).length} tracks, ${Object.keys(game.sfx).length} sfx, key art ${(fs.statSync(png).size / 1024).toFixed(0)} KB`);
  }
}

main();
