/**
 * Backgrounds (1280×720 SVG) of the two titles added with the catalogue, in the flat/gradient
 * style of scripts/art/backgrounds.ts: アマヤドリ・カフェ (a café, a shopping arcade and a bus
 * stop in the rainy season) and しずかの海のポストマン (a post office, streets, a farm and a
 * hangar under lunar domes, and the lunar surface). Deterministic: same input, same SVG.
 */
import { FONT_SANS, linear, mix, n, r2, radial, rng, starField, svgDoc } from '../../art/svg';

const W = 1280;
const H = 720;

function box(fill: string, x: number, y: number, w: number, h: number, extra = ''): string {
  return `<rect x="${n(x)}" y="${n(y)}" width="${n(w)}" height="${n(h)}" fill="${fill}"${extra}/>`;
}

function label(x: number, y: number, size: number, fill: string, text: string, extra = ''): string {
  return `<text x="${n(x)}" y="${n(y)}" text-anchor="middle" font-family="${FONT_SANS}" font-size="${size}" font-weight="700" fill="${fill}"${extra}>${text}</text>`;
}

/** Slanted rain streaks over an area. */
function rainStreaks(seed: number, count: number, area: [number, number, number, number], color: string, op = 0.45): string {
  const r = rng(seed);
  let d = '';
  for (let i = 0; i < count; i++) {
    const x = area[0] + r() * area[2];
    const y = area[1] + r() * area[3];
    const l = 14 + r() * 26;
    d += `M${n(x)},${n(y)} l${n(-l * 0.25)},${n(l)} `;
  }
  return `<path d="${d}" stroke="${color}" stroke-width="1.6" stroke-linecap="round" opacity="${op}"/>`;
}

function edgeShade(id: string, color: string, a: number): string {
  return radial(id, [
    { o: 0.55, c: color, a: 0 },
    { o: 1, c: color, a },
  ], 0.5, 0.5, 0.75);
}

// ---------------------------------------------------------------------------------------------
// アマヤドリ・カフェ

export interface CafePalette {
  outside: [string, string];
  wall: string;
  wood: string;
  lamp: number;
  rain: boolean;
}

export const CAFE: Record<'rain' | 'evening', CafePalette> = {
  rain: { outside: ['#9aaab8', '#c8d2da'], wall: '#efe4cf', wood: '#8a5a38', lamp: 0.35, rain: true },
  evening: { outside: ['#1e2638', '#3a4458'], wall: '#d9c3a0', wood: '#6e4428', lamp: 0.85, rain: true },
};

