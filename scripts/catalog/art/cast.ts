/**
 * Who appears on screen in the catalogue's added titles, and which drawing makes their sprite.
 * A cast member without a drawing is a voice only (the narrator, passers-by).
 */
import { spriteSvg } from '../../art/sprites';
import { kaguya, robotSvg, ROBOT_EXPRESSIONS, shigure, sumiko, uzuki } from './designs';

const HUMANS = { shigure, sumiko, kaguya, uzuki };

export interface CastMember {
  name: string;
  color: string;
  drawing?: keyof typeof HUMANS | 'robot';
  /** expressions to draw; a robot always gets ROBOT_EXPRESSIONS */
  expressions?: string[];
}

const BASE_EXPRESSIONS = ['normal', 'smile', 'gentle', 'sad', 'surprised', 'shy', 'troubled'];

/** The seven expressions every human sprite has, plus a character's extra ones. */
export function humanExpressions(extra: string[]): string[] {
  return [...BASE_EXPRESSIONS, ...extra];
}

export function spriteFor(member: CastMember, expr: string): string {
  if (member.drawing === 'robot') return robotSvg(expr);
  if (!member.drawing) throw new Error(`${member.name} has no drawing`);
  return spriteSvg(HUMANS[member.drawing], expr);
}

/** The robot's expressions come from its LED faces, not from the cast list. */
export function expressionsOf(member: CastMember): string[] {
  if (member.drawing === 'robot') return [...ROBOT_EXPRESSIONS];
  return member.drawing ? (member.expressions ?? []) : [];
}
