/**
 * Character sprites (560×680 SVG busts) built from parts: every character is a design
 * (palette, hair, clothes, accessories) and every expression a set of face parts
 * (eyes, brows, mouth, blush, tears). `spriteSvg(design, expression)` assembles one file.
 */
import { linear, n, r2, radial, sparkle, starPath, svgDoc } from './svg';

export const SPRITE_W = 560;
export const SPRITE_H = 680;

export type EyeKind = 'open' | 'soft' | 'half' | 'wide' | 'happy' | 'closed' | 'wink';
export type BrowKind = 'neutral' | 'soft' | 'sad' | 'angry' | 'raised';
export type MouthKind = 'small' | 'smile' | 'grin' | 'frown' | 'o' | 'wavy' | 'flat' | 'pout' | 'smirk' | 'open';

export interface Expression {
  eyes: EyeKind;
  /** iris offset in px, positive = towards the viewer's right */
  look?: number;
  brows: BrowKind;
  mouth: MouthKind;
  blush?: 0 | 1 | 2;
  tears?: boolean;
  sweat?: boolean;
}

export const EXPRESSIONS: Record<string, Expression> = {
  normal: { eyes: 'open', brows: 'neutral', mouth: 'small', blush: 0 },
  smile: { eyes: 'happy', brows: 'soft', mouth: 'smile', blush: 1 },
  grin: { eyes: 'happy', brows: 'raised', mouth: 'grin', blush: 1 },
  sad: { eyes: 'half', brows: 'sad', mouth: 'frown', look: -2 },
  surprised: { eyes: 'wide', brows: 'raised', mouth: 'o' },
  shy: { eyes: 'soft', look: 7, brows: 'sad', mouth: 'wavy', blush: 2 },
  troubled: { eyes: 'open', look: -5, brows: 'sad', mouth: 'wavy', sweat: true },
  angry: { eyes: 'soft', brows: 'angry', mouth: 'pout', blush: 1 },
  serious: { eyes: 'soft', brows: 'angry', mouth: 'flat' },
  teasing: { eyes: 'wink', brows: 'soft', mouth: 'smirk', blush: 1 },
  cry: { eyes: 'closed', brows: 'sad', mouth: 'smile', blush: 1, tears: true },
  gentle: { eyes: 'soft', brows: 'soft', mouth: 'small', blush: 1 },
};

export interface Palette {
  skin: string;
  skinShade: string;
  skinLine: string;
  hair: string;
  hairShade: string;
  hairLight: string;
  hairLine: string;
  iris: string;
  irisDark: string;
  irisLight: string;
  lash: string;
  mouth: string;
}

export interface Design {
  id: string;
  palette: Palette;
  /** vertical scale of the eyes (1 = default, lower = calmer / more grown up) */
  eyeScale?: number;
  /** face width factor (1 = default; 1.05 for a broader jaw) */
  jaw?: number;
  browWidth?: number;
  backHair: (p: Palette) => string;
  body: (p: Palette) => string;
  /** locks of hair that fall in front of the body but behind the face */
  midHair?: (p: Palette) => string;
  frontHair: (p: Palette) => string;
  accessories?: (p: Palette) => string;
  extraDefs?: (p: Palette) => string;
}

const CX = 280;
const EYE_Y = 300;
const EYE_DX = 46;

// ---------------------------------------------------------------------------------------------
// face parts

function eyeShapes(kind: EyeKind): { sclera: string; lash: string; irisRy: number; irisRx: number } {
  switch (kind) {
    case 'wide':
      return {
        sclera: 'M-31,-6 C-26,-38 8,-44 27,-22 C31,-8 30,10 25,24 C12,34 -14,34 -24,22 C-30,12 -31,2 -31,-6Z',
        lash: 'M-35,-1 C-28,-40 8,-48 31,-22',
        irisRx: 14,
        irisRy: 19,
      };
    case 'half':
      return {
        sclera: 'M-30,4 C-22,-10 6,-16 26,-6 C29,2 28,12 24,20 C12,30 -12,30 -22,20 C-28,14 -30,10 -30,4Z',
        lash: 'M-34,6 C-24,-12 8,-20 30,-6',
        irisRx: 18,
        irisRy: 24,
      };
    case 'soft':
      return {
        sclera: 'M-30,-1 C-23,-22 5,-29 26,-14 C29,-4 28,10 24,20 C12,30 -12,30 -22,20 C-28,13 -30,6 -30,-1Z',
        lash: 'M-34,2 C-25,-24 7,-32 30,-14',
        irisRx: 18,
        irisRy: 24,
      };
    default:
      return {
        sclera: 'M-30,-4 C-24,-30 6,-37 26,-18 C29,-6 28,8 24,20 C12,30 -12,30 -22,20 C-28,12 -30,4 -30,-4Z',
        lash: 'M-34,-1 C-26,-32 8,-40 30,-18',
        irisRx: 18,
        irisRy: 24,
      };
  }
}