export function cafeSvg(p: CafePalette): string {
  const defs =
    linear('out', [
      { o: 0, c: p.outside[0] },
      { o: 1, c: p.outside[1] },
    ]) +
    radial('lampglow', [
      { o: 0, c: '#ffe6a8', a: p.lamp },
      { o: 1, c: '#ffe6a8', a: 0 },
    ]) +
    linear('floor', [
      { o: 0, c: mix(p.wood, '#000000', 0.1) },
      { o: 1, c: mix(p.wood, '#000000', 0.45) },
    ]) +
    edgeShade('vig', '#1a1008', 0.5);
  let b = box(p.wall, 0, 0, W, H);
  // wainscot and the big window onto the bus stop
  b += box(mix(p.wood, '#ffffff', 0.15), 0, 420, W, 150);
  for (let x = 0; x < W; x += 64) b += box(mix(p.wood, '#000000', 0.2), x, 420, 3, 150);
  b += box('url(#out)', 120, 90, 560, 330);
  b += box(mix(p.outside[1], '#000000', 0.25), 120, 300, 560, 120);
  // the bus stop sign and shop fronts across the street, blurred by rain
  b += box('#6a7380', 210, 250, 10, 170) + `<circle cx="215" cy="240" r="28" fill="#e8ecef" stroke="#3a6ab0" stroke-width="6"/>`;
  b += label(215, 248, 20, '#3a6ab0', 'バス');
  b += box(mix(p.outside[0], '#000000', 0.3), 420, 200, 240, 120) + box(mix(p.outside[0], '#ffd890', p.rain ? 0.35 : 0.1), 450, 240, 70, 50);
  if (p.rain) b += rainStreaks(71, 120, [120, 90, 560, 330], '#ffffff', 0.5);
  // window frame with a cross bar and the café name in reverse on the glass
  b += `<rect x="120" y="90" width="560" height="330" fill="none" stroke="${p.wood}" stroke-width="16"/>`;
  b += box(p.wood, 392, 90, 12, 330) + box(p.wood, 120, 250, 560, 10);
  b += `<text x="260" y="190" text-anchor="middle" font-family="${FONT_SANS}" font-size="30" font-weight="700" fill="#ffffff" opacity="0.55" transform="scale(-1,1) translate(-520,0)">喫茶あまやどり</text>`;
  // counter on the right with a siphon and cups
  b += box(mix(p.wood, '#000000', 0.15), 820, 380, 460, 200) + box(mix(p.wood, '#ffffff', 0.3), 800, 360, 480, 26, ' rx="6"');
  // a hand coffee mill on the counter: wooden box, drawer, crank
  b += box('#6a4428', 920, 300, 60, 60, ' rx="4"') + box('#8a5a38', 930, 330, 40, 16) + `<circle cx="950" cy="338" r="3" fill="#e6c15a"/>`;
  b += `<path d="M950,300 L950,280 L978,272" fill="none" stroke="#3a2a1a" stroke-width="5" stroke-linecap="round"/><circle cx="980" cy="272" r="7" fill="#3a2a1a"/>`;
  for (let i = 0; i < 4; i++) b += `<path d="M${1040 + i * 50},346 l28,0 l-4,16 l-20,0Z" fill="#fbf8f0" stroke="#8a7a66" stroke-width="2"/>`;
  // shelves with coffee tins and a wall clock
  b += box(p.wood, 820, 150, 420, 12) + box(p.wood, 820, 240, 420, 12);
  const tins = ['#c0392b', '#2f6a4a', '#d8a03a', '#3a5a8a', '#8a4a6a'];
  for (let i = 0; i < 10; i++) b += box(tins[i % tins.length], 836 + i * 40, 106, 28, 44, ' rx="3"') + box(tins[(i + 2) % tins.length], 836 + i * 40, 196, 28, 44, ' rx="3"');
  b += `<circle cx="740" cy="120" r="40" fill="#fbf6e8" stroke="${p.wood}" stroke-width="8"/><path d="M740,120 L740,92 M740,120 L760,130" stroke="#3a2a1a" stroke-width="4" stroke-linecap="round"/>`;
  // pendant lamps
  for (const x of [300, 640, 1000]) {
    b += `<path d="M${x},0 L${x},120" stroke="#3a2a1a" stroke-width="3"/><path d="M${x - 36},150 Q${x},100 ${x + 36},150Z" fill="#d89a48" stroke="#6a4420" stroke-width="3"/>`;
    b += `<circle cx="${x}" cy="220" r="170" fill="url(#lampglow)"/>`;
  }
  // table no. 3 by the window, the umbrella stand by the door
  b += `<ellipse cx="400" cy="540" rx="170" ry="34" fill="${mix(p.wood, '#ffffff', 0.25)}" stroke="${mix(p.wood, '#000000', 0.4)}" stroke-width="3"/>`;
  b += box(mix(p.wood, '#000000', 0.4), 390, 560, 20, 100) + `<path d="M340,660 L460,660" stroke="${mix(p.wood, '#000000', 0.4)}" stroke-width="10"/>`;
  b += `<path d="M372,520 l26,0 l-4,18 l-18,0Z" fill="#fbf8f0" stroke="#8a7a66" stroke-width="2"/><rect x="420" y="504" width="50" height="30" fill="#8a3a2a" rx="3" transform="rotate(8 445 519)"/>`;
  b += box('#5a5f66', 700, 560, 80, 110, ' rx="8"');
  b += `<path d="M722,560 L716,430 M740,560 L742,410 Q742,392 728,392" fill="none" stroke="#2f3d66" stroke-width="14" stroke-linecap="round"/>`;
  b += `<path d="M742,410 Q742,384 760,384" fill="none" stroke="#c89a5a" stroke-width="8" stroke-linecap="round"/>`;
  b += `<path d="M760,560 L770,450" stroke="#e0e4ea" stroke-width="10" stroke-linecap="round" opacity="0.8"/>`;
  b += box('url(#floor)', 0, 660, W, 60);
  b += box('url(#vig)', 0, 0, W, H);
  return svgDoc(W, H, defs, b);
}

