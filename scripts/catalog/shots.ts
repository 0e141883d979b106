/**
 * Which moments of each title scripts/catalog/capture-screenshots.ts photographs, in story
 * order, with the Japanese alt text that goes into meta.json. A moment is the first fully
 * shown line (or set of choices) whose engine state matches: the background, who is on
 * screen, and whether choices are up. `choices` are the options picked at each choice point
 * on the way (0-based; later points take the first option), chosen so every moment is on the path.
 */
export interface Moment {
  scene?: string;
  /** every one of these characters is on screen */
  chars?: string[];
  /** choice buttons are showing */
  choices?: boolean;
  alt: string;
}

export interface ShotPlan {
  choices: number[];
  moments: Moment[];
}

export const SHOT_PLANS: Record<string, ShotPlan> = {
  'hajimari-no-eki': {
    choices: [1, 0],
    moments: [
      { scene: 'eki_dusk', chars: ['mio'], alt: '夕暮れの無人駅のホームで、白いワンピースの少女・澪と出会う' },
      { scene: 'eki_dusk', choices: true, alt: 'ベンチで列車を待つ澪に、どう声をかけるかを選ぶ' },
      { scene: 'eki_dusk', chars: ['mio', 'hina'], alt: '商店の看板娘・陽菜がホームにやって来て、三人で言葉を交わす' },
      { scene: 'town', chars: ['hina'], alt: '陽菜の案内で、海辺の小さな町の商店街を歩く' },
    ],
  },
  'hoshifuru-toshokan': {
    choices: [0, 0],
    moments: [
      { scene: 'lib_entrance', alt: '丘の上に現れた、星飾りをのせた夜だけ開く図書館' },
      { scene: 'lib_hall', chars: ['shiori', 'nocto'], alt: '星のランプが灯る大広間で、司書見習いのシオリと黒猫のノクトに出会う' },
      { scene: 'lib_hall', choices: true, alt: 'シオリの頼みにどう答えるか、三つの選択肢' },
      { scene: 'lib_reading', chars: ['shiori'], alt: '緑のランプが並ぶ閲覧室で、結末のない絵本をシオリと開く' },
    ],
  },
  'sakurairo-signal': {
    choices: [0, 0],
    moments: [
      { scene: 'fumikiri', choices: true, alt: '終電が去ったあとの夜桜の踏切。先輩にどう声をかけるかを選ぶ' },
      { scene: 'fumikiri', chars: ['chihiro'], alt: '踏切の前で振り返る、写真サークルの先輩・千尋' },
      { scene: 'konbini', chars: ['chihiro', 'takatsuki'], alt: '深夜のコンビニで、夜勤中の同級生・高槻とばったり会う' },
    ],
  },
  'amayadori-cafe': {
    choices: [0, 0],
    moments: [
      { scene: 'cafe_rain', chars: ['shigure'], alt: '雨の日の喫茶店「あまやどり」に、常連の大学生・時雨さんがやって来る' },
      { scene: 'cafe_rain', choices: true, alt: '傘立ての紺色の傘の謎を、どこから調べるかを選ぶ' },
      { scene: 'arcade_rain', chars: ['shigure'], alt: '雨音の響く商店街のアーケードを、時雨さんと聞きこみに歩く' },
      { scene: 'busstop_memory', alt: '五十年前の雨のバス停。たばこ屋の軒先で聞いた、祖母の思い出' },
    ],
  },
  'shizuka-no-umi-postman': {
    choices: [0, 0],
    moments: [
      { scene: 'yubinkyoku', chars: ['nana'], alt: '月面郵便局で、旧型配達ロボットのナナが今週の郵便物を仕分ける' },
      { scene: 'yubinkyoku', choices: true, alt: '宛先「月のうさぎさま」の手紙。月でうさぎをどこから探すかを選ぶ' },
      { scene: 'hangar', chars: ['uzuki'], alt: '第一格納庫で、元開拓団の技術者・卯月さんに手紙を見せる' },
      { scene: 'surface', chars: ['uzuki', 'nana'], alt: 'しずかの海の月面に立ち、空に浮かぶ青い地球を見上げる' },
    ],
  },
};

export function matches(m: Moment, s: { scene: string | null; characters: { id: string }[]; choices: unknown[] }): boolean {
  if (m.scene && s.scene !== m.scene) return false;
  if (m.chars && !m.chars.every((id) => s.characters.some((c) => c.id === id))) return false;
  return m.choices ? s.choices.length > 0 : true;
}
