/**
 * Characters of the two こもれび堂 / 月灯工房 titles added with the catalogue: four human designs
 * for the shared sprite builder (scripts/art/sprites.ts: same canvas, face parts and expression
 * names as the first three titles) and ナナ, a delivery robot drawn here with its own LED faces.
 */
import { bangs, lock, SPRITE_H, SPRITE_W, TORSO, type Design, type Palette } from '../../art/sprites';
import { linear, n, radial, sparkle, svgDoc } from '../../art/svg';

const FACE_CLIP =
  '<clipPath id="faceclip"><path d="M184,200 L184,290 C186,336 216,372 262,396 Q280,405 298,396 C344,372 374,336 376,290 L376,200Z"/></clipPath>';

/** A filled hair shape (the sprite builder defines the `hairg` gradient). */
function hair(p: Palette, d: string): string {
  return `<path d="${d}" fill="url(#hairg)" stroke="${p.hairLine}" stroke-width="2.4" stroke-linejoin="round"/>`;
}

/** Bangs with their shadow on the forehead, then the highlight ring across the crown. */
function fringe(p: Palette, d: string, ringY = 140, ringW = 150): string {
  const l = 280 - ringW / 2;
  return (
    FACE_CLIP +
    `<g clip-path="url(#faceclip)"><path d="${d}" transform="translate(0,9)" fill="${p.skinShade}" opacity="0.9"/></g>` +
    hair(p, d) +
    `<path d="M${l},${ringY + 18} Q280,${ringY - 12} ${l + ringW},${ringY + 18}" fill="none" stroke="${p.hairLight}" ` +
    `stroke-width="8" stroke-dasharray="24 10 16 8 28 12" stroke-linecap="round" opacity="0.7"/>`
  );
}

const SKIN = { skin: '#fce6d8', skinShade: '#f0c2b0', skinLine: '#b47666' };

/** 時雨: a university student; tidy dark-brown hair, round glasses, navy cardigan over a white shirt. */
export const shigure: Design = {
  id: 'shigure',
  eyeScale: 0.85,
  jaw: 1.04,
  browWidth: 5,
  palette: {
    ...SKIN,
    skin: '#f8dfcf',
    hair: '#4a3a32',
    hairShade: '#2e231e',
    hairLight: '#85705f',
    hairLine: '#1c1512',
    iris: '#5a4a3a',
    irisDark: '#241a12',
    irisLight: '#a89078',
    lash: '#1e1814',
    mouth: '#a04a48',
  },
  backHair: (p) => hair(p, 'M176,166 C144,214 152,290 162,340 L398,340 C408,290 416,214 384,166Z'),
  body: (p) =>
    `<path d="${TORSO}" fill="#2f3d66" stroke="#182140" stroke-width="2.4" stroke-linejoin="round"/>` +
    `<path d="M244,444 L280,520 L316,444 L300,690 L260,690Z" fill="#f6f7fa" stroke="#9aa2b4" stroke-width="2" stroke-linejoin="round"/>` +
    `<path d="M240,444 L262,476 L280,456 L298,476 L320,444 L306,438 L280,452 L254,438Z" fill="#ffffff" stroke="#9aa2b4" stroke-width="2" stroke-linejoin="round"/>` +
    `<path d="M250,440 Q280,474 310,440" fill="${p.skin}" stroke="${p.skinLine}" stroke-width="2"/>` +
    [560, 610, 660].map((y) => `<circle cx="${y === 560 ? 252 : 254}" cy="${y}" r="6" fill="#c9b48a" stroke="#7a6840" stroke-width="1.5"/>`).join('') +
    // ribbed cardigan hem lines and a paperback in the breast pocket
    `<path d="M130,560 Q150,620 146,690 M430,560 Q410,620 414,690" fill="none" stroke="#26335a" stroke-width="4"/>` +
    `<rect x="330" y="540" width="70" height="60" rx="4" fill="#26335a" stroke="#182140" stroke-width="2"/>` +
    `<rect x="342" y="514" width="40" height="40" fill="#d8563f" stroke="#8a2f20" stroke-width="2" transform="rotate(-6 362 534)"/>`,
  frontHair: (p) => {
    const d = bangs(
      [
        [384, 310],
        [366, 226],
        [348, 262],
        [330, 218],
        [306, 262],
        [286, 222],
        [262, 266],
        [244, 224],
        [222, 260],
        [206, 230],
        [176, 310],
      ],
      88,
      112,
    );
    return fringe(p, d, 132, 156) + hair(p, lock(278, 96, 250, 62, 18, -14));
  },
  accessories: () =>
    // round glasses with a thin gold rim
    `<g fill="#ffffff" fill-opacity="0.12" stroke="#8a6a2e" stroke-width="4">` +
    `<circle cx="234" cy="304" r="40"/><circle cx="326" cy="304" r="40"/></g>` +
    `<path d="M274,300 Q280,292 286,300 M194,298 L178,290 M366,298 L382,290" fill="none" stroke="#8a6a2e" stroke-width="4" stroke-linecap="round"/>` +
    `<path d="M212,282 L226,272 M304,282 L318,272" stroke="#ffffff" stroke-width="4" stroke-linecap="round" opacity="0.7"/>`,
};

