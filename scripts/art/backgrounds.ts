/**
 * Backgrounds (1280×720 SVG), flat/gradient illustration. Each scene is a function of a
 * palette so one drawing gives several times of day (dusk, night, morning, a sepia memory).
 */
import { FONT_SANS, linear, mix, n, petal, r2, radial, rng, sparkle, starField, starPath, svgDoc } from './svg';

const W = 1280;
const H = 720;

// ---------------------------------------------------------------------------------------------
// shared pieces

function rect(fill: string, x = 0, y = 0, w = W, h = H, extra = ''): string {
  return `<rect x="${n(x)}" y="${n(y)}" width="${n(w)}" height="${n(h)}" fill="${fill}"${extra}/>`;
}

function glow(id: string, color: string, a = 0.8): string {
  return radial(id, [
    { o: 0, c: color, a },
    { o: 0.35, c: color, a: a * 0.45 },
    { o: 1, c: color, a: 0 },
  ]);
}

function cloud(x: number, y: number, s: number, fill: string, op = 1, shade?: string): string {
  const blobs: Array<[number, number, number]> = [
    [0, 0, 38],
    [40, -18, 46],
    [88, -6, 40],
    [124, 8, 30],
    [-34, 12, 26],
    [60, 14, 34],
  ];
  let out = `<g transform="translate(${n(x)},${n(y)}) scale(${r2(s)})" opacity="${op}">`;
  if (shade) out += `<ellipse cx="46" cy="30" rx="104" ry="16" fill="${shade}"/>`;
  out += blobs.map(([bx, by, r]) => `<circle cx="${bx}" cy="${by}" r="${r}" fill="${fill}"/>`).join('');
  out += `<rect x="-52" y="14" width="196" height="30" rx="15" fill="${fill}"/></g>`;
  return out;
}

/** Rolling hills/mountains: a smooth silhouette through random heights. */
function ridge(seed: number, y: number, amp: number, fill: string, step = 80, x0 = -40, x1 = W + 40): string {
  const r = rng(seed);
  const p: Array<[number, number]> = [];
  for (let x = x0; x <= x1; x += step) p.push([x, y - r() * amp]);
  let d = `M${x0},${H} L${n(p[0][0])},${n(p[0][1])}`;
  for (let i = 1; i < p.length; i++) {
    const [px, py] = p[i - 1];
    const [qx, qy] = p[i];
    d += ` Q${n(px + step / 2)},${n(Math.min(py, qy) - amp * 0.15)} ${n(qx)},${n(qy)}`;
  }
  d += ` L${x1},${H}Z`;
  return `<path d="${d}" fill="${fill}"/>`;
}

/** A wire hanging between two points. */
function wire(x1: number, y1: number, x2: number, y2: number, sag: number, color: string, w = 1.6): string {
  return `<path d="M${n(x1)},${n(y1)} Q${n((x1 + x2) / 2)},${n((y1 + y2) / 2 + sag)} ${n(x2)},${n(y2)}" fill="none" stroke="${color}" stroke-width="${w}"/>`;
}

function utilityPole(x: number, top: number, bottom: number, color: string, w = 10): string {
  return (
    rect(color, x - w / 2, top, w, bottom - top) +
    rect(color, x - w * 4, top + w * 2, w * 8, w * 0.7) +
    rect(color, x - w * 3, top + w * 5, w * 6, w * 0.6)
  );
}

function roundTree(x: number, y: number, s: number, leaf: string, trunk: string, shade: string): string {
  return (
    `<g transform="translate(${n(x)},${n(y)}) scale(${r2(s)})">` +
    `<path d="M-8,0 L-5,-70 L5,-70 L8,0Z" fill="${trunk}"/>` +
    `<circle cx="0" cy="-100" r="50" fill="${leaf}"/><circle cx="-38" cy="-76" r="34" fill="${leaf}"/>` +
    `<circle cx="38" cy="-78" r="36" fill="${leaf}"/><circle cx="10" cy="-70" r="34" fill="${shade}"/>` +
    `<circle cx="-14" cy="-118" r="22" fill="${mix(leaf, '#ffffff', 0.15)}"/></g>`
  );
}

/** A cherry tree: dark trunk and branches, clouds of pink blossom. */
function sakuraTree(seed: number, x: number, y: number, s: number, pink: string, pinkLight: string, pinkShade: string, trunk: string): string {
  const r = rng(seed);
  let out = `<g transform="translate(${n(x)},${n(y)}) scale(${r2(s)})">`;
  out += `<path d="M-14,0 C-10,-60 -18,-110 -4,-160 L6,-160 C0,-110 12,-60 16,0Z" fill="${trunk}"/>`;
  out += `<path d="M-4,-140 C-40,-170 -80,-180 -120,-200 M2,-150 C40,-180 90,-190 130,-214 M0,-160 C-6,-200 10,-230 4,-260" fill="none" stroke="${trunk}" stroke-width="9" stroke-linecap="round"/>`;
  const blobs: Array<[number, number, number]> = [];
  for (let i = 0; i < 26; i++) {
    const a = r() * Math.PI;
    const rr = 60 + r() * 110;
    blobs.push([Math.cos(a) * rr * 1.35, -190 - Math.sin(a) * rr * 0.75 + r() * 20, 34 + r() * 26]);
  }
  out += blobs.map(([bx, by, br]) => `<circle cx="${n(bx)}" cy="${n(by + 8)}" r="${n(br)}" fill="${pinkShade}"/>`).join('');
  out += blobs.map(([bx, by, br]) => `<circle cx="${n(bx)}" cy="${n(by)}" r="${n(br)}" fill="${pink}"/>`).join('');
  out += blobs
    .filter((_, i) => i % 3 === 0)
    .map(([bx, by, br]) => `<circle cx="${n(bx - br * 0.25)}" cy="${n(by - br * 0.3)}" r="${n(br * 0.55)}" fill="${pinkLight}"/>`)
    .join('');
  out += '</g>';
  return out;
}

function fallingPetals(seed: number, count: number, color: string, area: [number, number, number, number] = [0, 0, W, H]): string {
  const r = rng(seed);
  let out = '';
  for (let i = 0; i < count; i++) {
    out += petal(area[0] + r() * area[2], area[1] + r() * area[3], 0.9 + r() * 1.3, r() * 360, color, 0.55 + r() * 0.4);
  }
  return out;
}

function sepiaFilter(): string {
  return (
    `<filter id="sepia" color-interpolation-filters="sRGB"><feColorMatrix type="matrix" values="` +
    `0.39 0.77 0.19 0 0.02  0.35 0.69 0.17 0 0.01  0.27 0.53 0.13 0 0  0 0 0 1 0"/></filter>`
  );
}

function vignette(id: string, color = '#000', a = 0.55): string {
  return radial(id, [
    { o: 0.55, c: color, a: 0 },
    { o: 1, c: color, a },
  ], 0.5, 0.5, 0.75);
}

// ---------------------------------------------------------------------------------------------
// はじまりの駅: the seaside station

export interface StationPalette {
  sky: [string, string, string];
  sea: [string, string];
  sun?: { x: number; y: number; r: number; color: string; glow: string };
  moon?: { x: number; y: number; r: number };
  stars: number;
  hill: [string, string];
  platform: [string, string];
  edge: string;
  structure: string;
  structureShade: string;
  roof: string;
  sign: string;
  signText: string;
  grass: string;
  flower: string;
  lampOn: boolean;
  light: string;
  reflection: string;
  clouds: string;
  cloudShade: string;
  memory?: boolean;
}

export const STATION: Record<string, StationPalette> = {
  dusk: {
    sky: ['#2f2f6e', '#b65b7a', '#ffb067'],
    sea: ['#e48a6a', '#3c3a72'],
    sun: { x: 800, y: 396, r: 40, color: '#ffe2a0', glow: '#ffb36b' },
    stars: 18,
    hill: ['#4a3a62', '#2d2748'],
    platform: ['#8f7f8e', '#5b4f66'],
    edge: '#f1d36b',
    structure: '#5a3e3e',
    structureShade: '#3b2830',
    roof: '#7a4c48',
    sign: '#f4efe6',
    signText: '#2b3a6b',
    grass: '#3e4a3a',
    flower: '#ffcf4a',
    lampOn: false,
    light: '#ffd59a',
    reflection: '#ffd39a',
    clouds: '#f59a86',
    cloudShade: '#a95f7d',
  },
  night: {
    sky: ['#070b22', '#16214d', '#2d4378'],
    sea: ['#22325e', '#0a1230'],
    moon: { x: 1010, y: 120, r: 34 },
    stars: 220,
    hill: ['#151c3a', '#0c1128'],
    platform: ['#444b66', '#262b42'],
    edge: '#b8a85a',
    structure: '#2c2c40',
    structureShade: '#1a1a2a',
    roof: '#33304a',
    sign: '#d9dcef',
    signText: '#1d2a55',
    grass: '#17212a',
    flower: '#b89a3a',
    lampOn: true,
    light: '#ffe7b0',
    reflection: '#c9d8ff',
    clouds: '#2a3562',
    cloudShade: '#1a2248',
  },
  morning: {
    sky: ['#5fb2ec', '#a9dcf7', '#fff3d9'],
    sea: ['#7cc6ea', '#2f86c4'],
    sun: { x: 1080, y: 150, r: 40, color: '#fffbe8', glow: '#fff3c0' },
    stars: 0,
    hill: ['#6fa58a', '#4d8470'],
    platform: ['#d3cfc8', '#a9a29a'],
    edge: '#f4d23c',
    structure: '#8a6248',
    structureShade: '#6a4834',
    roof: '#b5573f',
    sign: '#ffffff',
    signText: '#1f3f8f',
    grass: '#5e9a4e',
    flower: '#ffd21f',
    lampOn: false,
    light: '#ffffff',
    reflection: '#ffffff',
    clouds: '#ffffff',
    cloudShade: '#d6e9f7',
  },
};
STATION.memory = { ...STATION.dusk, memory: true, stars: 0 };