export function arcadeSvg(): string {
  const defs =
    linear('roof', [
      { o: 0, c: '#c8d6de' },
      { o: 1, c: '#8a9aa6' },
    ]) +
    linear('street', [
      { o: 0, c: '#8a8a8e' },
      { o: 1, c: '#4a4a52' },
    ]) +
    radial('exit', [
      { o: 0, c: '#dfe8ee', a: 1 },
      { o: 1, c: '#9aaab6', a: 1 },
    ]) +
    edgeShade('vig', '#101418', 0.45);
  let b = box('url(#roof)', 0, 0, W, 260);
  // the arched glass roof: ribs converging on the far exit
  for (let i = -8; i <= 8; i++) b += `<path d="M${640 + i * 110},0 L${640 + i * 12},250" stroke="#6a7a86" stroke-width="3" opacity="0.7"/>`;
  for (let y = 40; y < 250; y += 44) b += `<path d="M0,${y} Q640,${y + 60} 1280,${y}" fill="none" stroke="#6a7a86" stroke-width="2" opacity="0.5"/>`;
  b += `<ellipse cx="640" cy="330" rx="120" ry="110" fill="url(#exit)"/>`;
  b += rainStreaks(5, 40, [540, 240, 200, 160], '#ffffff', 0.6);
  b += box('url(#street)', 0, 430, W, 290);
  b += `<path d="M0,720 L560,430 M1280,720 L720,430" stroke="#3a3a40" stroke-width="3"/>`;
  // shop fronts in perspective on both sides
  const shops = [
    { t: '八百屋', c: '#3a8a4a' },
    { t: '源傘店', c: '#2f3d66' },
    { t: '本', c: '#8a4a2a' },
    { t: '惣菜', c: '#c0692a' },
  ];
  shops.forEach((s, i) => {
    const x0 = i * 130;
    const sc = 1 - i * 0.2;
    b += `<path d="M${x0},${n(160 + i * 40)} L${x0 + 130},${n(190 + i * 40)} L${x0 + 130},${n(560 - i * 30)} L${x0},${n(620 - i * 30)}Z" fill="${mix('#efe6d6', '#8a8a8e', i * 0.15)}"/>`;
    b += `<path d="M${x0},${n(160 + i * 40)} L${x0 + 130},${n(190 + i * 40)} L${x0 + 130},${n(230 + i * 40)} L${x0},${n(210 + i * 40)}Z" fill="${s.c}"/>`;
    b += `<text x="${x0 + 60}" y="${n(206 + i * 40)}" font-family="${FONT_SANS}" font-size="${n(24 * sc)}" font-weight="700" fill="#ffffff" transform="skewY(13)" transform-origin="${x0} ${160 + i * 40}">${s.t}</text>`;
    const rx = W - x0;
    b += `<path d="M${rx},${n(160 + i * 40)} L${rx - 130},${n(190 + i * 40)} L${rx - 130},${n(560 - i * 30)} L${rx},${n(620 - i * 30)}Z" fill="${mix('#e6dcc8', '#8a8a8e', i * 0.15)}"/>`;
    b += `<path d="M${rx},${n(160 + i * 40)} L${rx - 130},${n(190 + i * 40)} L${rx - 130},${n(230 + i * 40)} L${rx},${n(210 + i * 40)}Z" fill="${shops[(i + 2) % 4].c}"/>`;
  });
  // hanging umbrellas in front of 源傘店, paper lanterns along the roof
  const umb = ['#d8404a', '#f0b93a', '#3a8ac0', '#8a5ab0', '#3aa07a'];
  for (let i = 0; i < 5; i++) {
    const x = 150 + i * 22;
    const y = 260 + (i % 2) * 20;
    b += `<path d="M${x - 16},${y} Q${x},${y + 26} ${x + 16},${y}Z" fill="${umb[i]}" transform="rotate(180 ${x} ${y + 8})"/>`;
  }
  for (let i = 0; i < 7; i++) {
    const x = 120 + i * 170;
    const y = 120 + Math.abs(i - 3) * 12;
    b += `<path d="M${x},0 L${x},${y - 26}" stroke="#4a4a4a" stroke-width="2"/><ellipse cx="${x}" cy="${y}" rx="18" ry="26" fill="#e8604a" stroke="#8a2a1a" stroke-width="2"/>`;
  }
  // wet reflections on the tiles
  for (let i = 0; i < 7; i++) b += `<ellipse cx="${120 + i * 170}" cy="${600 + (i % 3) * 30}" rx="14" ry="40" fill="#ff9a7a" opacity="0.18"/>`;
  b += `<ellipse cx="640" cy="560" rx="140" ry="30" fill="#e8f0f4" opacity="0.25"/>`;
  b += box('url(#vig)', 0, 0, W, H);
  return svgDoc(W, H, defs, b);
}

export interface BusStopPalette {
  sky: [string, string];
  ground: string;
  rain: boolean;
  rainbow: boolean;
  /** the scene as it was fifty years ago: a tobacco shop instead of the café, sepia */
  memory: boolean;
}

export const BUSSTOP: Record<'rain' | 'clear' | 'memory', BusStopPalette> = {
  rain: { sky: ['#7a8896', '#aab6c0'], ground: '#5a5e66', rain: true, rainbow: false, memory: false },
  clear: { sky: ['#7ab8e8', '#e8f2f6'], ground: '#7a7a7e', rain: false, rainbow: true, memory: false },
  memory: { sky: ['#8a8a90', '#b4b4b8'], ground: '#6a6a6a', rain: true, rainbow: false, memory: true },
};