/** 澄子: the café's owner, 67; silver hair in a bun, cream blouse and a wisteria apron. */
export const sumiko: Design = {
  id: 'sumiko',
  eyeScale: 0.78,
  palette: {
    ...SKIN,
    skin: '#f9e2d4',
    hair: '#d6d2cc',
    hairShade: '#a9a49c',
    hairLight: '#f7f5f1',
    hairLine: '#767069',
    iris: '#6a5440',
    irisDark: '#2e2216',
    irisLight: '#b49a80',
    lash: '#3a302a',
    mouth: '#a4524e',
  },
  backHair: (p) =>
    `<circle cx="280" cy="104" r="58" fill="url(#hairg)" stroke="${p.hairLine}" stroke-width="2.4"/>` +
    `<path d="M238,92 Q280,70 322,92" fill="none" stroke="#8a5aa8" stroke-width="8" stroke-linecap="round"/>` +
    hair(p, 'M178,170 C150,220 158,300 170,350 L390,350 C402,300 410,220 382,170Z'),
  body: (p) =>
    `<path d="${TORSO}" fill="#f5eedd" stroke="#a79c82" stroke-width="2.4" stroke-linejoin="round"/>` +
    `<path d="M242,444 Q280,470 318,444 L330,458 Q280,494 230,458Z" fill="#fbf7ec" stroke="#a79c82" stroke-width="2"/>` +
    `<path d="M252,442 Q280,468 308,442" fill="${p.skin}" stroke="${p.skinLine}" stroke-width="2"/>` +
    // wisteria apron with a small embroidered umbrella
    `<path d="M184,512 L214,512 L226,580 L334,580 L346,512 L376,512 L372,690 L188,690Z" fill="#a98cc8" stroke="#6e5290" stroke-width="2.4" stroke-linejoin="round"/>` +
    `<path d="M226,580 L334,580" stroke="#ffffff" stroke-width="2" stroke-dasharray="6 5" opacity="0.8"/>` +
    `<path d="M262,630 Q280,606 298,630Z M280,630 L280,652 Q280,658 274,656" fill="#2f3d66" stroke="#ffffff" stroke-width="2" stroke-linejoin="round"/>` +
    `<circle cx="196" cy="518" r="6" fill="#e8dcf4"/><circle cx="364" cy="518" r="6" fill="#e8dcf4"/>`,
  frontHair: (p) => {
    // swept back: a low fringe parted to the side, the forehead left open
    const d = bangs(
      [
        [382, 300],
        [362, 214],
        [330, 196],
        [300, 190],
        [270, 200],
        [240, 208],
        [214, 226],
        [178, 300],
      ],
      96,
      110,
    );
    return fringe(p, d, 140, 140);
  },
  accessories: (p) =>
    // smile lines and a pearl earring
    `<path d="M196,326 Q202,336 200,346 M364,326 Q358,336 360,346" fill="none" stroke="${p.skinLine}" stroke-width="1.6" opacity="0.45"/>` +
    `<circle cx="184" cy="338" r="5" fill="#fbf7f0" stroke="#b8aea0" stroke-width="1.5"/><circle cx="376" cy="338" r="5" fill="#fbf7f0" stroke="#b8aea0" stroke-width="1.5"/>`,
};