function eye(side: 'L' | 'R', kind: EyeKind, look: number, p: Palette, scale: number): string {
  const cx = side === 'L' ? CX - EYE_DX : CX + EYE_DX;
  const mirror = side === 'R' ? -1 : 1;
  const tf = `translate(${cx},${EYE_Y}) scale(${mirror},${r2(scale)})`;
  if (kind === 'happy' || kind === 'closed' || (kind === 'wink' && side === 'R')) {
    const d = kind === 'closed' ? 'M-29,0 Q-2,16 27,-2' : 'M-29,8 Q-2,-20 27,6';
    const flick = kind === 'closed' ? 'M-29,0 L-36,-4' : 'M-29,8 L-36,12';
    return (
      `<g transform="${tf}"><path d="${d}" fill="none" stroke="${p.lash}" stroke-width="5.5" stroke-linecap="round"/>` +
      `<path d="${flick}" fill="none" stroke="${p.lash}" stroke-width="4" stroke-linecap="round"/></g>`
    );
  }
  const k = kind === 'wink' ? 'open' : kind;
  const s = eyeShapes(k);
  const lx = look * mirror; // local x of the iris
  const clip = `eyeclip${side}`;
  let g = `<clipPath id="${clip}"><path d="${s.sclera}"/></clipPath>`;
  g += `<g transform="${tf}">`;
  g += `<path d="${s.sclera}" fill="#fffdfb"/>`;
  g += `<g clip-path="url(#${clip})">`;
  g += `<path d="M-34,-40 L34,-40 L34,-8 C10,-16 -14,-16 -34,-6Z" fill="${p.irisDark}" opacity="0.12"/>`;
  g += `<ellipse cx="${lx}" cy="3" rx="${s.irisRx}" ry="${s.irisRy}" fill="url(#iris)" stroke="${p.irisDark}" stroke-width="1.6"/>`;
  g += `<ellipse cx="${lx}" cy="6" rx="${n(s.irisRx * 0.45)}" ry="${n(s.irisRy * 0.5)}" fill="${p.irisDark}"/>`;
  g += `<clipPath id="iris${side}"><ellipse cx="${lx}" cy="3" rx="${s.irisRx}" ry="${s.irisRy}"/></clipPath>`;
  g += `<path clip-path="url(#iris${side})" d="M${lx - s.irisRx},-8 C${lx - 8},-18 ${lx + 8},-18 ${lx + s.irisRx},-8 L${lx + s.irisRx},-30 L${lx - s.irisRx},-30Z" fill="${p.irisDark}" opacity="0.45"/>`;
  g += `<ellipse cx="${lx}" cy="${n(s.irisRy * 0.62)}" rx="${n(s.irisRx * 0.62)}" ry="${n(s.irisRy * 0.22)}" fill="${p.irisLight}" opacity="0.7"/>`;
  g += `</g>`;
  g += `<path d="${s.lash}" fill="none" stroke="${p.lash}" stroke-width="6" stroke-linecap="round"/>`;
  g += `<path d="M-34,${k === 'half' ? 6 : -1} L-40,${k === 'half' ? 10 : 5}" stroke="${p.lash}" stroke-width="4" stroke-linecap="round"/>`;
  g += `<path d="M-17,27 Q-3,31 14,25" fill="none" stroke="${p.lash}" stroke-width="2" stroke-linecap="round" opacity="0.55"/>`;
  g += `</g>`;
  // highlights in absolute coordinates (same light direction for both eyes)
  const ix = cx + look;
  const hy = EYE_Y + (k === 'half' ? -2 : -8) * scale;
  g += `<circle cx="${n(ix + 6)}" cy="${n(hy)}" r="${k === 'wide' ? 5 : 6.5}" fill="#fff"/>`;
  g += `<circle cx="${n(ix - 7)}" cy="${n(EYE_Y + 13 * scale)}" r="3" fill="#fff" opacity="0.85"/>`;
  return g;
}

function brows(kind: BrowKind, p: Palette, width: number): string {
  const shapes: Record<BrowKind, string> = {
    neutral: 'M-28,-48 Q-4,-58 22,-52',
    soft: 'M-28,-50 Q-4,-61 22,-56',
    sad: 'M-28,-46 Q-2,-52 22,-62',
    angry: 'M-28,-60 Q-4,-58 22,-46',
    raised: 'M-28,-58 Q-2,-72 22,-64',
  };
  const d = shapes[kind];
  const one = (side: 'L' | 'R') => {
    const cx = side === 'L' ? CX - EYE_DX : CX + EYE_DX;
    const m = side === 'R' ? -1 : 1;
    return `<path transform="translate(${cx},${EYE_Y}) scale(${m},1)" d="${d}" fill="none" stroke="${p.hairLine}" stroke-width="${width}" stroke-linecap="round"/>`;
  };
  return one('L') + one('R');
}

function mouth(kind: MouthKind, p: Palette): string {
  const line = (d: string, w = 2.6) =>
    `<path d="${d}" fill="none" stroke="${p.skinLine}" stroke-width="${w}" stroke-linecap="round" stroke-linejoin="round"/>`;
  switch (kind) {
    case 'small':
      return line('M269,364 Q280,370 291,364');
    case 'smile':
      return (
        `<path d="M263,360 Q280,366 297,360 Q293,381 280,383 Q267,381 263,360Z" fill="${p.mouth}" stroke="${p.skinLine}" stroke-width="2" stroke-linejoin="round"/>` +
        `<path d="M269,376 Q280,370 291,376 Q287,382 280,383 Q273,382 269,376Z" fill="#f08c8c"/>`
      );
    case 'grin':
      return (
        `<path d="M258,357 Q280,365 302,357 Q298,386 280,388 Q262,386 258,357Z" fill="${p.mouth}" stroke="${p.skinLine}" stroke-width="2" stroke-linejoin="round"/>` +
        `<path d="M262,359 Q280,366 298,359 L297,364 Q280,370 263,364Z" fill="#fff"/>` +
        `<path d="M267,379 Q280,371 293,379 Q288,387 280,388 Q272,387 267,379Z" fill="#f08c8c"/>`
      );
    case 'frown':
      return line('M270,370 Q280,362 290,370');
    case 'o':
      return `<ellipse cx="280" cy="369" rx="7.5" ry="9.5" fill="${p.mouth}" stroke="${p.skinLine}" stroke-width="2"/>`;
    case 'wavy':
      return line('M266,367 q3.5,-4 7,0 t7,0 t7,0 t7,0', 2.3);
    case 'flat':
      return line('M271,367 L289,367');
    case 'pout':
      return (
        `<path d="M271,369 Q280,360 289,369 Q280,366 271,369Z" fill="${p.mouth}" stroke="${p.skinLine}" stroke-width="2" stroke-linejoin="round"/>`
      );
    case 'smirk':
      return line('M267,366 Q281,372 292,361');
    case 'open':
      return `<path d="M270,363 Q280,367 290,363 Q287,373 280,374 Q273,373 270,363Z" fill="${p.mouth}" stroke="${p.skinLine}" stroke-width="2"/>`;
  }
}