export function busStopSvg(p: BusStopPalette): string {
  const defs =
    linear('sky', [
      { o: 0, c: p.sky[0] },
      { o: 1, c: p.sky[1] },
    ]) +
    linear('rainbow', [
      { o: 0, c: '#ff6a6a', a: 0.35 },
      { o: 0.2, c: '#ffb84a', a: 0.35 },
      { o: 0.4, c: '#fff06a', a: 0.35 },
      { o: 0.6, c: '#6ad87a', a: 0.35 },
      { o: 0.8, c: '#6aa8ff', a: 0.35 },
      { o: 1, c: '#a86aff', a: 0.35 },
    ]) +
    `<filter id="sepia" color-interpolation-filters="sRGB"><feColorMatrix type="matrix" values="0.39 0.77 0.19 0 0.02  0.35 0.69 0.17 0 0.01  0.27 0.53 0.13 0 0  0 0 0 1 0"/></filter>` +
    edgeShade('vig', p.memory ? '#2a1a0a' : '#101418', p.memory ? 0.7 : 0.4);
  let b = box('url(#sky)', 0, 0, W, 460);
  if (p.rainbow) b += `<path d="M80,460 A560,420 0 0 1 1200,460" fill="none" stroke="url(#rainbow)" stroke-width="60"/>`;
  // hills and the town beyond the road
  b += `<path d="M0,380 Q200,300 420,350 T860,330 T1280,360 L1280,460 L0,460Z" fill="${mix(p.sky[0], '#3a5a4a', 0.6)}"/>`;
  const r = rng(p.memory ? 50 : 51);
  for (let i = 0; i < 14; i++) {
    const x = 600 + i * 50;
    const h = 40 + r() * 50;
    b += box(mix('#8a8a90', p.sky[1], 0.3), x, 460 - h, 44, h) + `<path d="M${x - 4},${n(460 - h)} L${x + 22},${n(440 - h)} L${x + 48},${n(460 - h)}Z" fill="${mix('#5a4a4a', p.sky[0], 0.3)}"/>`;
  }
  // the shop on the left: the café today, a tobacco shop in the memory
  if (p.memory) {
    b += box('#8a6a4a', 40, 200, 420, 290) + `<path d="M20,200 L480,200 L450,160 L50,160Z" fill="#5a4030"/>`;
    b += box('#d8c8a8', 80, 300, 200, 150) + label(180, 270, 38, '#f4e8c8', 'たばこ');
    b += box('#c83a2a', 330, 260, 90, 40) + label(375, 290, 22, '#ffffff', '塩');
  } else {
    b += box('#efe4cf', 40, 180, 420, 310) + `<path d="M20,180 L480,180 L460,140 L40,140Z" fill="#2f3d66"/>`;
    b += box('#ffe6b0', 80, 260, 220, 160, ' opacity="0.9"') + box('#8a5a38', 186, 260, 8, 160);
    b += label(250, 174, 30, '#ffffff', '喫茶あまやどり');
    b += `<path d="M40,220 L460,220" stroke="#2f3d66" stroke-width="6" stroke-dasharray="30 18"/>`;
    b += box('#8a5a38', 340, 300, 90, 190) + `<circle cx="420" cy="400" r="5" fill="#e6c15a"/>`;
  }
  // the road and the bus stop (a bare sign in the memory, a shelter with a bench today)
  b += box(p.ground, 0, 490, W, 230);
  b += `<path d="M0,600 L1280,600" stroke="#e8e8e8" stroke-width="6" stroke-dasharray="60 40" opacity="0.7"/>`;
  b += box('#b8b8b0', 0, 480, W, 14);
  if (!p.memory) {
    b += box('#c8ccd0', 620, 300, 360, 14) + box('#7a8088', 630, 314, 8, 176) + box('#7a8088', 962, 314, 8, 176);
    b += box('#8fb8d8', 640, 314, 320, 120, ' opacity="0.35"');
    b += box('#8a5a38', 680, 440, 240, 14) + box('#5a3a20', 690, 454, 8, 30) + box('#5a3a20', 902, 454, 8, 30);
  }
  b += box('#6a7380', 1050, 300, 10, 190) + `<circle cx="1055" cy="290" r="34" fill="#f0f0f0" stroke="#3a6ab0" stroke-width="7"/>`;
  b += label(1055, 298, 22, '#3a6ab0', 'バス');
  b += box('#f0f0f0', 1030, 340, 50, 70, ' rx="4"');
  for (let i = 0; i < 5; i++) b += box('#9aa0a8', 1038, 350 + i * 12, 34, 4);
  if (p.rain) b += rainStreaks(p.memory ? 9 : 8, 260, [0, 0, W, H], '#ffffff', 0.45);
  else b += `<ellipse cx="760" cy="640" rx="200" ry="22" fill="#bfe0f4" opacity="0.5"/>` + `<ellipse cx="260" cy="560" rx="120" ry="14" fill="#bfe0f4" opacity="0.45"/>`;
  const body = p.memory ? `<g filter="url(#sepia)">${b}</g>` : b;
  return svgDoc(W, H, defs, body + box('url(#vig)', 0, 0, W, H));
}