/** 御剣かぐや: the post office's chief; long black hime-cut hair, navy uniform, a moon-rabbit pin. */
export const kaguya: Design = {
  id: 'kaguya',
  eyeScale: 0.92,
  palette: {
    ...SKIN,
    hair: '#1e1c26',
    hairShade: '#0f0e14',
    hairLight: '#5a5670',
    hairLine: '#08080c',
    iris: '#8a3a4a',
    irisDark: '#3a1220',
    irisLight: '#e08a9a',
    lash: '#14121a',
    mouth: '#b0404e',
  },
  backHair: (p) => hair(p, 'M174,168 C118,250 124,420 112,690 L448,690 C436,420 442,250 386,168Z'),
  body: (p) =>
    `<path d="${TORSO}" fill="#223058" stroke="#111a36" stroke-width="2.4" stroke-linejoin="round"/>` +
    `<path d="M244,444 L280,500 L316,444 L330,452 L292,560 L268,560 L230,452Z" fill="#f4f6fb" stroke="#8a92a8" stroke-width="2" stroke-linejoin="round"/>` +
    `<path d="M252,442 Q280,476 308,442" fill="${p.skin}" stroke="${p.skinLine}" stroke-width="2"/>` +
    `<path d="M272,500 L288,500 L284,560 L276,560Z" fill="#c8384a"/>` +
    `<path d="M230,452 L196,520 L230,560 M330,452 L364,520 L330,560" fill="none" stroke="#111a36" stroke-width="2.4"/>` +
    [590, 640].map((y) => `<circle cx="262" cy="${y}" r="7" fill="#e6c15a" stroke="#9a7a20" stroke-width="1.8"/><circle cx="298" cy="${y}" r="7" fill="#e6c15a" stroke="#9a7a20" stroke-width="1.8"/>`).join('') +
    // a crescent-and-rabbit pin on the lapel
    `<circle cx="362" cy="552" r="16" fill="#f7e7a8" stroke="#9a7a20" stroke-width="2"/><circle cx="368" cy="546" r="13" fill="#223058"/>` +
    `<ellipse cx="354" cy="558" rx="5" ry="4" fill="#ffffff"/><path d="M352,554 L350,544 M356,554 L357,544" stroke="#ffffff" stroke-width="2.4" stroke-linecap="round"/>`,
  midHair: (p) =>
    // hime cut: straight side locks at cheek length
    hair(p, 'M188,220 L184,410 L226,410 L222,250Z') + hair(p, 'M372,220 L376,410 L334,410 L338,250Z'),
  frontHair: (p) => {
    const d = bangs(
      [
        [380, 270],
        [360, 262],
        [340, 268],
        [320, 262],
        [300, 268],
        [280, 262],
        [260, 268],
        [240, 262],
        [220, 268],
        [200, 262],
        [180, 270],
      ],
      90,
      112,
    );
    return fringe(p, d, 138, 160);
  },
};