export function stationSvg(pal: StationPalette): string {
  const vp: [number, number] = [980, 430];
  let defs =
    linear('sky', [
      { o: 0, c: pal.sky[0] },
      { o: 0.6, c: pal.sky[1] },
      { o: 1, c: pal.sky[2] },
    ]) +
    linear('sea', [
      { o: 0, c: pal.sea[0] },
      { o: 1, c: pal.sea[1] },
    ]) +
    linear('plat', [
      { o: 0, c: pal.platform[0] },
      { o: 1, c: pal.platform[1] },
    ]) +
    glow('sunglow', pal.sun ? pal.sun.glow : '#ffffff', 0.9) +
    glow('lampglow', pal.light, 0.85) +
    glow('moonglow', '#dfe8ff', 0.5) +
    vignette('vig');
  if (pal.memory) defs += sepiaFilter();
  let b = '';
  b += rect('url(#sky)', 0, 0, W, 420);
  if (pal.stars) b += starField(11, pal.stars, 0, 0, W, 360);
  if (pal.sun) {
    b += `<circle cx="${pal.sun.x}" cy="${pal.sun.y}" r="${pal.sun.r * 5}" fill="url(#sunglow)"/>`;
    b += `<circle cx="${pal.sun.x}" cy="${pal.sun.y}" r="${pal.sun.r}" fill="${pal.sun.color}"/>`;
  }
  if (pal.moon) {
    b += `<circle cx="${pal.moon.x}" cy="${pal.moon.y}" r="${pal.moon.r * 5}" fill="url(#moonglow)"/>`;
    b += `<circle cx="${pal.moon.x}" cy="${pal.moon.y}" r="${pal.moon.r}" fill="#f4f1dc"/>`;
    b += `<circle cx="${pal.moon.x + 12}" cy="${pal.moon.y - 8}" r="${pal.moon.r}" fill="${pal.sky[0]}" opacity="0.0"/>`;
  }
  b += cloud(120, 120, 1.1, pal.clouds, 0.85, pal.cloudShade);
  b += cloud(620, 80, 0.8, pal.clouds, 0.7, pal.cloudShade);
  b += cloud(880, 210, 1.3, pal.clouds, 0.75, pal.cloudShade);
  // distant headland and lighthouse
  b += `<path d="M0,402 C80,360 160,340 260,356 C320,366 360,390 420,402Z" fill="${pal.hill[0]}"/>`;
  b += `<path d="M1280,402 C1200,352 1120,334 1060,346 C1000,360 980,390 940,402Z" fill="${pal.hill[0]}"/>`;
  b += `<rect x="1150" y="318" width="14" height="44" fill="${mix(pal.hill[0], '#ffffff', 0.5)}"/><path d="M1146,318 L1168,318 L1157,306Z" fill="${mix(pal.hill[0], '#ff6a5a', 0.5)}"/>`;
  if (pal.lampOn) b += `<circle cx="1157" cy="322" r="40" fill="url(#lampglow)"/>`;
  // the sea
  b += rect('url(#sea)', 0, 400, W, 230);
  const rr = rng(7);
  const refX = pal.sun ? pal.sun.x : pal.moon ? pal.moon.x : 640;
  for (let i = 0; i < 26; i++) {
    const y = 404 + i * 5 + rr() * 3;
    const w = 30 + rr() * 90 + i * 3;
    b += rect(pal.reflection, refX - w / 2 + (rr() - 0.5) * 40, y, w, 2, ` opacity="${n(0.75 - i * 0.02)}"`);
  }
  for (let i = 0; i < 40; i++) {
    b += rect(pal.reflection, rr() * W, 410 + rr() * 120, 16 + rr() * 40, 1.5, ' opacity="0.25"');
  }
  // the far right: embankment with grass and the track
  b += `<path d="M${vp[0]},${vp[1]} L1280,470 L1280,720 L1060,720Z" fill="${pal.grass}"/>`;
  b += `<path d="M${vp[0]},${vp[1]} L1280,520 L1280,720 L700,720Z" fill="${mix(pal.platform[1], '#000000', 0.3)}"/>`;
  // sleepers and rails
  for (let i = 0; i < 18; i++) {
    const t = 1 - Math.pow(0.82, i + 1);
    const y = 720 - (720 - vp[1]) * t;
    const xl = 900 + (vp[0] - 900) * t;
    const xr = 1230 + (vp[0] - 1230) * t;
    b += `<path d="M${n(xl)},${n(y)} L${n(xr)},${n(y)}" stroke="${mix(pal.structureShade, '#000000', 0.2)}" stroke-width="${n(9 * (1 - t) + 1)}"/>`;
  }
  for (const x0 of [960, 1170]) {
    b += `<path d="M${x0},720 L${vp[0]},${vp[1]}" stroke="${mix(pal.platform[0], '#ffffff', 0.35)}" stroke-width="4"/>`;
  }
  // poles along the track
  for (const t of [0.05, 0.45, 0.7, 0.84]) {
    const x = 1250 + (vp[0] + 40 - 1250) * t;
    const yb = 720 + (vp[1] - 720) * t;
    const h = 420 * (1 - t) + 40;
    b += rect(pal.structureShade, x - 6 * (1 - t) - 1, yb - h, 12 * (1 - t) + 2, h);
    b += rect(pal.structureShade, x - 60 * (1 - t) - 8, yb - h + 10, 70 * (1 - t) + 10, 4 * (1 - t) + 1.5);
  }
  b += wire(1250, 310, vp[0] + 40, 392, 14, pal.structureShade, 2);
  b += wire(1250, 330, vp[0] + 40, 398, 14, pal.structureShade, 1.4);
  // platform surface and edge
  b += `<path d="M0,600 L0,720 L700,720 L951,460 L804,460Z" fill="url(#plat)"/>`;
  b += `<path d="M700,720 L951,460 L951,474 L728,720Z" fill="${mix(pal.platform[1], '#000000', 0.35)}"/>`;
  b += `<path d="M640,720 L930,460" stroke="${pal.edge}" stroke-width="10" opacity="0.9"/>`;
  b += `<path d="M560,720 L904,460" stroke="#ffffff" stroke-width="4" opacity="0.35"/>`;
  // fence along the sea side
  for (let i = 0; i <= 16; i++) {
    const t = i / 16;
    const x = t * 804;
    const y = 600 - 140 * t;
    const h = 70 * (1 - t * 0.7);
    b += rect(pal.structure, x - 3, y - h, 6 * (1 - t * 0.5), h);
  }
  b += `<path d="M0,540 L804,418" stroke="${pal.structure}" stroke-width="7"/><path d="M0,566 L804,436" stroke="${pal.structure}" stroke-width="5"/>`;
  // waiting shelter
  const sx = 130;
  b += `<path d="M${sx - 30},300 L${sx + 330},284 L${sx + 350},316 L${sx - 40},332Z" fill="${pal.roof}"/>`;
  b += `<path d="M${sx - 40},332 L${sx + 350},316 L${sx + 350},326 L${sx - 40},342Z" fill="${pal.structureShade}"/>`;
  b += rect(pal.structureShade, sx - 10, 338, 300, 240);
  b += rect(pal.structure, sx - 10, 338, 300, 40);
  for (let i = 0; i < 5; i++) b += rect(mix(pal.structure, '#000000', 0.15), sx - 10, 390 + i * 38, 300, 3);
  b += rect(pal.structure, sx - 22, 326, 16, 260) + rect(pal.structure, sx + 292, 322, 16, 264);
  // bench
  b += rect(mix(pal.structure, '#ffffff', 0.25), sx + 20, 500, 240, 16) + rect(pal.structureShade, sx + 34, 516, 10, 50) + rect(pal.structureShade, sx + 236, 516, 10, 50);
  b += rect(mix(pal.structure, '#ffffff', 0.18), sx + 20, 456, 240, 12);
  // timetable and poster on the shelter wall
  b += rect(mix(pal.sign, pal.structure, 0.2), sx + 40, 392, 70, 48) + rect(pal.signText, sx + 48, 400, 54, 3) + rect(pal.signText, sx + 48, 410, 40, 2) + rect(pal.signText, sx + 48, 418, 48, 2) + rect(pal.signText, sx + 48, 426, 30, 2);
  b += rect(mix('#6fb7e0', pal.structure, 0.3), sx + 170, 384, 60, 78) + `<circle cx="${sx + 200}" cy="412" r="14" fill="${mix('#ffd36b', pal.structure, 0.3)}"/>`;
  // station lamp
  b += rect(pal.structureShade, 482, 250, 8, 340);
  b += `<path d="M470,250 L502,250 L496,266 L476,266Z" fill="${pal.structureShade}"/>`;
  b += `<circle cx="486" cy="270" r="${pal.lampOn ? 8 : 6}" fill="${pal.lampOn ? '#fff6d8' : mix(pal.sign, pal.structure, 0.4)}"/>`;
  if (pal.lampOn) {
    b += `<circle cx="486" cy="272" r="150" fill="url(#lampglow)"/>`;
    b += `<path d="M476,268 L380,640 L600,640 L496,268Z" fill="${pal.light}" opacity="0.08"/>`;
  }
  // station name board
  b += rect(pal.structureShade, 548, 430, 8, 160) + rect(pal.structureShade, 744, 430, 8, 160);
  b += `<rect x="530" y="360" width="240" height="100" rx="6" fill="${pal.sign}" stroke="${pal.structureShade}" stroke-width="4"/>`;
  b += `<text x="650" y="402" text-anchor="middle" font-family="${FONT_SANS}" font-size="34" font-weight="700" fill="${pal.signText}">なぎはま</text>`;
  b += `<text x="650" y="424" text-anchor="middle" font-family="${FONT_SANS}" font-size="15" fill="${pal.signText}">凪浜　NAGIHAMA</text>`;
  b += rect(pal.signText, 530, 432, 240, 14);
  b += `<text x="540" y="455" font-family="${FONT_SANS}" font-size="11" fill="${pal.signText}">← しおさい</text>`;
  b += `<text x="760" y="455" text-anchor="end" font-family="${FONT_SANS}" font-size="11" fill="${pal.signText}">はまかぜ →</text>`;
  // planter with sunflowers in the foreground
  b += `<rect x="40" y="610" width="260" height="70" rx="6" fill="${mix(pal.structure, '#ffffff', 0.1)}"/>`;
  const fr = rng(3);
  for (let i = 0; i < 6; i++) {
    const x = 60 + i * 42 + fr() * 10;
    const top = 470 + fr() * 80;
    b += `<path d="M${n(x)},612 C${n(x + 6)},560 ${n(x - 6)},520 ${n(x)},${n(top)}" stroke="${pal.grass}" stroke-width="5" fill="none"/>`;
    b += `<ellipse cx="${n(x - 16)}" cy="${n(top + 60)}" rx="16" ry="7" fill="${pal.grass}" transform="rotate(-20 ${n(x - 16)} ${n(top + 60)})"/>`;
    for (let k = 0; k < 12; k++) {
      const a = (k / 12) * Math.PI * 2;
      b += `<ellipse cx="${n(x + Math.cos(a) * 18)}" cy="${n(top + Math.sin(a) * 18)}" rx="10" ry="5" fill="${pal.flower}" transform="rotate(${n((a * 180) / Math.PI)} ${n(x + Math.cos(a) * 18)} ${n(top + Math.sin(a) * 18)})"/>`;
    }
    b += `<circle cx="${n(x)}" cy="${n(top)}" r="12" fill="${mix(pal.structureShade, '#6b3a10', 0.5)}"/>`;
  }
  b += rect(mix(pal.structure, '#000000', 0.1), 40, 660, 260, 20);
  if (pal.memory) {
    b = `<g filter="url(#sepia)">${b}</g>` + rect('url(#vig)') + rect('#fff3d6', 0, 0, W, H, ' opacity="0.12"');
  } else if (pal.lampOn) {
    b += rect('url(#vig)');
  }
  return svgDoc(W, H, defs, b);
}