// ---------------------------------------------------------------------------------------------
// しずかの海のポストマン

/** The Earth as seen from the Moon's near side: blue disc, cloud swirls, a terminator shadow. */
function earth(cx: number, cy: number, r: number, lit = 0.75): string {
  const k = r / 100;
  return (
    `<g transform="translate(${n(cx)},${n(cy)}) scale(${r2(k)})">` +
    `<circle r="112" fill="#6ab4ff" opacity="0.18"/>` +
    `<circle r="100" fill="#2a6ac8"/>` +
    `<path d="M-40,-60 Q-10,-80 20,-56 Q10,-30 -20,-34 Q-46,-30 -40,-60Z M10,10 Q40,-6 60,20 Q50,60 20,64 Q-6,40 10,10Z" fill="#5aa05a"/>` +
    `<path d="M-90,-10 Q-40,-30 0,-8 T90,-20 M-80,40 Q-30,20 20,40 T86,34 M-60,-70 Q-20,-90 30,-80" fill="none" stroke="#ffffff" stroke-width="10" stroke-linecap="round" opacity="0.75"/>` +
    // the night side: a crescent of shadow on the left, narrower the more of the disc is lit
    `<path d="M0,-100 A100,100 0 0 0 0,100 A${n(Math.max(1, (lit - 0.5) * 200))},100 0 0 1 0,-100Z" fill="#050a18" opacity="0.55"/>` +
    `</g>`
  );
}

function spaceSky(seed: number): string {
  return box('#04060e', 0, 0, W, H) + starField(seed, 160, 0, 0, W, 460, false);
}

export function postOfficeSvg(): string {
  const defs =
    linear('wall', [
      { o: 0, c: '#e8eef4' },
      { o: 1, c: '#c8d2de' },
    ]) +
    linear('floor', [
      { o: 0, c: '#8a96a6' },
      { o: 1, c: '#4a5466' },
    ]) +
    edgeShade('vig', '#0a1020', 0.45);
  let b = box('url(#wall)', 0, 0, W, H);
  // the round porthole with the Earth
  b += `<circle cx="330" cy="250" r="170" fill="#04060e" stroke="#8a96a8" stroke-width="22"/>`;
  b += starField(301, 50, 170, 90, 320, 320, false).replace(/<circle/g, '<circle clip-path="url(#port)"');
  b += `<clipPath id="port"><circle cx="330" cy="250" r="160"/></clipPath>`;
  b += `<g clip-path="url(#port)">${earth(360, 230, 70)}<path d="M160,380 Q330,330 500,390 L500,420 L160,420Z" fill="#8a8a8e"/></g>`;
  for (let a = 0; a < 12; a++) {
    const t = (a / 12) * Math.PI * 2;
    b += `<circle cx="${n(330 + Math.cos(t) * 170)}" cy="${n(250 + Math.sin(t) * 170)}" r="6" fill="#5a6678"/>`;
  }
  // pigeonhole sorting racks with letters, a pneumatic tube on the right
  b += box('#b88a5a', 600, 70, 420, 330) + box('#6a4a2a', 600, 70, 420, 330, ' fill-opacity="0" stroke="#6a4a2a" stroke-width="8"');
  const env = ['#ffffff', '#f8e0e8', '#e0ecf8', '#fff4d0'];
  for (let row = 0; row < 5; row++) {
    for (let col = 0; col < 7; col++) {
      const x = 610 + col * 58;
      const y = 80 + row * 62;
      b += box('#5a3a20', x, y, 54, 58);
      if ((row * 7 + col) % 3 !== 1) b += box(env[(row + col) % 4], x + 8, y + 24, 38, 28, ' rx="2"');
    }
  }
  b += `<path d="M1120,0 L1120,300 Q1120,340 1160,340 L1280,340" fill="none" stroke="#a8b4c4" stroke-width="46"/>`;
  b += `<path d="M1120,0 L1120,300 Q1120,340 1160,340 L1280,340" fill="none" stroke="#e0e8f0" stroke-width="30" opacity="0.6"/>`;
  b += `<circle cx="1120" cy="250" r="30" fill="#d8404a" stroke="#8a2a30" stroke-width="4"/>`;
  // the counter, a sign, a round red postbox
  b += box('#d8404a', 0, 470, W, 20) + box('#f4f6f8', 0, 490, W, 150) + box('#a8b4c4', 0, 630, W, 10);
  b += `<rect x="470" y="20" width="340" height="44" rx="8" fill="#ffffff" stroke="#d8404a" stroke-width="4"/>`;
  b += label(640, 52, 24, '#d8404a', '〒 月面郵便局　しずかの海支局');
  b += box('#d8404a', 1090, 380, 110, 260, ' rx="50"') + box('#2a2a2a', 1110, 440, 70, 10, ' rx="4"') + label(1145, 520, 36, '#ffffff', '〒');
  b += `<path d="M180,470 l50,-10 l40,10 l-10,-40 l-60,0Z" fill="#f8e0e8" stroke="#c89aa8" stroke-width="2"/>`;
  b += box('#4a5466', 880, 420, 120, 50, ' rx="6"') + label(940, 455, 22, '#7ff0ff', '42通');
  b += box('url(#floor)', 0, 640, W, 80);
  b += box('url(#vig)', 0, 0, W, H);
  return svgDoc(W, H, defs, b);
}