/** 卯月源一郎: a lunar pioneer, 82; white hair and beard, bushy brows, an orange work suit. */
export const uzuki: Design = {
  id: 'uzuki',
  eyeScale: 0.7,
  jaw: 1.06,
  browWidth: 9,
  palette: {
    skin: '#f1cfb6',
    skinShade: '#dcaa8e',
    skinLine: '#9a6248',
    hair: '#eeeeea',
    hairShade: '#c2c2bc',
    hairLight: '#ffffff',
    hairLine: '#8a8a84',
    iris: '#4a5a6a',
    irisDark: '#1a2430',
    irisLight: '#9ab0c4',
    lash: '#3a3a3a',
    mouth: '#9a4a44',
  },
  backHair: (p) => hair(p, 'M184,190 C164,230 170,290 176,320 L384,320 C390,290 396,230 376,190Z'),
  body: (p) =>
    `<path d="${TORSO}" fill="#e0823a" stroke="#8a4a1a" stroke-width="2.4" stroke-linejoin="round"/>` +
    `<path d="M236,444 L280,470 L324,444 L340,462 L280,500 L220,462Z" fill="#c86a28" stroke="#8a4a1a" stroke-width="2" stroke-linejoin="round"/>` +
    `<path d="M248,442 Q280,470 312,442" fill="${p.skin}" stroke="${p.skinLine}" stroke-width="2"/>` +
    `<path d="M280,500 L280,690" stroke="#8a4a1a" stroke-width="3" stroke-dasharray="8 5"/>` +
    // mission patch and a tool belt strap
    `<circle cx="200" cy="560" r="26" fill="#223058" stroke="#e6c15a" stroke-width="3"/><circle cx="208" cy="552" r="9" fill="#f7f3e0"/>` +
    `<path d="M188,572 L212,572" stroke="#e6c15a" stroke-width="3"/>` +
    `<path d="M100,640 Q280,620 460,640 L462,668 Q280,648 98,668Z" fill="#5a4632" stroke="#2e2418" stroke-width="2"/>` +
    `<rect x="330" y="630" width="40" height="34" rx="4" fill="#6e5a40" stroke="#2e2418" stroke-width="2"/>` +
    `<rect x="348" y="600" width="6" height="34" fill="#a0a4ac"/>`,
  frontHair: (p) => {
    // receding short white hair: a thin fringe high on the forehead
    const d = bangs(
      [
        [378, 262],
        [350, 196],
        [320, 178],
        [280, 174],
        [240, 178],
        [210, 196],
        [182, 262],
      ],
      104,
      106,
    );
    return fringe(p, d, 150, 120);
  },
  accessories: (p) =>
    // a neat white beard around the chin (the mouth stays visible) and deep smile lines
    `<path d="M200,344 C206,392 240,430 280,432 C320,430 354,392 360,344 C348,376 326,394 306,398 Q280,386 254,398 C234,394 212,376 200,344Z" ` +
    `fill="url(#hairg)" stroke="${p.hairLine}" stroke-width="2" stroke-linejoin="round"/>` +
    `<path d="M252,348 Q280,340 308,348 Q300,356 280,352 Q260,356 252,348Z" fill="url(#hairg)" stroke="${p.hairLine}" stroke-width="1.6"/>` +
    `<path d="M192,318 Q200,330 198,342 M368,318 Q360,330 362,342" fill="none" stroke="${p.skinLine}" stroke-width="1.8" opacity="0.5"/>`,
};

// ---------------------------------------------------------------------------------------------
// ナナ: NN-7 delivery robot. Same canvas as the human sprites; the face is an LED screen.

export const ROBOT_EXPRESSIONS = ['normal', 'smile', 'surprised', 'troubled', 'sad', 'serious', 'proud'] as const;

const LED = '#7ff0ff';

function ledFace(expr: string): string {
  const eye = (cx: number, shape: string) => `<g transform="translate(${cx},262)">${shape}</g>`;
  const both = (shape: string) => eye(226, shape) + eye(334, shape);
  const stroke = `fill="none" stroke="${LED}" stroke-width="9" stroke-linecap="round"`;
  switch (expr) {
    case 'smile':
      return both(`<path d="M-22,8 Q0,-22 22,8" ${stroke}/>`) + `<path d="M258,304 Q280,322 302,304" ${stroke}/>`;
    case 'surprised':
      return both(`<circle r="24" fill="none" stroke="${LED}" stroke-width="8"/><circle r="8" fill="${LED}"/>`) + `<circle cx="280" cy="312" r="11" ${stroke}/>`;
    case 'troubled':
      return (
        eye(226, `<path d="M-20,-6 L20,6" ${stroke}/>`) +
        eye(334, `<path d="M-20,6 L20,-6" ${stroke}/>`) +
        `<path d="M256,312 q6,-8 12,0 t12,0 t12,0 t12,0" fill="none" stroke="${LED}" stroke-width="6" stroke-linecap="round"/>` +
        `<path d="M384,204 q10,16 0,24 q-10,-8 0,-24Z" fill="#9ad8ff" stroke="#3a7ab0" stroke-width="2"/>`
      );
    case 'sad':
      return both(`<path d="M-22,-6 Q0,18 22,-6" fill="none" stroke="#7fb4ff" stroke-width="9" stroke-linecap="round"/>`) +
        `<path d="M262,316 Q280,302 298,316" fill="none" stroke="#7fb4ff" stroke-width="7" stroke-linecap="round"/>`;
    case 'serious':
      return both(`<rect x="-24" y="-6" width="48" height="14" rx="4" fill="${LED}"/>`) + `<path d="M264,310 L296,310" ${stroke}/>`;
    case 'proud':
      return (
        both(`<path d="M-22,-4 Q0,-22 22,-4" ${stroke}/>`) +
        `<path d="M254,302 Q280,328 306,302Z" fill="${LED}"/>` +
        `<path d="${sparkle(410, 170, 16)} ${sparkle(150, 200, 10)}" fill="#fff6b0"/>`
      );
    default:
      return both(`<ellipse rx="15" ry="20" fill="${LED}"/><circle cx="5" cy="-7" r="5" fill="#ffffff"/>`) + `<path d="M266,308 Q280,316 294,308" ${stroke}/>`;
  }
}