// ---------------------------------------------------------------------------------------------
// はじまりの駅: the town street going down to the sea (evening)

export function townSvg(): string {
  const defs =
    linear('sky', [
      { o: 0, c: '#3d4e8f' },
      { o: 0.55, c: '#e48a7a' },
      { o: 1, c: '#ffd08a' },
    ]) +
    linear('sea', [
      { o: 0, c: '#f0a27a' },
      { o: 1, c: '#6a5f95' },
    ]) +
    linear('road', [
      { o: 0, c: '#8d7f92' },
      { o: 1, c: '#4d4460' },
    ]) +
    glow('win', '#ffd58a', 0.9) +
    glow('sunglow', '#ffc37a', 0.9);
  let b = rect('url(#sky)', 0, 0, W, 380);
  b += `<circle cx="640" cy="360" r="220" fill="url(#sunglow)"/><circle cx="640" cy="362" r="40" fill="#ffe8b0"/>`;
  b += cloud(160, 110, 1.2, '#f7a58d', 0.8, '#b86f8a') + cloud(900, 70, 1, '#f7a58d', 0.75, '#b86f8a') + cloud(1100, 200, 0.7, '#f9b89a', 0.7);
  b += rect('url(#sea)', 0, 360, W, 120);
  const r = rng(21);
  for (let i = 0; i < 18; i++) b += rect('#ffe1b0', 640 - (20 + i * 7) + (r() - 0.5) * 30, 366 + i * 5, 40 + i * 14, 2, ` opacity="${n(0.8 - i * 0.035)}"`);
  // the road sloping down to the sea, in perspective
  b += `<path d="M560,430 L720,430 L1040,720 L240,720Z" fill="url(#road)"/>`;
  b += `<path d="M636,430 L644,430 L660,720 L620,720Z" fill="#f4e4c0" opacity="0.5"/>`;
  b += `<path d="M560,430 L240,720 L180,720 L548,430Z" fill="#b9a8a8"/><path d="M720,430 L1040,720 L1100,720 L732,430Z" fill="#b9a8a8"/>`;
  // houses on the left: draw far to near
  const housesL: Array<[number, number, number, number, string, string]> = [
    [470, 380, 80, 70, '#7d5b6f', '#5a3a52'],
    [380, 350, 120, 110, '#8a6774', '#4e3350'],
    [230, 300, 170, 180, '#9a7070', '#553050'],
    [-20, 220, 260, 330, '#a3756e', '#5b344c'],
  ];
  for (const [x, y, w, h, wall, roof] of housesL) {
    b += `<path d="M${x - 14},${y} L${x + w / 2},${y - h * 0.35} L${x + w + 14},${y}Z" fill="${roof}"/>`;
    b += rect(wall, x, y, w, h + 40);
    const cols = Math.max(1, Math.floor(w / 70));
    for (let c = 0; c < cols; c++) {
      const wx = x + 18 + c * (w / cols);
      b += rect('#ffd58a', wx, y + h * 0.25, w / cols - 36, h * 0.28, ' opacity="0.9"');
      b += `<circle cx="${n(wx + (w / cols - 36) / 2)}" cy="${n(y + h * 0.39)}" r="${n(w / 2)}" fill="url(#win)" opacity="0.6"/>`;
    }
  }
  // the little shop on the right (ひなた商店)
  b += `<path d="M760,330 L1000,300 L1000,520 L760,470Z" fill="#9d7a6a"/>`;
  b += `<path d="M1000,300 L1300,250 L1300,720 L1000,720Z" fill="#b08672"/>`;
  b += `<path d="M990,290 L1300,230 L1300,250 L1000,300Z" fill="#5e3848"/>`;
  // awning with stripes
  let stripes = '';
  for (let i = 0; i < 8; i++) {
    const x1 = 1000 + i * 40;
    stripes += `<path d="M${x1},${n(330 - i * 7)} L${x1 + 40},${n(330 - (i + 1) * 7)} L${x1 + 48},${n(400 - (i + 1) * 7)} L${x1 + 8},${n(400 - i * 7)}Z" fill="${i % 2 ? '#ffffff' : '#e35d5b'}"/>`;
  }
  b += stripes;
  b += rect('#ffe2a8', 1040, 420, 220, 200, ' opacity="0.95"');
  b += `<circle cx="1150" cy="520" r="200" fill="url(#win)" opacity="0.7"/>`;
  for (let i = 0; i < 4; i++) b += rect(['#e36f6f', '#6fb3e3', '#f3c545', '#8bd17c'][i], 1060 + i * 50, 480, 36, 26) + rect(['#f39c6b', '#c79be3', '#7fd6c8', '#f37fa8'][i], 1060 + i * 50, 540, 36, 26);
  b += rect('#7a5448', 1040, 460, 220, 6) + rect('#7a5448', 1040, 520, 220, 6) + rect('#7a5448', 1040, 580, 220, 6);
  b += `<rect x="1020" y="260" width="200" height="46" rx="4" fill="#fff8e8" stroke="#5e3848" stroke-width="4" transform="skewY(-9) translate(0,160)"/>`;
  b += `<text x="1120" y="452" text-anchor="middle" font-family="${FONT_SANS}" font-size="30" font-weight="700" fill="#c0392b" transform="skewY(-9)">ひなた商店</text>`;
  // vending machine and bench
  b += rect('#e8eef5', 860, 400, 90, 170) + rect('#8fd0f0', 872, 414, 66, 80) + rect('#3c4a6a', 872, 506, 66, 10);
  for (let i = 0; i < 4; i++) b += rect(['#e35d5b', '#3b8fd0', '#f3c545', '#5bc06f'][i], 876 + i * 16, 426, 10, 24) + rect(['#5bc06f', '#e35d5b', '#3b8fd0', '#f3c545'][i], 876 + i * 16, 458, 10, 24);
  b += `<circle cx="905" cy="460" r="120" fill="url(#win)" opacity="0.35"/>`;
  // utility poles and wires
  b += utilityPole(730, 160, 470, '#3a2c45', 8) + utilityPole(300, 60, 640, '#3a2c45', 12);
  b += wire(0, 120, 300, 84, 10, '#3a2c45', 2) + wire(300, 84, 730, 178, 18, '#3a2c45', 2) + wire(730, 178, 1280, 120, 30, '#3a2c45', 2);
  b += wire(0, 150, 300, 124, 12, '#3a2c45', 1.5) + wire(300, 124, 730, 200, 18, '#3a2c45', 1.5) + wire(730, 200, 1280, 150, 30, '#3a2c45', 1.5);
  // street mirror
  b += rect('#c9c9d6', 180, 440, 6, 240) + `<circle cx="183" cy="430" r="30" fill="#f07a3a"/><circle cx="183" cy="430" r="23" fill="#cfd8f0"/><circle cx="176" cy="424" r="8" fill="#ffffff" opacity="0.6"/>`;
  // summer grass at the bottom
  const g = rng(5);
  let grass = '';
  for (let i = 0; i < 60; i++) {
    const x = g() * 240;
    grass += `<path d="M${n(x)},720 Q${n(x + 6)},${n(680 - g() * 30)} ${n(x + 14 - g() * 28)},${n(640 - g() * 50)}" stroke="#4c5a48" stroke-width="4" fill="none"/>`;
  }
  b += grass;
  return svgDoc(W, H, defs, b);
}

// ---------------------------------------------------------------------------------------------
// はじまりの駅: the beach at blue hour

export function beachSvg(): string {
  const defs =
    linear('sky', [
      { o: 0, c: '#0f1840' },
      { o: 0.6, c: '#3a4f8c' },
      { o: 1, c: '#c98a9a' },
    ]) +
    linear('sea', [
      { o: 0, c: '#4c5f98' },
      { o: 1, c: '#14224a' },
    ]) +
    linear('sand', [
      { o: 0, c: '#8a7a8a' },
      { o: 1, c: '#4e4560' },
    ]) +
    glow('moonglow', '#e8eeff', 0.55) +
    glow('beam', '#fff4c8', 0.8) +
    linear('beamfade', [
      { o: 0, c: '#fff4c8', a: 0 },
      { o: 1, c: '#fff4c8', a: 0.6 },
    ], 0, 0, 1, 0);
  let b = rect('url(#sky)', 0, 0, W, 400);
  b += starField(42, 160, 0, 0, W, 330);
  b += `<circle cx="300" cy="150" r="160" fill="url(#moonglow)"/><circle cx="300" cy="150" r="30" fill="#f6f3df"/>`;
  b += cloud(760, 250, 1.4, '#6a6a9c', 0.45) + cloud(1040, 300, 0.9, '#8a7aa0', 0.4);
  b += `<path d="M0,392 C200,380 360,372 520,392Z" fill="#28305a"/>`;
  b += rect('url(#sea)', 0, 390, W, 200);
  const r = rng(17);
  for (let i = 0; i < 24; i++) b += rect('#e8eeff', 300 - (10 + i * 5) + (r() - 0.5) * 24, 396 + i * 7, 20 + i * 9, 2, ` opacity="${n(0.7 - i * 0.025)}"`);
  // waves
  for (let k = 0; k < 4; k++) {
    const y = 470 + k * 34;
    let d = `M0,${y}`;
    for (let x = 0; x <= W; x += 80) d += ` q20,${-6 - k} 40,0 t40,0`;
    b += `<path d="${d}" fill="none" stroke="#dfe8ff" stroke-width="${2 + k}" opacity="${0.25 + k * 0.12}"/>`;
  }
  // sand and foam edge
  b += `<path d="M0,590 C240,570 480,600 760,586 C980,574 1140,600 1280,588 L1280,720 L0,720Z" fill="url(#sand)"/>`;
  b += `<path d="M0,590 C240,570 480,600 760,586 C980,574 1140,600 1280,588" fill="none" stroke="#e8eeff" stroke-width="5" opacity="0.7"/>`;
  // breakwater and lighthouse
  b += `<path d="M860,420 L1280,404 L1280,470 L860,452Z" fill="#2a2f4a"/>`;
  for (let i = 0; i < 9; i++) b += `<path d="M${860 + i * 48},452 l20,-14 l24,6 l-6,14Z" fill="#3a4062"/>`;
  b += `<path d="M1120,406 L1140,250 L1180,250 L1200,402Z" fill="#e9e3ea"/>`;
  b += `<path d="M1128,340 L1192,340 L1196,370 L1124,370Z M1136,280 L1184,280 L1188,306 L1132,306Z" fill="#d04a4a"/>`;
  b += rect('#2a2f4a', 1132, 226, 56, 26) + `<path d="M1128,226 L1160,200 L1192,226Z" fill="#d04a4a"/>`;
  b += `<circle cx="1160" cy="238" r="70" fill="url(#beam)"/>`;
  b += `<path d="M1160,238 L640,150 L640,262Z" fill="url(#beamfade)" opacity="0.5"/>`;
  // shells and a driftwood log
  b += `<path d="M120,660 C180,640 300,646 360,660 C300,672 180,674 120,660Z" fill="#3a3246"/>`;
  b += `<path d="M900,650 q8,-14 16,0Z M940,672 q6,-10 12,0Z" fill="#e8d8e0" opacity="0.7"/>`;
  b += rect('#000', 0, 0, W, H, ' opacity="0.05"');
  return svgDoc(W, H, defs, b);
}

