/**
 * Drawing the stage (stage.ts): the scene's background, the characters (the speaker in front, the
 * others dimmed), and the weather in front of or behind them. The art is the art store's rasters
 * (art.ts), asked for at each draw (a miss loads it at once). Background + characters change only
 * on tags, so they are one cached layer unless a weather sits between them or there are no
 * characters (then the background's raster is drawn as it is).
 */
import { DIM_FILTER } from '../art-raster';
import type { Assets } from '../assets';
import type { Stage } from '../stage';
import { H, W, type GameData } from '../types';
import { rr, type Layers } from './common';

const POS_X = { left: 320, center: 640, right: 960 } as const;

/** The rasterised art (assets.ts), once the game's content is loaded. */
export type StageArt = Pick<Assets, 'background' | 'sprite'>;

export function drawBackground(ctx: CanvasRenderingContext2D, art: StageArt | undefined, id: string | null): void {
  const bg = id ? art?.background(id) : undefined;
  if (bg) {
    ctx.drawImage(bg, 0, 0);
    return;
  }
  if (!id) {
    ctx.fillStyle = '#000';
    ctx.fillRect(0, 0, W, H);
    return;
  }
  // a background that is missing: a quiet gradient instead of a hole
  const g = ctx.createLinearGradient(0, 0, 0, H);
  g.addColorStop(0, '#23284a');
  g.addColorStop(1, '#0d0f1f');
  ctx.fillStyle = g;
  ctx.fillRect(0, 0, W, H);
}

/**
 * The characters. `cached`: drawn into the stage layer (once per change), so a dimmed one is drawn
 * through DIM_FILTER; drawn every frame (weather behind them), the sprite's dimmed copy is cheaper.
 */
function drawCharacters(ctx: CanvasRenderingContext2D, stage: Stage, art: StageArt | undefined, game: GameData | undefined, speaker: string | null, cached: boolean): void {
  const speakerShown = !!speaker && stage.chars.some((c) => c.id === speaker);
  const order = [...stage.chars].sort((a, b) => (a.id === speaker ? 1 : 0) - (b.id === speaker ? 1 : 0));
  for (const c of order) {
    const cx = POS_X[c.pos];
    const dim = speakerShown && c.id !== speaker;
    const sprite = art?.sprite(c.id, c.expr);
    if (sprite) {
      const x = Math.round(cx - sprite.width / 2);
      const y = H - sprite.height + 8;
      if (dim && cached) {
        ctx.save();
        ctx.filter = DIM_FILTER;
        ctx.drawImage(sprite.normal, x, y);
        ctx.restore();
      } else ctx.drawImage(dim ? sprite.dim : sprite.normal, x, y);
    } else {
      // no art yet: a soft silhouette in the character's colour
      const col = game?.characters[c.id]?.color ?? '#8899cc';
      ctx.save();
      ctx.globalAlpha = dim ? 0.55 : 0.85;
      ctx.fillStyle = col;
      ctx.beginPath();
      ctx.arc(cx, 250, 80, 0, Math.PI * 2);
      ctx.fill();
      rr(ctx, cx - 130, 340, 260, 400, 110);
      ctx.fill();
      ctx.restore();
    }
  }
}

/** The whole stage; `speaker` (the current line's) is drawn in front and the others dimmed. */
export function drawStage(
  ctx: CanvasRenderingContext2D,
  layers: Layers,
  stage: Stage,
  art: StageArt | undefined,
  game: GameData | undefined,
  speaker: string | null,
): void {
  const behind = [...stage.weather.values()].filter((w) => w.behindCharacters);
  if (behind.length || !stage.chars.length) {
    // (no characters: the background raster is the picture; a layer would copy it, ~3.7 MB)
    drawBackground(ctx, art, stage.scene);
    for (const w of behind) w.draw(ctx);
    drawCharacters(ctx, stage, art, game, speaker, false);
  } else {
    // background + characters change only on tags: one cached layer
    const key = `${stage.scene}|${speaker ?? ''}|${stage.chars.map((c) => `${c.id}/${c.expr}/${c.pos}`).join(',')}`;
    ctx.drawImage(
      layers.get('stage', key, W, H, (g) => {
        drawBackground(g, art, stage.scene);
        drawCharacters(g, stage, art, game, speaker, true);
      }),
      0,
      0,
    );
  }
  for (const w of stage.weather.values()) if (!w.behindCharacters) w.draw(ctx);
}