function blush(level: number): string {
  if (!level) return '';
  const op = level === 1 ? 0.32 : 0.55;
  let s =
    `<ellipse cx="226" cy="343" rx="22" ry="9" fill="url(#blush)" opacity="${op * 2}"/>` +
    `<ellipse cx="334" cy="343" rx="22" ry="9" fill="url(#blush)" opacity="${op * 2}"/>`;
  if (level === 2) {
    for (const bx of [212, 320]) {
      for (let i = 0; i < 3; i++) {
        const x = bx + i * 10;
        s += `<path d="M${x + 6},337 L${x},348" stroke="#e0607a" stroke-width="2" stroke-linecap="round" opacity="0.8"/>`;
      }
    }
  }
  return s;
}

function tears(): string {
  const drop = (x: number, y: number) =>
    `<path d="M${x},${y} Q${x - 6},${y + 12} ${x},${y + 16} Q${x + 6},${y + 12} ${x},${y}Z" fill="#cdeeff" stroke="#79b6e0" stroke-width="1.5"/>`;
  return (
    drop(212, 318) +
    drop(348, 318) +
    `<path d="M214,310 Q232,318 252,310" fill="none" stroke="#bfe6ff" stroke-width="3" stroke-linecap="round" opacity="0.9"/>` +
    `<path d="M308,310 Q328,318 346,310" fill="none" stroke="#bfe6ff" stroke-width="3" stroke-linecap="round" opacity="0.9"/>`
  );
}

function sweat(): string {
  return `<path d="M384,222 Q372,246 384,254 Q396,246 384,222Z" fill="#d9f1ff" stroke="#6fb2dc" stroke-width="2"/>`;
}

function face(p: Palette, jaw: number): string {
  const w = 94 * jaw;
  const l = CX - w;
  const r = CX + w;
  const ears =
    `<ellipse cx="${n(l + 2)}" cy="312" rx="13" ry="23" fill="${p.skin}" stroke="${p.skinLine}" stroke-width="2.2"/>` +
    `<ellipse cx="${n(r - 2)}" cy="312" rx="13" ry="23" fill="${p.skin}" stroke="${p.skinLine}" stroke-width="2.2"/>` +
    `<path d="M${n(l - 2)},302 Q${n(l + 4)},312 ${n(l + 2)},324" fill="none" stroke="${p.skinShade}" stroke-width="3"/>` +
    `<path d="M${n(r + 2)},302 Q${n(r - 4)},312 ${n(r - 2)},324" fill="none" stroke="${p.skinShade}" stroke-width="3"/>`;
  const d =
    `M${n(l)},200 L${n(l)},290 C${n(l + 2)},336 ${n(l + 32)},372 262,396 Q280,405 298,396 ` +
    `C${n(r - 32)},372 ${n(r - 2)},336 ${n(r)},290 L${n(r)},200 Q280,150 ${n(l)},200Z`;
  return (
    ears +
    `<path d="${d}" fill="url(#skin)" stroke="${p.skinLine}" stroke-width="2.5" stroke-linejoin="round"/>` +
    `<path d="M283,329 Q287,336 280,339" fill="none" stroke="${p.skinLine}" stroke-width="2" stroke-linecap="round" opacity="0.7"/>`
  );
}

function neck(p: Palette, jaw: number): string {
  const hw = 25 * jaw;
  return (
    `<path d="M${n(CX - hw)},370 L${n(CX - hw)},452 Q280,466 ${n(CX + hw)},452 L${n(CX + hw)},370Z" fill="${p.skin}" stroke="${p.skinLine}" stroke-width="2.2"/>` +
    `<path d="M${n(CX - hw)},384 Q280,420 ${n(CX + hw)},384 L${n(CX + hw)},404 Q280,436 ${n(CX - hw)},404Z" fill="${p.skinShade}" opacity="0.8"/>`
  );
}

/** The shoulders and chest outline; clothes are drawn on top of this shape. */
export const TORSO =
  'M250,440 C200,452 132,470 106,512 C86,546 78,612 72,690 L488,690 C482,612 474,546 454,512 C428,470 360,452 310,440Z';

export function spriteSvg(d: Design, exprName: string): string {
  const e = EXPRESSIONS[exprName];
  if (!e) throw new Error(`unknown expression ${exprName}`);
  const p = d.palette;
  const defs =
    linear('skin', [
      { o: 0, c: p.skin },
      { o: 1, c: p.skin },
    ]) +
    linear('iris', [
      { o: 0, c: p.irisDark },
      { o: 0.45, c: p.iris },
      { o: 1, c: p.irisLight },
    ]) +
    radial('blush', [
      { o: 0, c: '#ff7f96', a: 0.5 },
      { o: 1, c: '#ff7f96', a: 0 },
    ]) +
    linear('hairg', [
      { o: 0, c: p.hairLight },
      { o: 0.35, c: p.hair },
      { o: 1, c: p.hairShade },
    ]) +
    (d.extraDefs ? d.extraDefs(p) : '');
  const jaw = d.jaw ?? 1;
  const scale = d.eyeScale ?? 1;
  const body =
    d.backHair(p) +
    neck(p, jaw) +
    d.body(p) +
    (d.midHair ? d.midHair(p) : '') +
    face(p, jaw) +
    blush(e.blush ?? 0) +
    eye('L', e.eyes, e.look ?? 0, p, scale) +
    eye('R', e.eyes, e.look ?? 0, p, scale) +
    mouth(e.mouth, p) +
    (e.tears ? tears() : '') +
    d.frontHair(p) +
    brows(e.brows, p, d.browWidth ?? 4) +
    (e.sweat ? sweat() : '') +
    (d.accessories ? d.accessories(p) : '');
  return svgDoc(SPRITE_W, SPRITE_H, defs, body);
}

// ---------------------------------------------------------------------------------------------
// hair building blocks

/**
 * Bangs: the cap of hair over the skull plus a jagged lower edge of locks.
 * `edge` lists the lower edge from the viewer's right to left as alternating tip / valley points.
 */