// ---------------------------------------------------------------------------------------------
// 星降る図書館

function shootingStars(seed: number, count: number, area: [number, number, number, number]): string {
  const r = rng(seed);
  let out = '';
  for (let i = 0; i < count; i++) {
    const x = area[0] + r() * area[2];
    const y = area[1] + r() * area[3];
    const len = 60 + r() * 120;
    out += `<path d="M${n(x)},${n(y)} l${n(-len)},${n(-len * 0.45)}" stroke="url(#streak)" stroke-width="${n(1.5 + r() * 2)}" stroke-linecap="round"/>`;
    out += `<circle cx="${n(x)}" cy="${n(y)}" r="${n(2 + r() * 2)}" fill="#fff8d8"/>`;
  }
  return out;
}

function libraryDefs(): string {
  return (
    linear('streak', [
      { o: 0, c: '#fff8d8', a: 0 },
      { o: 1, c: '#fff8d8', a: 1 },
    ], 0, 0, 1, 0) +
    glow('starglow', '#ffe9a0', 0.9) +
    glow('lampg', '#ffd98a', 0.8) +
    vignette('vig', '#05051a', 0.7)
  );
}

/** Glowing fallen star fragments. */
function starBits(seed: number, count: number, area: [number, number, number, number], size = 1): string {
  const r = rng(seed);
  let out = '';
  for (let i = 0; i < count; i++) {
    const x = area[0] + r() * area[2];
    const y = area[1] + r() * area[3];
    const s = (4 + r() * 8) * size;
    out += `<circle cx="${n(x)}" cy="${n(y)}" r="${n(s * 4)}" fill="url(#starglow)" opacity="0.6"/>`;
    out += `<path d="${sparkle(x, y, s)}" fill="#fff6c8"/>`;
  }
  return out;
}

/** A bookshelf face: rows of coloured spines. */
function shelf(seed: number, x: number, y: number, w: number, h: number, rows: number, wood: string, woodDark: string, spines: string[], dim = 0): string {
  const r = rng(seed);
  let out = rect(woodDark, x, y, w, h) + rect(wood, x, y, w, 10) + rect(wood, x, y + h - 12, w, 12);
  out += rect(wood, x, y, 10, h) + rect(wood, x + w - 10, y, 10, h);
  const rowH = (h - 22) / rows;
  for (let i = 0; i < rows; i++) {
    const ry = y + 10 + i * rowH;
    let bx = x + 12;
    while (bx < x + w - 16) {
      const bw = 7 + r() * 12;
      const bh = rowH * (0.62 + r() * 0.3);
      if (bx + bw > x + w - 12) break;
      const c = mix(spines[Math.floor(r() * spines.length)], '#000000', dim);
      if (r() < 0.08) {
        out += `<path d="M${n(bx)},${n(ry + rowH - 6)} l${n(bh * 0.3)},${n(-bh)} l${n(bw)},0 l${n(-bh * 0.3)},${n(bh)}Z" fill="${c}"/>`;
        bx += bw + bh * 0.3;
      } else {
        out += rect(c, bx, ry + rowH - 6 - bh, bw, bh);
        if (bw > 11) out += rect(mix(c, '#ffd98a', 0.5), bx + 2, ry + rowH - 6 - bh * 0.7, bw - 4, 2, ' opacity="0.8"');
      }
      bx += bw + 1;
    }
    out += rect(wood, x, ry + rowH - 6, w, 6);
  }
  return out;
}

const SPINES = ['#7a2e3a', '#2e4a7a', '#2e6a5a', '#8a6a2e', '#5a3a7a', '#3a3a5a', '#9a4a2e', '#4a6a8a', '#6a2e5a'];

export function libraryEntranceSvg(): string {
  const defs =
    libraryDefs() +
    linear('sky', [
      { o: 0, c: '#060826' },
      { o: 0.7, c: '#1b2360' },
      { o: 1, c: '#4a3f86' },
    ]) +
    linear('hill', [
      { o: 0, c: '#1c2350' },
      { o: 1, c: '#0a0d24' },
    ]) +
    glow('moonglow', '#dfe6ff', 0.6) +
    glow('wing', '#ffd98a', 0.9);
  let b = rect('url(#sky)');
  b += starField(301, 380, 0, 0, W, 520, false);
  // milky way band
  b += `<path d="M-40,420 C300,260 700,200 1320,40 L1320,140 C760,280 360,360 -40,520Z" fill="#8f9ad8" opacity="0.12"/>`;
  b += starField(302, 200, 200, 120, 900, 260, false);
  b += `<circle cx="1080" cy="130" r="200" fill="url(#moonglow)"/><circle cx="1080" cy="130" r="52" fill="#f6f1d8"/><circle cx="1100" cy="118" r="48" fill="#0f1440" opacity="0.92"/>`;
  b += shootingStars(303, 9, [100, 40, 1100, 300]);
  b += ridge(304, 600, 60, '#141a42', 120);
  b += `<path d="M-40,720 C200,560 500,520 640,520 C780,520 1080,560 1320,720Z" fill="url(#hill)"/>`;
  // the library: central dome and two wings
  const c = 640;
  b += rect('#2a2852', c - 330, 360, 660, 170) + rect('#34316a', c - 330, 352, 660, 14);
  b += `<path d="M${c - 150},360 L${c - 150},260 L${c + 150},260 L${c + 150},360Z" fill="#322f64"/>`;
  b += `<path d="M${c - 130},262 C${c - 130},150 ${c + 130},150 ${c + 130},262Z" fill="#3d3a78"/>`;
  b += `<path d="M${c - 130},262 C${c - 130},150 ${c},150 ${c},164" fill="none" stroke="#5a57a0" stroke-width="6"/>`;
  b += rect('#3d3a78', c - 6, 120, 12, 50) + `<path d="${starPath(c, 112, 18)}" fill="#ffe69a"/><circle cx="${c}" cy="112" r="60" fill="url(#starglow)"/>`;
  // arched windows, lit
  const win = (x: number, y: number, w: number, h: number) =>
    `<path d="M${x},${y + h} L${x},${y + w / 2} A${w / 2},${w / 2} 0 0 1 ${x + w},${y + w / 2} L${x + w},${y + h}Z" fill="#ffd98a"/>` +
    `<path d="M${x + w / 2},${y + 4} L${x + w / 2},${y + h} M${x},${y + h * 0.6} L${x + w},${y + h * 0.6}" stroke="#8a6a3a" stroke-width="3"/>` +
    `<circle cx="${x + w / 2}" cy="${y + h / 2}" r="${w * 1.6}" fill="url(#wing)" opacity="0.45"/>`;
  for (let i = 0; i < 5; i++) b += win(c - 310 + i * 34, 400, 22, 70) + win(c + 148 + i * 34, 400, 22, 70);
  for (let i = 0; i < 4; i++) b += win(c - 110 + i * 60, 280, 30, 64);
  // great door
  b += `<path d="M${c - 44},530 L${c - 44},450 A44,44 0 0 1 ${c + 44},450 L${c + 44},530Z" fill="#ffcf70"/>`;
  b += `<path d="M${c},410 L${c},530" stroke="#8a5a2a" stroke-width="4"/><circle cx="${c}" cy="470" r="140" fill="url(#wing)" opacity="0.55"/>`;
  b += `<path d="M${c - 340},360 L${c},300 L${c + 340},360" fill="none" stroke="#4a4790" stroke-width="6"/>`;
  // path with lamps
  b += `<path d="M${c - 40},530 C${c - 60},600 ${c - 160},660 ${c - 220},720 L${c + 220},720 C${c + 160},660 ${c + 60},600 ${c + 40},530Z" fill="#2b2a5a"/>`;
  for (const [x, y, s] of [
    [c - 90, 580, 0.6],
    [c + 90, 580, 0.6],
    [c - 170, 650, 1],
    [c + 170, 650, 1],
  ] as Array<[number, number, number]>) {
    b += rect('#15142e', x - 3 * s, y - 80 * s, 6 * s, 80 * s) + `<circle cx="${x}" cy="${y - 84 * s}" r="${9 * s}" fill="#fff0b8"/><circle cx="${x}" cy="${y - 84 * s}" r="${70 * s}" fill="url(#lampg)"/>`;
  }
  b += starBits(305, 6, [120, 520, 1040, 160], 0.8);
  // trees at the sides
  b += roundTree(120, 640, 1.4, '#141a3c', '#0c0f26', '#10142f') + roundTree(1180, 660, 1.6, '#141a3c', '#0c0f26', '#10142f');
  b += rect('url(#vig)');
  return svgDoc(W, H, defs, b);
}