export function domeStreetSvg(): string {
  const defs =
    radial('dome', [
      { o: 0, c: '#bfe4ff' },
      { o: 0.8, c: '#6ab0e8' },
      { o: 1, c: '#3a78c0' },
    ], 0.5, 1, 1) +
    linear('plaza', [
      { o: 0, c: '#d8dce2' },
      { o: 1, c: '#9aa2ae' },
    ]) +
    edgeShade('vig', '#0a1020', 0.4);
  let b = box('#04060e', 0, 0, W, H);
  // the dome: projected blue sky inside a hexagon lattice
  b += `<path d="M-80,520 Q640,-240 1360,520Z" fill="url(#dome)"/>`;
  let lattice = '';
  for (let i = -6; i <= 6; i++) lattice += `M${640 + i * 120},520 Q${640 + i * 60},${n(60 + Math.abs(i) * 30)} 640,${n(40)} `;
  b += `<path d="${lattice}" fill="none" stroke="#ffffff" stroke-width="2" opacity="0.35"/>`;
  for (const y of [140, 260, 380]) b += `<path d="M${n(640 - (y + 200) * 1.2)},${y} Q640,${y - 70} ${n(640 + (y + 200) * 1.2)},${y}" fill="none" stroke="#ffffff" stroke-width="2" opacity="0.3"/>`;
  b += `<ellipse cx="300" cy="200" rx="90" ry="22" fill="#ffffff" opacity="0.7"/><ellipse cx="960" cy="160" rx="120" ry="26" fill="#ffffff" opacity="0.6"/>`;
  // low round buildings with signs
  const shops = [
    { x: 40, w: 250, h: 210, c: '#f4e8d8', s: 'うさぎ堂', sc: '#c8384a' },
    { x: 310, w: 200, h: 250, c: '#e0ecf4', s: '八百屋', sc: '#3a8a4a' },
    { x: 770, w: 220, h: 240, c: '#f8eef0', s: '月面書房', sc: '#5a4a8a' },
    { x: 1010, w: 240, h: 200, c: '#e8f0e0', s: 'ドーム公園', sc: '#3a7ab0' },
  ];
  for (const s of shops) {
    b += `<rect x="${s.x}" y="${520 - s.h}" width="${s.w}" height="${s.h}" rx="40" fill="${s.c}" stroke="#8a96a8" stroke-width="3"/>`;
    b += `<rect x="${s.x + 20}" y="${540 - s.h}" width="${s.w - 40}" height="44" rx="10" fill="${s.sc}"/>`;
    b += label(s.x + s.w / 2, 572 - s.h, 26, '#ffffff', s.s);
    b += box('#bfe0f4', s.x + 30, 600 - s.h, s.w - 60, 70, ' rx="10"');
    b += box('#7a8a9a', s.x + s.w / 2 - 25, 440, 50, 80, ' rx="8"');
  }
  // the noren of うさぎ堂 with a rabbit pounding mochi
  b += `<path d="M70,342 L260,342 L260,392 L70,392Z" fill="#f8f4ec" stroke="#c8384a" stroke-width="3"/>`;
  b += `<ellipse cx="150" cy="372" rx="14" ry="11" fill="#c8384a"/><path d="M146,362 L142,346 M154,362 L156,346" stroke="#c8384a" stroke-width="5" stroke-linecap="round"/>`;
  b += `<path d="M180,384 Q196,362 206,384Z" fill="#c8384a"/>`;
  // the plaza, a monorail beam, little trees in pots
  b += box('url(#plaza)', 0, 520, W, 200);
  b += `<path d="M0,680 L560,520 M1280,680 L720,520" stroke="#b0b8c4" stroke-width="4"/>`;
  b += box('#c8d0da', 0, 250, W, 16) + box('#e8ecf2', 580, 236, 220, 34, ' rx="14"') + box('#3a78c0', 600, 244, 180, 10, ' rx="4"');
  for (const x of [560, 720]) b += `<circle cx="${x}" cy="470" r="40" fill="#5ab06a"/><rect x="${x - 22}" y="500" width="44" height="30" fill="#a86a3a" rx="4"/>`;
  b += box('url(#vig)', 0, 0, W, H);
  return svgDoc(W, H, defs, b);
}