export function bangs(edge: Array<[number, number]>, top = 92, width = 112): string {
  const l = CX - width;
  const r = CX + width;
  let d = `M${n(l)},${n(edge[edge.length - 1][1] - 20)} C${n(l - 6)},150 ${n(CX - 70)},${top} ${CX},${top} C${n(CX + 70)},${top} ${n(r + 6)},150 ${n(r)},${n(edge[0][1] - 20)}`;
  let prev: [number, number] = [r, edge[0][1] - 20];
  for (const pt of edge) {
    const [x, y] = pt;
    const goingDown = y > prev[1];
    if (goingDown) {
      // from a valley down to a tip: curve that bulges outward, ending sharp
      d += ` C${n(prev[0] - (prev[0] - x) * 0.15)},${n(prev[1] + (y - prev[1]) * 0.55)} ${n(x + (prev[0] - x) * 0.15)},${n(y - 6)} ${n(x)},${n(y)}`;
    } else {
      d += ` C${n(x + (prev[0] - x) * 0.5)},${n(prev[1] - (prev[1] - y) * 0.35)} ${n(x + (prev[0] - x) * 0.05)},${n(y + (prev[1] - y) * 0.3)} ${n(x)},${n(y)}`;
    }
    prev = pt;
  }
  d += 'Z';
  return d;
}

/** A tapered lock of hair from (x1,y1) to a tip at (x2,y2), width w at the root, bending by `bend`. */
export function lock(x1: number, y1: number, x2: number, y2: number, w: number, bend: number): string {
  const mx = (x1 + x2) / 2 + bend;
  const my = (y1 + y2) / 2;
  return (
    `M${n(x1 - w / 2)},${n(y1)} Q${n(mx - w * 0.4)},${n(my)} ${n(x2)},${n(y2)} ` +
    `Q${n(mx + w * 0.4)},${n(my)} ${n(x1 + w / 2)},${n(y1)}Z`
  );
}

function hairFill(p: Palette, d: string, extra = ''): string {
  return `<path d="${d}" fill="url(#hairg)" stroke="${p.hairLine}" stroke-width="2.4" stroke-linejoin="round"${extra}/>`;
}

function shine(p: Palette, y = 150, w = 150): string {
  // the "angel ring" highlight across the top of the hair
  const l = CX - w / 2;
  return (
    `<path d="M${l},${y + 18} Q${CX},${y - 12} ${l + w},${y + 18}" fill="none" stroke="${p.hairLight}" stroke-width="9" ` +
    `stroke-dasharray="26 9 14 8 30 10" stroke-linecap="round" opacity="0.75"/>`
  );
}

/** Shadow the bangs cast on the forehead (the bangs path, moved down, clipped to the face). */
function bangShadow(p: Palette, d: string): string {
  return `<path d="${d}" transform="translate(0,9)" fill="${p.skinShade}" opacity="0.9"/>`;
}

// ---------------------------------------------------------------------------------------------
// character designs

const SKIN = { skin: '#fde7da', skinShade: '#f3c4b3', skinLine: '#b9796b' };

/** 澪: long dark navy hair with a white ribbon, white summer dress with a pale blue ribbon. */
export const mio: Design = {
  id: 'mio',
  palette: {
    ...SKIN,
    hair: '#2e3350',
    hairShade: '#1c1f33',
    hairLight: '#6b78a8',
    hairLine: '#151726',
    iris: '#3f69a0',
    irisDark: '#1d2d55',
    irisLight: '#9cc6ee',
    lash: '#1b1b2b',
    mouth: '#a8434b',
  },
  backHair: (p) =>
    hairFill(
      p,
      'M176,168 C112,250 122,420 104,560 C98,610 96,650 92,690 L468,690 C464,650 462,610 456,560 C438,420 448,250 384,168Z',
    ),
  body: (p) => {
    const dress = '#f8f8f4';
    const shade = '#dcdfe6';
    return (
      `<path d="${TORSO}" fill="${dress}" stroke="#9aa3b5" stroke-width="2.4" stroke-linejoin="round"/>` +
      // shoulders shade and collar
      `<path d="M106,512 C120,560 150,600 160,690 L110,690 C100,620 96,560 106,512Z" fill="${shade}"/>` +
      `<path d="M454,512 C440,560 410,600 400,690 L450,690 C460,620 464,560 454,512Z" fill="${shade}"/>` +
      `<path d="M236,446 Q280,500 324,446 L346,456 Q280,540 214,456Z" fill="#ffffff" stroke="#9aa3b5" stroke-width="2"/>` +
      `<path d="M255,444 Q280,478 305,444" fill="${p.skin}" stroke="${p.skinLine}" stroke-width="2"/>` +
      // pale blue ribbon
      `<path d="M280,500 L248,484 L252,516Z M280,500 L312,484 L308,516Z" fill="#8fc3e8" stroke="#4f86b3" stroke-width="2" stroke-linejoin="round"/>` +
      `<path d="M274,500 L262,560 L274,556 Z M286,500 L298,560 L286,556Z" fill="#8fc3e8" stroke="#4f86b3" stroke-width="2" stroke-linejoin="round"/>` +
      `<circle cx="280" cy="500" r="8" fill="#a9d3f0" stroke="#4f86b3" stroke-width="2"/>` +
      `<path d="M180,600 Q200,640 196,690 M380,600 Q360,640 364,690" fill="none" stroke="${shade}" stroke-width="3"/>`
    );
  },
  midHair: (p) =>
    hairFill(p, 'M190,230 C170,330 176,430 150,560 C164,540 178,520 190,496 C200,430 206,330 214,260Z') +
    hairFill(p, 'M370,230 C390,330 384,430 410,560 C396,540 382,520 370,496 C360,430 354,330 346,260Z'),
  frontHair: (p) => {
    const d = bangs([
      [384, 360],
      [360, 250],
      [340, 282],
      [322, 232],
      [302, 274],
      [286, 226],
      [266, 270],
      [250, 232],
      [230, 268],
      [212, 246],
      [178, 362],
    ]);
    return (
      `<clipPath id="faceclip"><path d="M186,200 L186,290 C188,336 218,372 262,396 Q280,405 298,396 C342,372 372,336 374,290 L374,200Z"/></clipPath>` +
      `<g clip-path="url(#faceclip)">${bangShadow(p, d)}</g>` +
      hairFill(p, lock(196, 200, 184, 392, 30, -10)) +
      hairFill(p, lock(364, 200, 376, 392, 30, 10)) +
      hairFill(p, d) +
      shine(p, 140)
    );
  },
  accessories: () =>
    // white ribbon on the viewer's right side of the head
    `<g transform="translate(372,168) rotate(20)">` +
    `<path d="M0,0 L-34,-20 Q-40,0 -34,20Z M0,0 L34,-20 Q40,0 34,20Z" fill="#ffffff" stroke="#9aa3b5" stroke-width="2.4" stroke-linejoin="round"/>` +
    `<path d="M-4,2 L-16,40 L-6,36Z M4,2 L16,40 L6,36Z" fill="#ffffff" stroke="#9aa3b5" stroke-width="2" stroke-linejoin="round"/>` +
    `<circle r="7" fill="#eef4fb" stroke="#9aa3b5" stroke-width="2"/></g>`,
};