export function libraryHallSvg(): string {
  const defs =
    libraryDefs() +
    linear('win', [
      { o: 0, c: '#0a0d35' },
      { o: 1, c: '#3a3590' },
    ]) +
    linear('floor', [
      { o: 0, c: '#3a2a3a' },
      { o: 1, c: '#170f1c' },
    ]) +
    linear('wall', [
      { o: 0, c: '#1a1638' },
      { o: 1, c: '#2c2346' },
    ]);
  let b = rect('url(#wall)');
  // the great arched window showing the sky
  b += `<path d="M470,470 L470,200 A170,170 0 0 1 810,200 L810,470Z" fill="url(#win)"/>`;
  b += `<g clip-path="url(#wclip)">${starField(401, 160, 470, 30, 340, 440, false)}${shootingStars(402, 5, [520, 60, 300, 300])}</g>`;
  b += `<clipPath id="wclip"><path d="M470,470 L470,200 A170,170 0 0 1 810,200 L810,470Z"/></clipPath>`;
  b += `<path d="M640,30 L640,470 M470,260 L810,260 M470,370 L810,370" stroke="#6a4a3a" stroke-width="8"/>`;
  b += `<path d="M470,470 L470,200 A170,170 0 0 1 810,200 L810,470" fill="none" stroke="#7a5a3a" stroke-width="14"/>`;
  b += `<circle cx="640" cy="120" r="46" fill="none" stroke="#6a4a3a" stroke-width="6"/>`;
  // side shelves converging toward the window
  b += `<path d="M0,0 L420,110 L420,520 L0,720Z" fill="#24182a"/>`;
  b += `<path d="M1280,0 L860,110 L860,520 L1280,720Z" fill="#24182a"/>`;
  const persp = (side: number) => {
    let out = '';
    for (let i = 0; i < 6; i++) {
      const t0 = i / 6;
      const t1 = (i + 1) / 6;
      const x0 = side < 0 ? 420 * t0 : 1280 - 420 * t0;
      const x1 = side < 0 ? 420 * t1 : 1280 - 420 * t1;
      const yt0 = 110 * t0;
      const yb0 = 720 - 200 * t0;
      const yt1 = 110 * t1;
      const yb1 = 720 - 200 * t1;
      for (let k = 0; k < 8; k++) {
        const f = (k + 0.5) / 8;
        const r = rng(i * 31 + k + (side > 0 ? 500 : 0));
        const col = SPINES[Math.floor(r() * SPINES.length)];
        const ya0 = yt0 + (yb0 - yt0) * (k / 8);
        const ya1 = yt1 + (yb1 - yt1) * (k / 8);
        const hb0 = ((yb0 - yt0) / 8) * 0.8;
        const hb1 = ((yb1 - yt1) / 8) * 0.8;
        out += `<path d="M${n(x0)},${n(ya0 + 6)} L${n(x1)},${n(ya1 + 6)} L${n(x1)},${n(ya1 + hb1)} L${n(x0)},${n(ya0 + hb0)}Z" fill="${mix(col, '#1a1030', 0.4 + f * 0.1 + t0 * 0.25)}"/>`;
        out += `<path d="M${n(x0)},${n(ya0 + hb0)} L${n(x1)},${n(ya1 + hb1)}" stroke="#5a3a2a" stroke-width="${n(5 - t0 * 3)}"/>`;
      }
      out += `<path d="M${n(x0)},${n(yt0)} L${n(x0)},${n(yb0)}" stroke="#6a4630" stroke-width="${n(10 - t0 * 7)}"/>`;
    }
    return out;
  };
  b += persp(-1) + persp(1);
  // floor
  b += `<path d="M0,720 L420,520 L860,520 L1280,720Z" fill="url(#floor)"/>`;
  for (let i = 1; i < 8; i++) {
    const x = 420 + (440 * i) / 8;
    b += `<path d="M${n(x)},520 L${n(640 + (x - 640) * 3.9)},720" stroke="#4a3448" stroke-width="2"/>`;
  }
  for (const y of [540, 570, 610, 660]) b += `<path d="M0,${y + (720 - y) * 0} L1280,${y}" stroke="#4a3448" stroke-width="2" opacity="0.6"/>`;
  b += `<path d="M560,520 L720,520 L900,720 L380,720Z" fill="#6a2a3a" opacity="0.85"/>`;
  b += `<path d="M580,520 L700,520 L860,720 L420,720Z" fill="none" stroke="#c9a24a" stroke-width="3" opacity="0.7"/>`;
  // hanging star lanterns
  for (const [x, y, s] of [
    [300, 200, 1],
    [980, 200, 1],
    [470, 120, 0.6],
    [810, 120, 0.6],
    [200, 60, 0.8],
    [1080, 60, 0.8],
  ] as Array<[number, number, number]>) {
    b += `<path d="M${x},0 L${x},${y - 26 * s}" stroke="#8a6a3a" stroke-width="2"/>`;
    b += `<circle cx="${x}" cy="${y}" r="${90 * s}" fill="url(#starglow)"/>`;
    b += `<path d="${starPath(x, y, 24 * s)}" fill="#ffeaa0" stroke="#c9a24a" stroke-width="2"/>`;
  }
  // floating books and falling star bits
  const book = (x: number, y: number, rot: number, c: string) =>
    `<g transform="translate(${x},${y}) rotate(${rot})"><path d="M-30,0 Q-15,-10 0,-2 Q15,-10 30,0 L30,26 Q15,16 0,24 Q-15,16 -30,26Z" fill="#f4ead6" stroke="${c}" stroke-width="4"/><path d="M0,-2 L0,24" stroke="${c}" stroke-width="2"/></g>`;
  b += book(560, 300, -12, '#7a2e3a') + book(730, 240, 10, '#2e4a7a') + book(650, 390, 4, '#2e6a5a');
  b += starBits(403, 14, [120, 60, 1040, 440]);
  b += rect('url(#vig)');
  return svgDoc(W, H, defs, b);
}

export function readingRoomSvg(): string {
  const defs =
    libraryDefs() +
    linear('wall', [
      { o: 0, c: '#2a1f3a' },
      { o: 1, c: '#3a2a3a' },
    ]) +
    linear('floor', [
      { o: 0, c: '#4a3028' },
      { o: 1, c: '#23150f' },
    ]) +
    linear('nightwin', [
      { o: 0, c: '#0c1040' },
      { o: 1, c: '#3a3a8a' },
    ]) +
    glow('green', '#fff1b0', 0.95);
  let b = rect('url(#wall)');
  // back wall: shelves and a round window
  b += shelf(501, 40, 120, 400, 330, 4, '#6a4630', '#2a1a1a', SPINES, 0.2);
  b += shelf(502, 840, 120, 400, 330, 4, '#6a4630', '#2a1a1a', SPINES, 0.2);
  b += `<circle cx="640" cy="250" r="150" fill="url(#nightwin)"/>`;
  b += `<clipPath id="rw"><circle cx="640" cy="250" r="150"/></clipPath><g clip-path="url(#rw)">${starField(503, 90, 490, 100, 300, 300, false)}${shootingStars(504, 3, [560, 140, 220, 180])}<circle cx="720" cy="200" r="26" fill="#f6f1d8"/></g>`;
  b += `<circle cx="640" cy="250" r="150" fill="none" stroke="#7a5a3a" stroke-width="16"/><path d="M490,250 L790,250 M640,100 L640,400" stroke="#7a5a3a" stroke-width="8"/>`;
  b += rect('#4a3024', 0, 450, W, 20);
  // floor
  b += rect('url(#floor)', 0, 470, W, 250);
  for (let i = 0; i < 14; i++) b += `<path d="M${i * 100 - 40},470 L${i * 130 - 260},720" stroke="#2a1a12" stroke-width="2" opacity="0.6"/>`;
  // long table with lamps, in perspective
  b += `<path d="M300,500 L980,500 L1160,640 L120,640Z" fill="#6a4028"/>`;
  b += `<path d="M120,640 L1160,640 L1160,664 L120,664Z" fill="#3e2416"/>`;
  b += rect('#3e2416', 150, 664, 20, 56) + rect('#3e2416', 1110, 664, 20, 56);
  // chairs behind the table
  for (const x of [360, 540, 740, 920]) b += `<path d="M${x - 40},500 L${x - 36},420 Q${x},404 ${x + 36},420 L${x + 40},500Z" fill="#3a2018" stroke="#5a3a28" stroke-width="3"/>`;
  // green banker's lamps
  for (const [x, y, s] of [
    [380, 560, 1],
    [900, 560, 1],
    [640, 520, 0.75],
  ] as Array<[number, number, number]>) {
    b += `<circle cx="${x}" cy="${y}" r="${180 * s}" fill="url(#green)" opacity="0.55"/>`;
    b += rect('#c9a24a', x - 4 * s, y - 40 * s, 8 * s, 40 * s) + `<ellipse cx="${x}" cy="${y}" rx="${30 * s}" ry="${8 * s}" fill="#c9a24a"/>`;
    b += `<path d="M${x - 50 * s},${y - 40 * s} Q${x},${y - 80 * s} ${x + 50 * s},${y - 40 * s}Z" fill="#2f7a4a" stroke="#1f5a34" stroke-width="3"/>`;
    b += `<path d="M${x - 50 * s},${y - 40 * s} L${x + 50 * s},${y - 40 * s}" stroke="#fff3c0" stroke-width="${4 * s}"/>`;
  }
  // open books and a star in a jar on the table
  b += `<path d="M500,590 Q540,574 580,586 Q620,574 660,590 L660,610 Q620,596 580,606 Q540,596 500,610Z" fill="#f4ead6" stroke="#8a6a4a" stroke-width="2"/>`;
  b += `<path d="M740,600 l70,-10 l10,22 l-70,10Z" fill="#2e4a7a"/>`;
  b += `<path d="M790,540 L790,580 Q790,596 810,596 L840,596 Q860,596 860,580 L860,540Z" fill="#cfe8ff" opacity="0.35" stroke="#e8f4ff" stroke-width="2"/>`;
  b += `<circle cx="825" cy="570" r="50" fill="url(#starglow)"/><path d="${sparkle(825, 570, 14)}" fill="#fff6c8"/>`;
  b += rect('#7a5a3a', 786, 532, 78, 10);
  b += starBits(505, 8, [80, 40, 1120, 400], 0.7);
  b += rect('url(#vig)');
  return svgDoc(W, H, defs, b);
}