export function farmSvg(): string {
  const defs =
    linear('glow', [
      { o: 0, c: '#f2c8ff' },
      { o: 1, c: '#b890d8' },
    ]) +
    linear('floor', [
      { o: 0, c: '#c8c0d8' },
      { o: 1, c: '#8a80a0' },
    ]) +
    edgeShade('vig', '#1a0a2a', 0.5);
  let b = box('url(#glow)', 0, 0, W, H);
  // grow-light bars and racks of leaves in perspective
  for (let i = 0; i < 6; i++) b += box('#ffe8ff', 80 + i * 200, 30, 160, 10, ' rx="5" opacity="0.9"');
  const r = rng(77);
  for (let row = 0; row < 4; row++) {
    const y = 120 + row * 110;
    for (const side of [0, 1]) {
      const x0 = side ? 760 : 0;
      b += box('#e8e4f0', x0, y + 70, 520, 12) + box('#9a92b0', x0 + (side ? 500 : 10), y, 8, 90);
      for (let k = 0; k < 12; k++) {
        const x = x0 + 24 + k * 42;
        const leaf = ['#5ab06a', '#7ac85a', '#3a9a5a'][k % 3];
        b += `<ellipse cx="${x}" cy="${y + 52}" rx="${n(16 + r() * 6)}" ry="${n(14 + r() * 6)}" fill="${leaf}"/>`;
        if (row === 1 && k % 4 === 1) b += `<circle cx="${x + 6}" cy="${y + 46}" r="6" fill="#e8404a"/>`;
        if (row === 2 && k % 3 === 0) b += `<path d="M${x},${y + 40} l6,12 l-12,0Z" fill="#f04a5a"/>`;
      }
    }
  }
  // a central aisle, the hatch to the hangars at the far end
  b += `<path d="M520,720 L600,120 L680,120 L760,720Z" fill="url(#floor)"/>`;
  b += `<rect x="590" y="60" width="100" height="60" rx="10" fill="#6a7080" stroke="#3a4050" stroke-width="3"/>`;
  b += label(640, 98, 16, '#7ff0ff', '第一格納庫→');
  // モチ's little pen: a fence and a hay pile
  b += `<path d="M840,640 L1180,640 M840,600 L1180,600" stroke="#e8d8b0" stroke-width="8"/>`;
  for (let x = 850; x <= 1180; x += 40) b += box('#d8c090', x, 580, 10, 80);
  b += `<ellipse cx="1000" cy="670" rx="120" ry="20" fill="#e8d07a"/>`;
  b += label(1010, 572, 20, '#6a4a8a', 'モチのおうち');
  b += box('url(#vig)', 0, 0, W, H);
  return svgDoc(W, H, defs, b);
}

export function hangarSvg(): string {
  const defs =
    linear('inside', [
      { o: 0, c: '#3a3e4a' },
      { o: 1, c: '#22242c' },
    ]) +
    radial('lamp', [
      { o: 0, c: '#ffd890', a: 0.6 },
      { o: 1, c: '#ffd890', a: 0 },
    ]) +
    edgeShade('vig', '#000000', 0.6);
  let b = box('url(#inside)', 0, 0, W, H);
  // the high window: black sky and the Earth
  b += box('#04060e', 760, 40, 420, 230) + starField(512, 40, 760, 40, 420, 230, false) + earth(1010, 140, 60, 0.6);
  b += `<rect x="760" y="40" width="420" height="230" fill="none" stroke="#6a6e7a" stroke-width="14"/>` + box('#6a6e7a', 964, 40, 12, 230);
  // roof trusses
  for (let x = 0; x < W; x += 160) b += `<path d="M${x},0 L${x + 80},60 L${x + 160},0" fill="none" stroke="#4a4e5a" stroke-width="6"/>`;
  b += box('#4a4e5a', 0, 56, W, 8);
  // an old moon buggy, a rocket nozzle, shelves of parts
  b += `<path d="M80,520 L420,520 L400,440 L120,440Z" fill="#c8ccd0" stroke="#6a6e7a" stroke-width="4"/>`;
  b += `<path d="M160,440 L180,380 L300,380 L330,440" fill="none" stroke="#8a8e9a" stroke-width="6"/>`;
  for (const x of [130, 230, 330, 390]) b += `<circle cx="${x}" cy="540" r="38" fill="#3a3a40" stroke="#8a8e9a" stroke-width="8"/><circle cx="${x}" cy="540" r="10" fill="#8a8e9a"/>`;
  b += label(250, 495, 22, '#d8404a', 'LUNA-1');
  b += `<path d="M500,260 L620,260 L680,520 L440,520Z" fill="#8a8e9a" stroke="#4a4e5a" stroke-width="4"/>`;
  b += `<ellipse cx="560" cy="520" rx="120" ry="20" fill="#4a4e5a"/>`;
  for (let i = 0; i < 3; i++) b += `<path d="M${470 + i * 6},${320 + i * 70} L${650 - i * 6},${320 + i * 70}" stroke="#6a6e7a" stroke-width="4"/>`;
  b += box('#5a4632', 760, 330, 440, 12) + box('#5a4632', 760, 430, 440, 12);
  const r = rng(9);
  for (let i = 0; i < 12; i++) b += box(['#a0a4ac', '#d8a03a', '#6a8ab0', '#c8584a'][i % 4], 780 + i * 34, 290 - (i % 3) * 10 + 10, 24, 30 + (i % 3) * 10, ' rx="3"');
  for (let i = 0; i < 9; i++) b += `<circle cx="${n(800 + i * 46)}" cy="${n(410 - r() * 10)}" r="${n(10 + r() * 8)}" fill="#8a8e9a" stroke="#4a4e5a" stroke-width="2"/>`;
  // the workbench with a hanging lamp; two old helmets
  b += `<path d="M760,0 L760,470" stroke="#2a2a2a" stroke-width="2"/><circle cx="980" cy="600" r="240" fill="url(#lamp)"/>`;
  b += box('#6a5238', 740, 520, 500, 24) + box('#4a3a28', 760, 544, 14, 140) + box('#4a3a28', 1206, 544, 14, 140);
  for (const x of [840, 940]) b += `<circle cx="${x}" cy="488" r="36" fill="#f0f0f0" stroke="#8a8e9a" stroke-width="4"/><path d="M${x - 26},480 Q${x},460 ${x + 26},480 L${x + 22},500 L${x - 22},500Z" fill="#d8a03a" opacity="0.8"/>`;
  b += `<path d="M1060,516 L1140,500 M1080,516 L1120,486" stroke="#a0a4ac" stroke-width="6" stroke-linecap="round"/>`;
  b += box('#2a2c34', 0, 600, W, 120) + `<path d="M0,640 L1280,640" stroke="#f0c23a" stroke-width="10" stroke-dasharray="40 30" opacity="0.6"/>`;
  b += box('url(#vig)', 0, 0, W, H);
  return svgDoc(W, H, defs, b);
}