/** 陽菜: orange-brown bob, crossed hairpins, coral T-shirt and a denim shop apron. */
export const hina: Design = {
  id: 'hina',
  palette: {
    ...SKIN,
    skin: '#fde2cf',
    hair: '#c7713a',
    hairShade: '#975126',
    hairLight: '#eeb07a',
    hairLine: '#6b3517',
    iris: '#c27a1f',
    irisDark: '#6e3a0e',
    irisLight: '#f6cd78',
    lash: '#3a2214',
    mouth: '#b0444a',
  },
  backHair: (p) =>
    hairFill(p, 'M172,170 C136,240 140,330 146,404 Q162,426 196,414 L364,414 Q398,426 414,404 C420,330 424,240 388,170Z'),
  body: (p) =>
    `<path d="${TORSO}" fill="#ff8a65" stroke="#b8553a" stroke-width="2.4" stroke-linejoin="round"/>` +
    `<path d="M240,444 Q280,476 320,444" fill="${p.skin}" stroke="${p.skinLine}" stroke-width="2"/>` +
    `<path d="M236,444 Q280,486 324,444" fill="none" stroke="#e66a47" stroke-width="6"/>` +
    // denim apron with straps and a pocket
    `<path d="M176,500 L204,500 L214,560 L346,560 L356,500 L384,500 L378,690 L182,690Z" fill="#4a6fa5" stroke="#2c4670" stroke-width="2.4" stroke-linejoin="round"/>` +
    `<path d="M226,600 L334,600 L330,650 L230,650Z" fill="#5b82bb" stroke="#2c4670" stroke-width="2"/>` +
    `<path d="M230,600 L330,600" stroke="#f3d27a" stroke-width="2" stroke-dasharray="5 4"/>` +
    `<text x="280" y="634" text-anchor="middle" font-family="'Noto Sans CJK JP',sans-serif" font-size="22" font-weight="700" fill="#f3d27a">ひなた</text>` +
    `<circle cx="190" cy="506" r="6" fill="#f3d27a"/><circle cx="370" cy="506" r="6" fill="#f3d27a"/>`,
  frontHair: (p) => {
    const d = bangs(
      [
        [392, 400],
        [366, 258],
        [346, 282],
        [330, 236],
        [310, 268],
        [292, 230],
        [272, 262],
        [254, 234],
        [236, 272],
        [214, 250],
        [168, 400],
      ],
      96,
      116,
    );
    return (
      `<clipPath id="faceclip"><path d="M186,200 L186,290 C188,336 218,372 262,396 Q280,405 298,396 C342,372 372,336 374,290 L374,200Z"/></clipPath>` +
      `<g clip-path="url(#faceclip)">${bangShadow(p, d)}</g>` +
      hairFill(p, lock(188, 210, 196, 408, 34, -14)) +
      hairFill(p, lock(372, 210, 364, 408, 34, 14)) +
      hairFill(p, d) +
      shine(p, 146)
    );
  },
  accessories: () =>
    `<g transform="translate(340,206) rotate(-24)">` +
    `<rect x="-4" y="-30" width="8" height="60" rx="4" fill="#ffd54a" stroke="#c99a14" stroke-width="2"/>` +
    `<rect x="-4" y="-30" width="8" height="60" rx="4" transform="rotate(70)" fill="#ffe37a" stroke="#c99a14" stroke-width="2"/></g>`,
};