export function stacksSvg(): string {
  const defs =
    libraryDefs() +
    linear('back', [
      { o: 0, c: '#10123a' },
      { o: 1, c: '#2a2050' },
    ]) +
    glow('far', '#a8b8ff', 0.7);
  let b = rect('url(#back)');
  // the corridor vanishing into blue light
  const vp: [number, number] = [640, 330];
  b += `<circle cx="${vp[0]}" cy="${vp[1]}" r="260" fill="url(#far)"/>`;
  // shelves on each side as receding segments
  for (const side of [-1, 1]) {
    for (let i = 7; i >= 0; i--) {
      const t0 = Math.pow(0.72, i);
      const t1 = Math.pow(0.72, i + 1);
      const xo = (t: number) => vp[0] + side * (700 * t + 40);
      const ytop = (t: number) => vp[1] - 420 * t - 20;
      const ybot = (t: number) => vp[1] + 400 * t + 10;
      const dim = 0.65 * (1 - t0);
      const wood = mix('#5a3a2a', '#1a1438', dim);
      {
        let seg = `<path d="M${n(xo(t0))},${n(ytop(t0))} L${n(xo(t1))},${n(ytop(t1))} L${n(xo(t1))},${n(ybot(t1))} L${n(xo(t0))},${n(ybot(t0))}Z" fill="${mix('#24182a', '#1a1438', dim)}"/>`;
        for (let k = 0; k < 7; k++) {
          const f0 = k / 7;
          const f1 = (k + 1) / 7;
          const y00 = ytop(t0) + (ybot(t0) - ytop(t0)) * f0;
          const y10 = ytop(t1) + (ybot(t1) - ytop(t1)) * f0;
          const y01 = ytop(t0) + (ybot(t0) - ytop(t0)) * f1;
          const y11 = ytop(t1) + (ybot(t1) - ytop(t1)) * f1;
          // books as thin slanted strips
          const r = rng(i * 13 + k * 7 + (side > 0 ? 99 : 0));
          const nb = 6 + Math.floor(r() * 4);
          for (let j = 0; j < nb; j++) {
            const a = j / nb;
            const c = (j + 0.85) / nb;
            const xa = xo(t0) + (xo(t1) - xo(t0)) * a;
            const xc = xo(t0) + (xo(t1) - xo(t0)) * c;
            const hgt = 0.55 + r() * 0.35;
            const ya = y01 + (y11 - y01) * a;
            const yc = y01 + (y11 - y01) * c;
            const ta = y00 + (y10 - y00) * a;
            const tc = y00 + (y10 - y00) * c;
            const col = mix(SPINES[Math.floor(r() * SPINES.length)], '#1a1438', dim);
            seg += `<path d="M${n(xa)},${n(ya)} L${n(xc)},${n(yc)} L${n(xc)},${n(yc - (yc - tc) * hgt)} L${n(xa)},${n(ya - (ya - ta) * hgt)}Z" fill="${col}"/>`;
          }
          seg += `<path d="M${n(xo(t0))},${n(y01)} L${n(xo(t1))},${n(y11)}" stroke="${wood}" stroke-width="${n(2 + 6 * t0)}"/>`;
        }
        seg += `<path d="M${n(xo(t0))},${n(ytop(t0))} L${n(xo(t0))},${n(ybot(t0))}" stroke="${wood}" stroke-width="${n(3 + 14 * t0)}"/>`;
        b += seg;
      }
    }
  }
  // floor and ceiling
  b += `<path d="M0,${vp[1] + 410} L${vp[0] - 40},${vp[1] + 10} L${vp[0] + 40},${vp[1] + 10} L1280,${vp[1] + 410} L1280,720 L0,720Z" fill="#1c1228"/>`;
  b += `<path d="M${vp[0] - 40},${vp[1] + 10} L${vp[0] + 40},${vp[1] + 10} L900,720 L380,720Z" fill="#3a2a4a" opacity="0.6"/>`;
  b += `<path d="M0,0 L1280,0 L${vp[0] + 40},${vp[1] - 20} L${vp[0] - 40},${vp[1] - 20}Z" fill="#0c0a22"/>`;
  // a rolling ladder on the right
  b += `<path d="M1010,20 L1080,700 M1080,20 L1150,700" stroke="#8a6040" stroke-width="10"/>`;
  for (let i = 0; i < 10; i++) b += `<path d="M${1016 + i * 7},${60 + i * 66} L${1086 + i * 7},${60 + i * 66}" stroke="#a07050" stroke-width="8"/>`;
  b += rect('#6a4a30', 990, 10, 190, 14);
  // drifting star fragments and one glowing book on the floor
  b += starBits(601, 18, [200, 60, 880, 560], 0.9);
  b += `<g transform="translate(560,610) rotate(-8)"><circle r="120" fill="url(#starglow)" opacity="0.8"/><path d="M-50,0 Q-25,-16 0,-4 Q25,-16 50,0 L50,36 Q25,22 0,34 Q-25,22 -50,36Z" fill="#fff6dc" stroke="#c9a24a" stroke-width="4"/><path d="${starPath(0, -40, 14)}" fill="#fff0a8"/></g>`;
  b += rect('url(#vig)');
  return svgDoc(W, H, defs, b);
}

export interface RooftopPalette {
  sky: [string, string, string];
  stars: number;
  milky: number;
  town: string;
  lights: string;
  stone: string;
  stoneDark: string;
  rail: string;
  sun?: boolean;
}

export const ROOFTOP: Record<string, RooftopPalette> = {
  night: { sky: ['#04061c', '#151d52', '#3b3478'], stars: 420, milky: 0.16, town: '#0c0e28', lights: '#ffd98a', stone: '#3a3658', stoneDark: '#22203a', rail: '#1a1830' },
  dawn: { sky: ['#2a3a7a', '#b58ab8', '#ffd2a0'], stars: 40, milky: 0, town: '#4a4068', lights: '#ffe8b8', stone: '#8a7a98', stoneDark: '#5a4a6a', rail: '#3a2f4a', sun: true },
};

export function rooftopSvg(pal: RooftopPalette): string {
  const defs =
    libraryDefs() +
    linear('sky', [
      { o: 0, c: pal.sky[0] },
      { o: 0.65, c: pal.sky[1] },
      { o: 1, c: pal.sky[2] },
    ]) +
    glow('sun', '#ffe0a8', 0.95);
  let b = rect('url(#sky)');
  b += starField(701, pal.stars, 0, 0, W, 520, false);
  if (pal.milky) {
    b += `<path d="M200,720 C320,420 600,180 1100,-20 L1280,-20 C760,220 440,460 380,720Z" fill="#b8c0ff" opacity="${pal.milky}"/>`;
    b += `<path d="M260,720 C380,460 640,240 1160,-20" fill="none" stroke="#e8ecff" stroke-width="30" opacity="${pal.milky * 0.6}"/>`;
    b += starField(702, 260, 300, 0, 800, 600, false);
    b += shootingStars(703, 12, [100, 30, 1100, 300]);
  }
  if (pal.sun) {
    b += `<circle cx="900" cy="470" r="300" fill="url(#sun)"/><circle cx="900" cy="470" r="44" fill="#fff4d8"/>`;
    b += cloud(200, 300, 1.3, '#f3b8b8', 0.6) + cloud(1000, 240, 1, '#ffd0b0', 0.55);
  }
  // the town far below
  b += ridge(704, 500, 50, mix(pal.town, pal.sky[2], 0.4), 140);
  b += rect(pal.town, 0, 480, W, 240);
  const r = rng(705);
  for (let i = 0; i < 160; i++) b += rect(pal.lights, r() * W, 486 + r() * 80, 2 + r() * 3, 2, ` opacity="${n(0.4 + r() * 0.6)}"`);
  // the roof: stone floor, a small observatory dome, a telescope, railing
  b += `<path d="M0,560 L1280,540 L1280,720 L0,720Z" fill="${pal.stone}"/>`;
  for (let i = 0; i < 12; i++) b += `<path d="M${i * 120},${560 - i * 1.6} L${i * 150 - 200},720" stroke="${pal.stoneDark}" stroke-width="2" opacity="0.6"/>`;
  b += `<path d="M0,630 L1280,620 M0,680 L1280,676" stroke="${pal.stoneDark}" stroke-width="2" opacity="0.6"/>`;
  b += `<path d="M40,560 L40,380 C40,240 320,240 320,380 L320,560Z" fill="${pal.stoneDark}"/>`;
  b += `<path d="M40,380 C40,240 320,240 320,380Z" fill="${mix(pal.stone, '#ffffff', 0.1)}"/>`;
  b += `<path d="M160,266 L200,266 L200,380 L160,380Z" fill="${mix(pal.sky[0], '#000000', 0.3)}"/>`;
  b += `<path d="M40,380 L320,380" stroke="${pal.rail}" stroke-width="8"/>`;
  // telescope on a tripod
  b += `<g transform="translate(820,520)"><path d="M0,0 L-40,100 M0,0 L40,100 M0,0 L0,110" stroke="${pal.rail}" stroke-width="7"/>` +
    `<g transform="rotate(-32)"><rect x="-70" y="-18" width="170" height="36" rx="8" fill="#c9a24a"/><rect x="96" y="-24" width="26" height="48" rx="6" fill="#a07a2a"/><rect x="-90" y="-10" width="26" height="20" rx="4" fill="#8a6a2a"/></g></g>`;
  // railing
  b += rect(pal.rail, 0, 548, W, 10);
  for (let x = 360; x < W; x += 46) b += rect(pal.rail, x, 556, 8, 70);
  b += rect(pal.rail, 340, 620, W - 340, 8);
  // star fragments settling on the roof
  b += starBits(706, pal.sun ? 4 : 12, [380, 200, 860, 400], 0.9);
  if (!pal.sun) b += rect('url(#vig)');
  return svgDoc(W, H, defs, b);
}

export function bedroomSvg(night = false): string {
  const defs =
    linear('nightwin', [
      { o: 0, c: '#0a0f33' },
      { o: 1, c: '#2e3a78' },
    ]) +
    linear('moonray', [
      { o: 0, c: '#c8d8ff', a: 0.16 },
      { o: 1, c: '#c8d8ff', a: 0 },
    ], 0, 0, 1, 1) +
    linear('wall', [
      { o: 0, c: '#f6eadb' },
      { o: 1, c: '#e6d3bd' },
    ]) +
    linear('win', [
      { o: 0, c: '#8fcaf0' },
      { o: 1, c: '#fff4d6' },
    ]) +
    linear('ray', [
      { o: 0, c: '#fff6d8', a: 0.55 },
      { o: 1, c: '#fff6d8', a: 0 },
    ], 0, 0, 1, 1);
  let b = rect('url(#wall)');
  b += rect('#c9a27a', 0, 560, W, 160) + rect('#b08a64', 0, 556, W, 8);
  for (let i = 0; i < 10; i++) b += rect('#b8926a', i * 140, 560, 2, 160, ' opacity="0.5"');
  // window with curtains
  b += rect('url(#win)', 420, 90, 440, 330) + cloud(500, 220, 0.7, '#ffffff', 0.9) + cloud(720, 160, 0.5, '#ffffff', 0.8);
  b += `<path d="M420,90 L860,90 L860,420 L420,420Z M640,90 L640,420 M420,250 L860,250" fill="none" stroke="#ffffff" stroke-width="12"/>`;
  b += `<path d="M380,70 C420,200 400,330 440,440 L360,440 L360,70Z" fill="#9ec7b0"/><path d="M900,70 C860,200 880,330 840,440 L920,440 L920,70Z" fill="#9ec7b0"/>`;
  b += rect('#8a6a4a', 350, 60, 580, 12);
  b += `<path d="M440,90 L860,90 L1280,720 L760,720Z" fill="url(#ray)"/>`;
  // desk with a notebook and a star-shaped bookmark
  b += rect('#8a5a3a', 60, 470, 420, 20) + rect('#6a4028', 80, 490, 16, 170) + rect('#6a4028', 444, 490, 16, 170);
  b += `<path d="M150,468 L300,468 L310,456 L160,456Z" fill="#f8f4ea" stroke="#b8a890" stroke-width="2"/>`;
  if (!night) {
    b += `<path d="M200,470 L210,440 L230,470Z" fill="#f2c14e"/>`;
    b += `<path d="${starPath(216, 436, 12)}" fill="#f2c14e" stroke="#b58a25" stroke-width="2"/>`;
  }
  b += rect('#2e4a7a', 340, 420, 26, 50) + rect('#7a2e3a', 368, 430, 22, 40) + rect('#2e6a5a', 392, 416, 28, 54);
  // bed edge on the right
  b += `<path d="M980,480 L1280,460 L1280,720 L940,720Z" fill="#f4f1ff"/><path d="M980,480 L1280,460 L1280,520 L972,548Z" fill="#c9c3e6"/>`;
  b += `<path d="M1040,470 Q1110,440 1180,466 Q1110,490 1040,470Z" fill="#ffffff" stroke="#d8d2ec" stroke-width="3"/>`;
  // a poster and a shelf
  b += rect('#2a3060', 100, 130, 180, 240) + starField(801, 40, 110, 140, 160, 220, false) + `<path d="${starPath(190, 230, 30)}" fill="#f2c14e"/>`;
  b += rect('#8a6a4a', 980, 200, 220, 12);
  for (let i = 0; i < 9; i++) b += rect(SPINES[i], 990 + i * 22, 140, 18, 60);
  if (night) {
    // the same room at two in the morning: dark, with the night sky in the window
    b += rect('#0b1030', 0, 0, W, H, ' opacity="0.72"');
    b += rect('url(#nightwin)', 426, 96, 428, 318) + starField(802, 70, 430, 100, 420, 300, false);
    b += `<circle cx="760" cy="160" r="22" fill="#f4f1dc"/>`;
    b += `<path d="M420,90 L860,90 L860,420 L420,420Z M640,90 L640,420 M420,250 L860,250" fill="none" stroke="#5a6690" stroke-width="12"/>`;
    b += `<path d="M380,70 C420,200 400,330 440,440 L360,440 L360,70Z M900,70 C860,200 880,330 840,440 L920,440 L920,70Z" fill="#2c4a52"/>`;
    b += `<path d="M440,96 L860,96 L1200,720 L700,720Z" fill="url(#moonray)"/>`;
    b += `<path d="M560,140 l-60,40" stroke="#fff8d8" stroke-width="3" stroke-linecap="round"/><circle cx="560" cy="140" r="4" fill="#fff8d8"/>`;
  }
  return svgDoc(W, H, defs, b);
}