export function surfaceSvg(): string {
  const defs =
    linear('ground', [
      { o: 0, c: '#a8a8ac' },
      { o: 1, c: '#5a5a60' },
    ]) +
    radial('earthglow', [
      { o: 0, c: '#6ab4ff', a: 0.25 },
      { o: 1, c: '#6ab4ff', a: 0 },
    ]) +
    edgeShade('vig', '#000000', 0.5);
  let b = spaceSky(2080);
  b += `<circle cx="880" cy="190" r="220" fill="url(#earthglow)"/>` + earth(880, 190, 96, 0.7);
  // distant crater rims, the regolith plain, the domes of the city on the horizon
  b += `<path d="M0,430 Q160,400 320,424 Q520,396 700,420 Q940,392 1280,418 L1280,720 L0,720Z" fill="#7a7a80"/>`;
  for (const [x, w] of [[140, 220], [420, 140], [1020, 260]] as const) b += `<ellipse cx="${x}" cy="${n(426)}" rx="${w / 2}" ry="20" fill="#e0f0ff" opacity="0.5"/><path d="M${x - w / 2},426 Q${x},${n(426 - w * 0.45)} ${x + w / 2},426Z" fill="#c8e0f4" opacity="0.55"/>`;
  b += `<path d="M0,470 Q320,450 640,466 T1280,460 L1280,720 L0,720Z" fill="url(#ground)"/>`;
  const r = rng(404);
  for (let i = 0; i < 14; i++) {
    const x = r() * W;
    const y = 500 + r() * 200;
    const s = 10 + r() * 40;
    b += `<ellipse cx="${n(x)}" cy="${n(y)}" rx="${n(s * 1.6)}" ry="${n(s * 0.4)}" fill="#4a4a50" opacity="0.6"/><ellipse cx="${n(x)}" cy="${n(y - 2)}" rx="${n(s * 1.3)}" ry="${n(s * 0.28)}" fill="#8a8a90" opacity="0.7"/>`;
  }
  // a trail of old boot prints, and a little flag
  for (let i = 0; i < 12; i++) {
    const x = 180 + i * 46 + (i % 2) * 10;
    const y = 690 - i * 16;
    b += `<rect x="${x}" y="${y}" width="${n(20 - i)}" height="${n(9 - i * 0.4)}" rx="3" fill="#3a3a40" opacity="0.7" transform="rotate(-18 ${x} ${y})"/>`;
  }
  b += `<path d="M760,560 L760,440" stroke="#c8ccd0" stroke-width="5"/><rect x="762" y="440" width="70" height="42" fill="#2a4a8a"/>` + label(797, 470, 26, '#ffffff', '〒');
  b += box('url(#vig)', 0, 0, W, H);
  return svgDoc(W, H, defs, b);
}
