/**
 * Small helpers shared by the art generators (backgrounds, sprites, key art).
 * Everything here is deterministic: the same input always gives the same SVG text,
 * so regenerating the art does not produce noisy diffs.
 */

/** Deterministic pseudo-random numbers (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Round to two decimals (scales, opacities). */
export function r2(v: number): number {
  return Math.round(v * 100) / 100;
}

/** Round to one decimal so the SVG stays compact. */
export function n(v: number): string {
  return (Math.round(v * 10) / 10).toString();
}

export function pts(list: Array<[number, number]>): string {
  return list.map(([x, y]) => `${n(x)},${n(y)}`).join(' ');
}

export interface Stop {
  o: number;
  c: string;
  a?: number;
}

export function linear(id: string, stops: Stop[], x1 = 0, y1 = 0, x2 = 0, y2 = 1): string {
  const s = stops
    .map((st) => `<stop offset="${st.o}" stop-color="${st.c}"${st.a !== undefined ? ` stop-opacity="${st.a}"` : ''}/>`)
    .join('');
  return `<linearGradient id="${id}" x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}">${s}</linearGradient>`;
}

export function radial(id: string, stops: Stop[], cx = 0.5, cy = 0.5, r = 0.5): string {
  const s = stops
    .map((st) => `<stop offset="${st.o}" stop-color="${st.c}"${st.a !== undefined ? ` stop-opacity="${st.a}"` : ''}/>`)
    .join('');
  return `<radialGradient id="${id}" cx="${cx}" cy="${cy}" r="${r}">${s}</radialGradient>`;
}

export function svgDoc(w: number, h: number, defs: string, body: string): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">` +
    `<defs>${defs}</defs>${body}</svg>\n`
  );
}

/** Mix two #rrggbb colours; t=0 gives a, t=1 gives b. */
export function mix(a: string, b: string, t: number): string {
  const pa = parseInt(a.slice(1), 16);
  const pb = parseInt(b.slice(1), 16);
  const ch = (p: number, s: number) => (p >> s) & 255;
  const out = [16, 8, 0].map((s) => Math.round(ch(pa, s) + (ch(pb, s) - ch(pa, s)) * t));
  return '#' + out.map((v) => v.toString(16).padStart(2, '0')).join('');
}

/** A five-pointed star path centred on (cx, cy). */
export function starPath(cx: number, cy: number, r: number, inner = 0.45, rot = -Math.PI / 2): string {
  const p: Array<[number, number]> = [];
  for (let i = 0; i < 10; i++) {
    const rr = i % 2 === 0 ? r : r * inner;
    const a = rot + (i * Math.PI) / 5;
    p.push([cx + Math.cos(a) * rr, cy + Math.sin(a) * rr]);
  }
  return `M${pts(p)}Z`;
}

/** A four-pointed sparkle. */
export function sparkle(cx: number, cy: number, r: number): string {
  const k = r * 0.18;
  return (
    `M${n(cx)},${n(cy - r)} Q${n(cx + k)},${n(cy - k)} ${n(cx + r)},${n(cy)} ` +
    `Q${n(cx + k)},${n(cy + k)} ${n(cx)},${n(cy + r)} Q${n(cx - k)},${n(cy + k)} ${n(cx - r)},${n(cy)} ` +
    `Q${n(cx - k)},${n(cy - k)} ${n(cx)},${n(cy - r)}Z`
  );
}

/** Scattered stars (small circles with varied opacity) inside a rectangle. */
export function starField(seed: number, count: number, x: number, y: number, w: number, h: number, fade = true): string {
  const r = rng(seed);
  let out = '';
  for (let i = 0; i < count; i++) {
    const sx = x + r() * w;
    const sy = y + Math.pow(r(), fade ? 1.6 : 1) * h;
    const size = 0.5 + Math.pow(r(), 3) * 2.2;
    const op = 0.35 + r() * 0.65;
    out += `<circle cx="${n(sx)}" cy="${n(sy)}" r="${n(size)}" fill="#fff" opacity="${r2(op)}"/>`;
  }
  return out;
}

/** A soft five-lobed cherry blossom petal cluster is too costly; one petal shape instead. */
export function petal(cx: number, cy: number, s: number, rot: number, color: string, op = 0.9): string {
  return (
    `<path transform="translate(${n(cx)},${n(cy)}) rotate(${n(rot)}) scale(${r2(s)})" ` +
    `d="M0,-6 C4,-6 6,-2 5,2 C4,5 1,6 0,7 C-1,6 -4,5 -5,2 C-6,-2 -4,-6 0,-6Z M0,-6 L0,-3" fill="${color}" opacity="${op}"/>`
  );
}

export const FONT_SANS = "'Noto Sans CJK JP','Noto Sans JP','Hiragino Sans',sans-serif";
export const FONT_SERIF = "'Noto Serif CJK JP','Noto Serif JP','Hiragino Mincho ProN',serif";