// ---------------------------------------------------------------------------------------------
// 桜色シグナル

const PINK = { pink: '#f7b6c8', light: '#ffe0ea', shade: '#d98aa6' };

export function crossingSvg(dawn = false): string {
  const defs =
    linear('sky', dawn
      ? [
          { o: 0, c: '#4a5aa0' },
          { o: 0.55, c: '#f2a6bc' },
          { o: 1, c: '#ffe0b8' },
        ]
      : [
          { o: 0, c: '#070a1e' },
          { o: 0.7, c: '#1c2248' },
          { o: 1, c: '#3a2f5a' },
        ]) +
    glow('sunrise', '#fff0c8', 0.9) +
    glow('red', '#ff3a3a', 0.9) +
    glow('lamp', '#fff0c8', 0.8) +
    glow('pinkglow', '#ffc8d8', 0.6) +
    vignette('vig', '#000010', 0.6) +
    linear('road', [
      { o: 0, c: dawn ? '#8a7890' : '#3a3448' },
      { o: 1, c: dawn ? '#4a3c58' : '#1a1624' },
    ]);
  let b = rect('url(#sky)');
  if (dawn) {
    b += starField(901, 12, 0, 0, W, 200);
    b += `<circle cx="640" cy="420" r="320" fill="url(#sunrise)"/><circle cx="640" cy="470" r="44" fill="#fff6e0"/>`;
    b += cloud(120, 130, 1.1, '#ffc8d0', 0.65, '#e59ab4') + cloud(720, 90, 0.8, '#ffd8c8', 0.6);
  } else {
    b += starField(901, 90, 0, 0, W, 360);
    b += `<circle cx="1120" cy="90" r="22" fill="#f4eed8"/><circle cx="1130" cy="84" r="20" fill="#0b0e24"/>`;
  }
  // houses and apartment blocks
  const bld = dawn ? ['#5a4a78', '#64507e', '#554470', '#5e4c7c'] : ['#141430', '#181838', '#121228', '#16163a'];
  const house = (x: number, y: number, w: number, h: number, c: string) =>
    `<path d="M${x - 10},${y} L${x + w / 2},${y - w * 0.28} L${x + w + 10},${y}Z" fill="${c}"/>` + rect(c, x, y, w, h);
  b += rect(bld[2], 0, 190, 150, 300) + house(140, 320, 130, 170, bld[0]) + house(270, 350, 110, 140, bld[1]);
  b += rect(bld[2], 900, 220, 260, 260) + house(1120, 320, 170, 170, bld[3]);
  b += rect(dawn ? '#4a3c68' : '#0c0c22', 0, 186, 150, 8);
  const r = rng(902);
  for (let i = 0; i < 30; i++) {
    const bx = [14, 160, 910, 1140][i % 4] + Math.floor(r() * 4) * 32;
    const by = [210, 350, 240, 340][i % 4] + Math.floor(r() * 4) * 34;
    if (r() < (dawn ? 0.15 : 0.45)) b += rect('#ffd58a', bx, by, 18, 14, ` opacity="${n(0.5 + r() * 0.5)}"`);
  }
  // the track across the scene, seen slightly from above
  b += `<path d="M0,500 L1280,470 L1280,560 L0,600Z" fill="#2a2634"/>`;
  for (let i = 0; i < 30; i++) b += `<path d="M${i * 46},${n(598 - i * 1.15)} L${i * 46 + 14},${n(500 - i * 0.8)}" stroke="#3e3648" stroke-width="10"/>`;
  b += `<path d="M0,530 L1280,494 M0,570 L1280,536" stroke="#8a8aa0" stroke-width="5"/>`;
  // the road crossing the track toward the viewer
  b += `<path d="M480,490 L760,484 L1100,720 L180,720Z" fill="url(#road)"/>`;
  b += `<path d="M612,490 L628,490 L660,720 L600,720Z" fill="#d8d2c0" opacity="0.35"/>`;
  // crossing barrier arm (down) with stripes
  // signal post on the left with crossbuck and lights (drawn large, close to the viewer)
  b += `<g transform="translate(-120,-250) scale(1.45)">`;
  let arm = '';
  for (let i = 0; i < 14; i++) arm += `<rect x="${262 + i * 24}" y="590" width="24" height="10" fill="${i % 2 ? '#f2d23a' : '#1a1a1a'}"/>`;
  b += `<g transform="rotate(-1.5 262 595)">${arm}</g>`;
  b += rect('#d8d8d8', 250, 300, 12, 330);
  for (let i = 0; i < 8; i++) b += rect(i % 2 ? '#1a1a1a' : '#f2d23a', 250, 470 + i * 20, 12, 20);
  b += `<g transform="translate(256,320)"><rect x="-60" y="-12" width="120" height="24" fill="#f2d23a" transform="rotate(30)" stroke="#1a1a1a" stroke-width="3"/><rect x="-60" y="-12" width="120" height="24" fill="#f2d23a" transform="rotate(-30)" stroke="#1a1a1a" stroke-width="3"/></g>`;
  b += rect('#1a1a1a', 196, 380, 120, 22);
  b += `<circle cx="214" cy="410" r="22" fill="#1a1a1a"/><circle cx="298" cy="410" r="22" fill="#1a1a1a"/>`;
  b += `<circle cx="214" cy="410" r="15" fill="#ff4a3a"/><circle cx="298" cy="410" r="15" fill="#5a1a1a"/>`;
  b += `<circle cx="214" cy="410" r="140" fill="url(#red)"/>`;
  b += rect('#1a1a1a', 226, 440, 60, 28, ' rx="4"') + `<path d="M238,468 L256,488 L274,468Z" fill="#f2f2f2"/>`;
  b += `</g>`;
  // a second signal far right, smaller
  b += rect('#c8c8c8', 990, 380, 7, 150) + `<circle cx="980" cy="420" r="8" fill="#5a1a1a"/><circle cx="1008" cy="420" r="8" fill="#ff4a3a"/><circle cx="1008" cy="420" r="70" fill="url(#red)"/>`;
  // street lamp and the cherry tree it lights
  b += sakuraTree(903, 1120, 480, 1.15, '#f2b2c6', '#ffdfe8', '#c77f9e', '#2a1a22');
  b += `<circle cx="1100" cy="270" r="260" fill="url(#pinkglow)" opacity="0.5"/>`;
  b += rect('#2a2a3a', 870, 170, 10, 540) + `<path d="M875,170 Q875,140 910,140 L950,140" fill="none" stroke="#2a2a3a" stroke-width="8"/>`;
  b += `<circle cx="950" cy="148" r="14" fill="${dawn ? '#d8d0e0' : '#fff6dc'}"/>`;
  if (!dawn) b += `<circle cx="950" cy="148" r="220" fill="url(#lamp)"/>`;
  b += fallingPetals(904, 40, '#ffd0de', [640, 200, 640, 500]);
  b += dawn ? rect('#ff9ab0', 0, 0, W, H, ' opacity="0.08"') : rect('url(#vig)');
  return svgDoc(W, H, defs, b);
}