export function robotSvg(expr: string): string {
  const defs =
    linear('shell', [
      { o: 0, c: '#ffffff' },
      { o: 1, c: '#d6dde6' },
    ]) +
    linear('screen', [
      { o: 0, c: '#13233a' },
      { o: 1, c: '#0a1424' },
    ]) +
    radial('lamp', [
      { o: 0, c: '#d8ffd0' },
      { o: 0.5, c: '#5ee06a' },
      { o: 1, c: '#2a9a3a' },
    ]);
  const lampColour = expr === 'troubled' || expr === 'surprised' ? '#f0b93a' : expr === 'sad' ? '#5a8ae0' : 'url(#lamp)';
  let b = '';
  // antenna (tilted when troubled)
  const tilt = expr === 'troubled' ? -18 : expr === 'proud' ? 8 : 0;
  b += `<g transform="rotate(${tilt} 280 130)"><path d="M280,130 L280,64" stroke="#8a96a8" stroke-width="7" stroke-linecap="round"/>`;
  b += `<circle cx="280" cy="56" r="14" fill="#ff6a6a" stroke="#a83a3a" stroke-width="3"/></g>`;
  // body: a rounded drum with a postal satchel
  b += `<path d="M150,430 Q150,410 176,410 L384,410 Q410,410 410,430 L430,690 L130,690Z" fill="url(#shell)" stroke="#5a6a80" stroke-width="3"/>`;
  b += `<rect x="150" y="470" width="260" height="18" fill="#d8404a"/>`;
  b += `<circle cx="280" cy="560" r="34" fill="${lampColour}" stroke="#3a4a5a" stroke-width="3"/>`;
  b += `<text x="280" y="640" text-anchor="middle" font-family="'Noto Sans CJK JP',sans-serif" font-size="40" font-weight="700" fill="#d8404a">〒 NN-7</text>`;
  b += `<path d="M150,430 L420,650" stroke="#7a5a3a" stroke-width="14" stroke-linecap="round"/>`;
  b += `<rect x="370" y="600" width="110" height="80" rx="10" fill="#a8783e" stroke="#5a3a1a" stroke-width="3"/>`;
  b += `<path d="M370,620 L480,620" stroke="#5a3a1a" stroke-width="3"/>`;
  // arms: little jointed cylinders
  b += `<path d="M150,450 Q100,500 96,580" fill="none" stroke="#8a96a8" stroke-width="22" stroke-linecap="round"/><circle cx="96" cy="590" r="20" fill="#d6dde6" stroke="#5a6a80" stroke-width="3"/>`;
  b += `<path d="M410,450 Q456,480 470,540" fill="none" stroke="#8a96a8" stroke-width="22" stroke-linecap="round"/>`;
  // neck and head with the LED screen
  b += `<rect x="256" y="372" width="48" height="44" fill="#8a96a8" stroke="#5a6a80" stroke-width="3"/>`;
  b += `<ellipse cx="280" cy="262" rx="170" ry="132" fill="url(#shell)" stroke="#5a6a80" stroke-width="3.5"/>`;
  b += `<rect x="150" y="180" width="260" height="170" rx="56" fill="url(#screen)" stroke="#3a4a5a" stroke-width="3"/>`;
  b += `<path d="M168,200 Q200,186 250,186" stroke="#ffffff" stroke-width="6" stroke-linecap="round" opacity="0.25" fill="none"/>`;
  b += `<circle cx="112" cy="262" r="22" fill="#d8404a" stroke="#8a2a30" stroke-width="3"/><circle cx="448" cy="262" r="22" fill="#d8404a" stroke="#8a2a30" stroke-width="3"/>`;
  b += ledFace(expr);
  if (expr === 'smile' || expr === 'proud') b += `<ellipse cx="196" cy="318" rx="18" ry="8" fill="#ff8aa0" opacity="0.55"/><ellipse cx="364" cy="318" rx="18" ry="8" fill="#ff8aa0" opacity="0.55"/>`;
  return svgDoc(SPRITE_W, SPRITE_H, defs, b.replace(/(\d+\.\d{2,})/g, (m) => n(parseFloat(m))));
}