/** シオリ: silver-lavender hair, a braid over the shoulder, star ornament, navy librarian robe. */
export const shiori: Design = {
  id: 'shiori',
  palette: {
    ...SKIN,
    skin: '#fdeae2',
    hair: '#c5bde6',
    hairShade: '#9389c4',
    hairLight: '#f4f1ff',
    hairLine: '#5e5390',
    iris: '#7b5bc6',
    irisDark: '#33256e',
    irisLight: '#d2c2ff',
    lash: '#2a2140',
    mouth: '#a8434b',
  },
  backHair: (p) =>
    hairFill(p, 'M178,168 C126,240 132,360 140,470 Q200,500 280,490 Q360,500 420,470 C428,360 434,240 382,168Z'),
  body: (p) =>
    `<path d="${TORSO}" fill="#27305a" stroke="#141a36" stroke-width="2.4" stroke-linejoin="round"/>` +
    // cape edges with gold trim
    `<path d="M250,446 C210,470 170,520 150,690 M310,446 C350,470 390,520 410,690" fill="none" stroke="#d9b45a" stroke-width="6"/>` +
    `<path d="M250,446 C230,500 236,600 240,690 L320,690 C324,600 330,500 310,446Z" fill="#f3f0fa" stroke="#8a84a8" stroke-width="2"/>` +
    `<path d="M246,440 L280,478 L314,440 L322,456 L280,506 L238,456Z" fill="#ffffff" stroke="#8a84a8" stroke-width="2" stroke-linejoin="round"/>` +
    `<path d="M255,440 Q280,470 305,440" fill="${p.skin}" stroke="${p.skinLine}" stroke-width="2"/>` +
    `<path d="${starPath(280, 526, 20)}" fill="#f7d774" stroke="#b58a25" stroke-width="2" stroke-linejoin="round"/>` +
    `<circle cx="280" cy="526" r="5" fill="#fff7d6"/>` +
    `<path d="M262,574 L298,574 M262,600 L298,600 M262,626 L298,626" stroke="#c9c3dc" stroke-width="3" stroke-linecap="round"/>` +
    `<path d="${sparkle(150, 600, 9)} ${sparkle(420, 580, 7)} ${sparkle(400, 650, 5)}" fill="#f7d774" opacity="0.8"/>`,
  midHair: (p) =>
    // braid falling over the viewer's left shoulder
    [0, 1, 2, 3, 4, 5]
      .map((i) => {
        const y = 420 + i * 38;
        const x = 196 - i * 6;
        return `<ellipse cx="${x}" cy="${y}" rx="${26 - i * 2}" ry="24" fill="url(#hairg)" stroke="${p.hairLine}" stroke-width="2.2"/>` +
          `<path d="M${x - 14},${y - 8} Q${x},${y + 4} ${x + 14},${y - 10}" fill="none" stroke="${p.hairShade}" stroke-width="2"/>`;
      })
      .join('') +
    `<path d="M152,630 L166,676 L178,640 L188,680 L196,632Z" fill="url(#hairg)" stroke="${p.hairLine}" stroke-width="2"/>` +
    `<rect x="156" y="612" width="44" height="16" rx="7" fill="#3b4a8a" stroke="#1f2850" stroke-width="2"/>` +
    hairFill(p, 'M200,236 C180,300 190,360 196,412 L222,400 C214,340 212,290 222,250Z'),
  frontHair: (p) => {
    const d = bangs([
      [380, 372],
      [356, 246],
      [338, 284],
      [320, 228],
      [300, 268],
      [284, 236],
      [262, 272],
      [246, 230],
      [226, 266],
      [210, 244],
      [182, 330],
    ]);
    return (
      `<clipPath id="faceclip"><path d="M186,200 L186,290 C188,336 218,372 262,396 Q280,405 298,396 C342,372 372,336 374,290 L374,200Z"/></clipPath>` +
      `<g clip-path="url(#faceclip)">${bangShadow(p, d)}</g>` +
      hairFill(p, lock(366, 200, 380, 420, 28, 12)) +
      hairFill(p, d) +
      shine(p, 140)
    );
  },
  accessories: () =>
    `<path d="${starPath(196, 176, 22)}" fill="#f7d774" stroke="#b58a25" stroke-width="2.2" stroke-linejoin="round"/>` +
    `<path d="${starPath(222, 152, 11)}" fill="#fbe7a1" stroke="#b58a25" stroke-width="1.8" stroke-linejoin="round"/>` +
    `<path d="${sparkle(176, 150, 8)}" fill="#fff6c8"/>`,
};

/** 千尋: chestnut semi-long wavy hair, beige trench coat, white knit, camera strap. */
export const chihiro: Design = {
  id: 'chihiro',
  eyeScale: 0.9,
  palette: {
    ...SKIN,
    skin: '#fbe3d6',
    hair: '#7b4b35',
    hairShade: '#54301f',
    hairLight: '#b8846a',
    hairLine: '#3a1f14',
    iris: '#8a5a3a',
    irisDark: '#3f2214',
    irisLight: '#dcae80',
    lash: '#2a1810',
    mouth: '#a23e46',
  },
  backHair: (p) =>
    hairFill(
      p,
      'M176,166 C120,240 126,330 124,420 C118,470 140,500 128,540 C160,548 186,530 200,512 L360,512 C374,530 400,548 432,540 C420,500 442,470 436,420 C434,330 440,240 384,166Z',
    ),
  body: (p) =>
    `<path d="${TORSO}" fill="#f3efe6" stroke="#a89c86" stroke-width="2.4" stroke-linejoin="round"/>` +
    // ribbed knit lines
    [250, 266, 282, 298, 314]
      .map((x) => `<path d="M${x},470 L${x + (x - 282) * 0.3},690" stroke="#e0dacb" stroke-width="3"/>`)
      .join('') +
    `<path d="M246,446 Q280,486 314,446" fill="none" stroke="#ddd5c2" stroke-width="10"/>` +
    `<path d="M252,442 Q280,474 308,442" fill="${p.skin}" stroke="${p.skinLine}" stroke-width="2"/>` +
    // trench coat, open
    `<path d="M250,446 C200,452 132,470 106,512 C86,546 78,612 72,690 L226,690 C226,600 218,520 240,470Z" fill="#cdb48e" stroke="#86704d" stroke-width="2.4" stroke-linejoin="round"/>` +
    `<path d="M310,446 C360,452 428,470 454,512 C474,546 482,612 488,690 L334,690 C334,600 342,520 320,470Z" fill="#cdb48e" stroke="#86704d" stroke-width="2.4" stroke-linejoin="round"/>` +
    `<path d="M240,470 L204,520 L222,560 L214,600 M320,470 L356,520 L338,560 L346,600" fill="none" stroke="#86704d" stroke-width="2.4" stroke-linejoin="round"/>` +
    `<path d="M240,470 L204,520 L222,560 L228,520Z M320,470 L356,520 L338,560 L332,520Z" fill="#bba078"/>` +
    `<circle cx="218" cy="620" r="6" fill="#6d5838"/><circle cx="342" cy="620" r="6" fill="#6d5838"/>` +
    // camera strap across the chest
    `<path d="M140,500 L420,690" stroke="#2f2f36" stroke-width="12" stroke-linecap="round"/>` +
    `<path d="M140,500 L420,690" stroke="#c0392b" stroke-width="3" stroke-dasharray="10 8"/>`,
  midHair: (p) =>
    hairFill(p, 'M192,230 C168,300 178,380 162,440 C150,480 170,500 160,530 C190,520 206,490 204,460 C208,400 200,320 214,262Z') +
    hairFill(p, 'M368,230 C392,300 382,380 398,440 C410,480 390,500 400,530 C370,520 354,490 356,460 C352,400 360,320 346,262Z'),
  frontHair: (p) => {
    // side-parted bangs: longer sweep to the viewer's left
    const d = bangs([
      [382, 350],
      [366, 240],
      [350, 262],
      [336, 226],
      [316, 250],
      [300, 216],
      [276, 258],
      [250, 240],
      [226, 284],
      [208, 262],
      [180, 350],
    ]);
    return (
      `<clipPath id="faceclip"><path d="M186,200 L186,290 C188,336 218,372 262,396 Q280,405 298,396 C342,372 372,336 374,290 L374,200Z"/></clipPath>` +
      `<g clip-path="url(#faceclip)">${bangShadow(p, d)}</g>` +
      hairFill(p, lock(194, 200, 178, 380, 32, -12)) +
      hairFill(p, lock(366, 200, 382, 380, 32, 12)) +
      hairFill(p, d) +
      shine(p, 138)
    );
  },
  accessories: () =>
    `<circle cx="186" cy="340" r="4.5" fill="#e8edf2" stroke="#8a96a3" stroke-width="1.5"/>` +
    `<circle cx="374" cy="340" r="4.5" fill="#e8edf2" stroke="#8a96a3" stroke-width="1.5"/>`,
};