export function konbiniSvg(): string {
  const defs =
    linear('sky', [
      { o: 0, c: '#080a20' },
      { o: 1, c: '#222850' },
    ]) +
    linear('inside', [
      { o: 0, c: '#f4fbff' },
      { o: 1, c: '#d8eef8' },
    ]) +
    glow('spill', '#e8f8ff', 0.75) +
    linear('lot', [
      { o: 0, c: '#3a3a4e' },
      { o: 1, c: '#1c1c28' },
    ]) +
    vignette('vig', '#000010', 0.55);
  let b = rect('url(#sky)', 0, 0, W, 300) + starField(951, 40, 0, 0, W, 200);
  b += rect('#151530', 0, 160, 300, 160) + rect('#1a1a38', 980, 130, 300, 190);
  // the store
  b += rect('#ecebe4', 140, 150, 1000, 390);
  b += rect('#2f9a5a', 140, 150, 1000, 26) + rect('#ffffff', 140, 176, 1000, 10) + rect('#f28a2a', 140, 186, 1000, 14) + rect('#3a7ad0', 140, 200, 1000, 12);
  b += `<rect x="480" y="60" width="320" height="80" rx="10" fill="#ffffff" stroke="#2f9a5a" stroke-width="8"/>`;
  b += `<text x="640" y="116" text-anchor="middle" font-family="${FONT_SANS}" font-size="40" font-weight="700" fill="#2f9a5a">サクラマート</text>`;
  b += rect('#a0a0a8', 636, 140, 8, 12);
  // big windows
  b += rect('url(#inside)', 170, 250, 940, 290);
  for (let row = 0; row < 3; row++) {
    for (let i = 0; i < 30; i++) {
      const x = 190 + i * 30;
      const y = 300 + row * 70;
      const cols = ['#e35d5b', '#f3c545', '#5bc06f', '#3b8fd0', '#f39c6b', '#c79be3', '#ffffff'];
      b += rect(cols[(i * 7 + row * 3) % cols.length], x, y, 24, 40, ' opacity="0.85"');
    }
    b += rect('#b8c8d0', 180, 342 + row * 70, 920, 6);
  }
  b += rect('#ffffff', 170, 250, 940, 30, ' opacity="0.7"');
  for (const x of [170, 405, 640, 875, 1110]) b += rect('#8a8a90', x - 4, 250, 8, 290);
  // automatic door in the middle
  b += rect('#ffffff', 560, 270, 160, 270, ' opacity="0.25"') + rect('#8a8a90', 636, 270, 8, 270);
  b += `<text x="640" y="300" text-anchor="middle" font-family="${FONT_SANS}" font-size="16" fill="#2f9a5a">24H OPEN</text>`;
  // light spilling onto the lot
  b += rect('url(#lot)', 0, 540, W, 180);
  b += `<ellipse cx="640" cy="600" rx="720" ry="120" fill="url(#spill)"/>`;
  for (const x of [200, 440, 840, 1080]) b += `<path d="M${x},570 L${x - 60},720" stroke="#f4f4f0" stroke-width="5" opacity="0.6"/>`;
  b += `<path d="M0,560 L1280,560" stroke="#5a5a6a" stroke-width="4"/>`;
  // trash bins, a bench and a bicycle
  b += rect('#5a8ad0', 1150, 450, 50, 90, ' rx="6"') + rect('#5ac08a', 1206, 450, 50, 90, ' rx="6"');
  b += rect('#7a5a3a', 60, 500, 160, 12) + rect('#5a3a2a', 70, 512, 10, 40) + rect('#5a3a2a', 200, 512, 10, 40);
  b += `<g stroke="#9aa0b8" stroke-width="5" fill="none"><circle cx="120" cy="640" r="36"/><circle cx="230" cy="640" r="36"/><path d="M120,640 L160,580 L230,640 M160,580 L200,580 L230,640 M152,566 L172,566 M200,580 L196,560 L214,556"/></g>`;
  b += rect('url(#vig)');
  return svgDoc(W, H, defs, b);
}

export function parkSvg(): string {
  const defs =
    linear('sky', [
      { o: 0, c: '#0a0c26' },
      { o: 1, c: '#2a2a58' },
    ]) +
    glow('lamp', '#fff0c8', 0.85) +
    glow('lant', '#ffb0c0', 0.8) +
    linear('ground', [
      { o: 0, c: '#2a2438' },
      { o: 1, c: '#141020' },
    ]) +
    vignette('vig', '#000010', 0.6);
  let b = rect('url(#sky)') + starField(1001, 120, 0, 0, W, 300);
  b += `<circle cx="200" cy="110" r="40" fill="#f6f1dc"/><circle cx="200" cy="110" r="160" fill="url(#lamp)" opacity="0.4"/>`;
  b += ridge(1002, 420, 40, '#151530', 160);
  b += rect('url(#ground)', 0, 460, W, 260);
  b += `<path d="M-20,720 C300,560 600,520 900,520 C1100,520 1200,540 1300,560 L1300,720Z" fill="#3a3050"/>`;
  // cherry trees, back to front
  b += sakuraTree(1003, 180, 480, 0.7, mix(PINK.pink, '#2a2a58', 0.35), mix(PINK.light, '#2a2a58', 0.3), mix(PINK.shade, '#2a2a58', 0.4), '#1a1220');
  b += sakuraTree(1004, 760, 470, 0.75, mix(PINK.pink, '#2a2a58', 0.3), mix(PINK.light, '#2a2a58', 0.3), mix(PINK.shade, '#2a2a58', 0.4), '#1a1220');
  b += sakuraTree(1005, 1140, 560, 1.2, PINK.pink, PINK.light, PINK.shade, '#24161e');
  b += sakuraTree(1006, 420, 600, 1.1, PINK.pink, PINK.light, PINK.shade, '#24161e');
  // paper lanterns strung between trees
  b += wire(0, 250, 640, 230, 40, '#1a1220', 2) + wire(640, 230, 1280, 260, 40, '#1a1220', 2);
  for (let i = 0; i < 12; i++) {
    const x = 40 + i * 106;
    const y = i < 6 ? 250 - (x / 640) * 20 + Math.sin((x / 640) * Math.PI) * 40 : 230 + ((x - 640) / 640) * 30 + Math.sin(((x - 640) / 640) * Math.PI) * 40;
    b += `<circle cx="${n(x)}" cy="${n(y + 22)}" r="44" fill="url(#lant)" opacity="0.7"/>`;
    b += `<ellipse cx="${n(x)}" cy="${n(y + 22)}" rx="13" ry="17" fill="#ffd8e0"/><rect x="${n(x - 7)}" y="${n(y + 3)}" width="14" height="4" fill="#3a2a2a"/>`;
  }
  // a street lamp with a bench beneath
  b += rect('#2a2a3a', 880, 260, 10, 360) + `<circle cx="885" cy="256" r="16" fill="#fff6dc"/><circle cx="885" cy="256" r="230" fill="url(#lamp)"/>`;
  b += `<ellipse cx="885" cy="640" rx="200" ry="40" fill="#fff0c8" opacity="0.12"/>`;
  b += rect('#6a4a36', 760, 590, 240, 14) + rect('#6a4a36', 760, 556, 240, 12) + rect('#3a2a22', 776, 604, 10, 40) + rect('#3a2a22', 974, 604, 10, 40);
  // petals on the ground and in the air
  b += fallingPetals(1007, 90, '#ffd0de', [0, 120, W, 560]);
  const r = rng(1008);
  for (let i = 0; i < 80; i++) b += petal(r() * W, 600 + r() * 120, 1.2, r() * 360, '#f7b6c8', 0.5);
  b += rect('url(#vig)');
  return svgDoc(W, H, defs, b);
}

export interface RiverPalette {
  sky: [string, string, string];
  water: [string, string];
  sun: boolean;
  stars: number;
  bank: string;
  bankFar: string;
  bridge: string;
  pinkMix: number;
  shade: string;
}

export const RIVER: Record<string, RiverPalette> = {
  dawn: { sky: ['#5a6ab0', '#f4a8b8', '#ffe0b0'], water: ['#f7c6c0', '#7a7ab8'], sun: true, stars: 10, bank: '#6a8a6a', bankFar: '#8a8ab0', bridge: '#5a5078', pinkMix: 0, shade: '#ffffff' },
  night: { sky: ['#070a22', '#1e2452', '#3a3468'], water: ['#2a2e60', '#0a0c26'], sun: false, stars: 200, bank: '#1a2228', bankFar: '#1c1c3a', bridge: '#1a1830', pinkMix: 0.45, shade: '#2a2a58' },
};

export function riversideSvg(pal: RiverPalette): string {
  const defs =
    linear('sky', [
      { o: 0, c: pal.sky[0] },
      { o: 0.6, c: pal.sky[1] },
      { o: 1, c: pal.sky[2] },
    ]) +
    linear('water', [
      { o: 0, c: pal.water[0] },
      { o: 1, c: pal.water[1] },
    ]) +
    glow('sun', '#fff0c8', 0.95) +
    glow('lamp', '#fff0c8', 0.7);
  let b = rect('url(#sky)', 0, 0, W, 420);
  if (pal.stars) b += starField(1101, pal.stars, 0, 0, W, 360);
  if (pal.sun) {
    b += `<circle cx="700" cy="300" r="360" fill="url(#sun)"/><circle cx="700" cy="300" r="46" fill="#fff8e0"/>`;
    b += cloud(120, 160, 1.3, '#ffd0d0', 0.7, '#e8a0b8') + cloud(980, 110, 1.1, '#ffe0c8', 0.7, '#f0b0b8') + cloud(560, 240, 0.7, '#fff0e0', 0.6);
  } else {
    b += `<circle cx="960" cy="110" r="30" fill="#f6f1dc"/><circle cx="960" cy="110" r="150" fill="url(#lamp)" opacity="0.4"/>`;
  }
  // far bank with town silhouette
  b += ridge(1102, 400, 30, pal.bankFar, 110);
  const r = rng(1103);
  for (let i = 0; i < 24; i++) {
    const w = 30 + r() * 60;
    const h = 20 + r() * 60;
    const x = i * 56;
    b += rect(mix(pal.bankFar, '#000000', 0.15), x, 412 - h, w, h + 10);
    if (!pal.sun && r() < 0.6) b += rect('#ffd58a', x + 8, 420 - h, 6, 5);
  }
  // bridge
  b += `<path d="M0,360 L1280,330 L1280,346 L0,376Z" fill="${pal.bridge}"/>`;
  for (let i = 0; i < 8; i++) b += rect(pal.bridge, 60 + i * 170, 372 - i * 4, 14, 60);
  b += `<path d="M0,352 L1280,322" stroke="${pal.bridge}" stroke-width="3"/>`;
  // the river
  b += `<path d="M0,420 L1280,420 L1280,560 C900,540 400,600 0,640Z" fill="url(#water)"/>`;
  for (let i = 0; i < 30; i++) {
    const y = 430 + r() * 150;
    b += rect(pal.sun ? '#fff4e0' : '#c8d0ff', (pal.sun ? 700 : 960) - 100 + (r() - 0.5) * 300, y, 30 + r() * 100, 2, ` opacity="${n(0.25 + r() * 0.45)}"`);
  }
  // near bank (grass embankment and path)
  b += `<path d="M0,640 C400,600 900,540 1280,560 L1280,720 L0,720Z" fill="${pal.bank}"/>`;
  b += `<path d="M0,690 C420,650 900,610 1280,620 L1280,650 C900,640 420,680 0,720Z" fill="${mix(pal.bank, '#e8d8c0', pal.sun ? 0.55 : 0.2)}"/>`;
  // row of cherry trees along the bank, receding
  const pm = (c: string) => mix(c, pal.shade, pal.pinkMix);
  b += sakuraTree(1104, 1010, 590, 0.42, pm(PINK.pink), pm(PINK.light), pm(PINK.shade), '#3a2a32');
  b += sakuraTree(1105, 1200, 640, 0.7, pm(PINK.pink), pm(PINK.light), pm(PINK.shade), '#3a2a32');
  b += sakuraTree(1107, 60, 740, 1.25, pm(PINK.pink), pm(PINK.light), pm(PINK.shade), '#3a2a32');
  b += fallingPetals(1108, 45, pal.sun ? '#ffd6e2' : '#e8b0c8', [0, 60, W, 640]);
  // petals drifting on the water
  for (let i = 0; i < 30; i++) b += petal(r() * W, 450 + r() * 140, 1, r() * 360, '#ffd6e2', 0.6);
  return svgDoc(W, H, defs, b);
}