/** 高槻: short spiky dark hair, convenience-store uniform with a name tag. */
export const takatsuki: Design = {
  id: 'takatsuki',
  eyeScale: 0.8,
  jaw: 1.06,
  browWidth: 6,
  palette: {
    skin: '#f6d8c2',
    skinShade: '#e5b59c',
    skinLine: '#a86a55',
    hair: '#3a302c',
    hairShade: '#221b18',
    hairLight: '#6e5f58',
    hairLine: '#140f0d',
    iris: '#6a4a32',
    irisDark: '#2a1a10',
    irisLight: '#b89070',
    lash: '#1c1410',
    mouth: '#a04a44',
  },
  backHair: (p) => hairFill(p, 'M178,166 C150,210 160,280 168,320 L392,320 C400,280 410,210 382,166Z'),
  body: (p) => {
    let stripes = '';
    for (let x = 80; x < 490; x += 22) stripes += `<rect x="${x}" y="440" width="9" height="250" fill="#6b9fe0"/>`;
    return (
      `<clipPath id="torso"><path d="${TORSO}"/></clipPath>` +
      `<path d="${TORSO}" fill="#f7fbff"/>` +
      `<g clip-path="url(#torso)">${stripes}</g>` +
      `<path d="${TORSO}" fill="none" stroke="#3a5f91" stroke-width="2.4" stroke-linejoin="round"/>` +
      `<path d="M238,444 L280,500 L322,444 L340,452 L300,520 L280,500 L260,520 L220,452Z" fill="#ffffff" stroke="#3a5f91" stroke-width="2" stroke-linejoin="round"/>` +
      `<path d="M248,442 Q280,484 312,442" fill="${p.skin}" stroke="${p.skinLine}" stroke-width="2"/>` +
      `<rect x="320" y="540" width="96" height="40" rx="6" fill="#ffffff" stroke="#3a5f91" stroke-width="2.2"/>` +
      `<text x="368" y="568" text-anchor="middle" font-family="'Noto Sans CJK JP',sans-serif" font-size="20" font-weight="700" fill="#2b4a78">高槻</text>` +
      `<path d="M280,520 L280,690" stroke="#3a5f91" stroke-width="2"/>` +
      `<circle cx="280" cy="560" r="4" fill="#3a5f91"/><circle cx="280" cy="620" r="4" fill="#3a5f91"/>`
    );
  },
  frontHair: (p) => {
    const d = bangs(
      [
        [386, 300],
        [368, 214],
        [352, 250],
        [334, 204],
        [314, 246],
        [296, 206],
        [276, 250],
        [256, 206],
        [236, 248],
        [214, 212],
        [174, 300],
      ],
      84,
      114,
    );
    return (
      `<clipPath id="faceclip"><path d="M180,200 L180,290 C182,336 214,372 262,396 Q280,405 298,396 C346,372 378,336 380,290 L380,200Z"/></clipPath>` +
      `<g clip-path="url(#faceclip)">${bangShadow(p, d)}</g>` +
      hairFill(p, d) +
      // a cowlick and a tousled lock on the crown
      hairFill(p, lock(286, 100, 318, 44, 20, 22)) +
      hairFill(p, d) +
      shine(p, 128, 160)
    );
  },
};

// ---------------------------------------------------------------------------------------------
// ノクト: the library's black cat (its own drawing, same canvas and expression names)

export const CAT_EXPRESSIONS = ['normal', 'smile', 'annoyed', 'surprised', 'sleepy'] as const;

export function catSvg(expr: string): string {
  const fur = '#2b2838';
  const furLight = '#4a4560';
  const line = '#14121c';
  const gold = '#f2c14e';
  const defs =
    radial('catbody', [
      { o: 0, c: furLight },
      { o: 1, c: fur },
    ], 0.45, 0.35, 0.7) +
    linear('catEye', [
      { o: 0, c: '#e09a1a' },
      { o: 1, c: '#ffe27a' },
    ]) +
    radial('blush', [
      { o: 0, c: '#ff7f96', a: 0.6 },
      { o: 1, c: '#ff7f96', a: 0 },
    ]);
  const stroke = `stroke="${line}" stroke-width="3" stroke-linejoin="round"`;
  let s = '';
  // tail
  s += `<path d="M400,650 C500,640 520,560 480,500 C468,482 450,490 458,508 C486,560 470,610 396,612Z" fill="${fur}" ${stroke}/>`;
  // body (sitting)
  s += `<path d="M170,690 C150,600 170,500 230,452 L330,452 C390,500 410,600 390,690Z" fill="url(#catbody)" ${stroke}/>`;
  s += `<path d="M236,520 Q280,560 324,520 Q318,620 280,640 Q242,620 236,520Z" fill="#3c3850"/>`;
  // paws
  s += `<ellipse cx="236" cy="672" rx="34" ry="22" fill="${fur}" ${stroke}/><ellipse cx="324" cy="672" rx="34" ry="22" fill="${fur}" ${stroke}/>`;
  // collar with key
  s += `<path d="M214,468 Q280,506 346,468 L344,486 Q280,524 216,486Z" fill="#8b2f4a" ${stroke}/>`;
  s += `<g transform="translate(280,512)"><circle r="13" fill="none" stroke="${gold}" stroke-width="5"/><rect x="-3" y="12" width="6" height="34" fill="${gold}"/><rect x="3" y="34" width="10" height="5" fill="${gold}"/><rect x="3" y="24" width="7" height="5" fill="${gold}"/></g>`;
  // ears
  s += `<path d="M176,250 L168,120 L262,196Z" fill="${fur}" ${stroke}/><path d="M186,228 L182,150 L236,196Z" fill="#e58fa6"/>`;
  s += `<path d="M384,250 L392,120 L298,196Z" fill="${fur}" ${stroke}/><path d="M374,228 L378,150 L324,196Z" fill="#e58fa6"/>`;
  // head
  s += `<path d="M280,180 C380,180 420,240 418,310 C416,380 360,432 280,432 C200,432 144,380 142,310 C140,240 180,180 280,180Z" fill="url(#catbody)" ${stroke}/>`;
  // little tuft
  s += `<path d="M262,184 L276,160 L284,184 L298,166 L300,188Z" fill="${fur}" ${stroke}/>`;
  // eyes
  const eyeOpen = (cx: number, rx: number, ry: number, pupil: number) =>
    `<ellipse cx="${cx}" cy="300" rx="${rx}" ry="${ry}" fill="url(#catEye)" stroke="${line}" stroke-width="3"/>` +
    `<ellipse cx="${cx}" cy="302" rx="${pupil}" ry="${ry - 6}" fill="${line}"/>` +
    `<circle cx="${cx + rx * 0.35}" cy="${300 - ry * 0.45}" r="${Math.max(4, rx * 0.22)}" fill="#fff"/>`;
  const lid = (cx: number) =>
    `<path d="M${cx - 30},296 Q${cx},288 ${cx + 30},296" fill="none" stroke="${line}" stroke-width="5" stroke-linecap="round"/>`;
  switch (expr) {
    case 'smile':
      s += `<path d="M200,306 Q224,278 248,306 M312,306 Q336,278 360,306" fill="none" stroke="${gold}" stroke-width="7" stroke-linecap="round"/>`;
      s += `<path d="M200,306 Q224,278 248,306 M312,306 Q336,278 360,306" fill="none" stroke="${line}" stroke-width="2" stroke-linecap="round" opacity="0.5"/>`;
      break;
    case 'annoyed':
      s += `<clipPath id="lidL"><rect x="180" y="298" width="100" height="60"/></clipPath><clipPath id="lidR"><rect x="290" y="298" width="100" height="60"/></clipPath>`;
      s += `<g clip-path="url(#lidL)">${eyeOpen(224, 28, 26, 6)}</g><g clip-path="url(#lidR)">${eyeOpen(336, 28, 26, 6)}</g>`;
      s += `<path d="M194,298 L254,298 M306,298 L366,298" stroke="${line}" stroke-width="6" stroke-linecap="round"/>`;
      s += `<path d="M196,262 L248,276 M364,262 L312,276" stroke="${line}" stroke-width="5" stroke-linecap="round"/>`;
      break;
    case 'surprised':
      s += eyeOpen(224, 32, 34, 14) + eyeOpen(336, 32, 34, 14);
      s += `<path d="M150,214 L136,196 M410,214 L424,196 M280,150 L280,128" stroke="${gold}" stroke-width="5" stroke-linecap="round"/>`;
      break;
    case 'sleepy':
      s += `<path d="M198,304 Q224,318 250,304 M310,304 Q336,318 362,304" fill="none" stroke="${line}" stroke-width="6" stroke-linecap="round"/>`;
      s += `<text x="396" y="206" font-family="'Noto Sans CJK JP',sans-serif" font-size="34" font-weight="700" fill="#c9d4ff">z</text><text x="424" y="176" font-family="'Noto Sans CJK JP',sans-serif" font-size="24" font-weight="700" fill="#c9d4ff">z</text>`;
      break;
    default:
      s += eyeOpen(224, 28, 28, 7) + eyeOpen(336, 28, 28, 7) + lid(224) + lid(336);
  }
  // nose, mouth, whiskers, cheeks
  s += `<path d="M272,338 L288,338 L280,348Z" fill="#e58fa6" stroke="${line}" stroke-width="2" stroke-linejoin="round"/>`;
  if (expr === 'surprised') {
    s += `<ellipse cx="280" cy="366" rx="10" ry="12" fill="#8b2f4a" stroke="${line}" stroke-width="2.5"/>`;
  } else if (expr === 'annoyed') {
    s += `<path d="M266,366 L294,362" stroke="${line}" stroke-width="3" stroke-linecap="round"/>`;
  } else {
    s += `<path d="M258,352 Q269,366 280,350 Q291,366 302,352" fill="none" stroke="${line}" stroke-width="3" stroke-linecap="round"/>`;
    if (expr === 'smile') s += `<path d="M268,360 Q280,380 292,360Z" fill="#e06a84" stroke="${line}" stroke-width="2"/>`;
  }
  s += `<g stroke="#d9d4ea" stroke-width="2.5" stroke-linecap="round" opacity="0.85">` +
    `<path d="M196,344 L120,330 M196,356 L118,362 M364,344 L440,330 M364,356 L442,362"/></g>`;
  if (expr === 'smile' || expr === 'surprised') {
    s += `<ellipse cx="206" cy="350" rx="20" ry="9" fill="url(#blush)"/><ellipse cx="354" cy="350" rx="20" ry="9" fill="url(#blush)"/>`;
  }
  // a tiny reading monocle for dignity (館長代理)
  if (expr !== 'sleepy' && expr !== 'smile') {
    s += `<circle cx="336" cy="300" r="38" fill="#dff1ff" fill-opacity="0.12" stroke="${gold}" stroke-width="4"/>`;
    s += `<path d="M372,312 Q390,370 376,430" fill="none" stroke="${gold}" stroke-width="2"/>`;
  }
  return svgDoc(SPRITE_W, SPRITE_H, defs, s);
}
