/**
 * The catalogue as the seed reads it from the repository and as the api holds it in memory.
 * Wire shapes (snake_case) are in lib/api-types/schemas/catalog.ts; wire.ts maps these to them.
 */
import type { AgeRating, ArticleFields, ScreenshotImageWire, TitleLicenseWire } from '../../../../lib/api-types/schemas/catalog';
import type { TitleRuntime } from '../../../../lib/api-types/titleRuntime';

/** An article's slug (its content/magazine/<slug>.md; the /v1/magazine/:slug path parameter). */
export const SLUG_PATTERN = '^[a-z0-9][a-z0-9-]{0,127}$';
export const SLUG_RE = new RegExp(SLUG_PATTERN);
export const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

export interface Brand {
  id: string;
  name: string;
  reading: string;
  description: string;
}

/** One title (a row of `games`). */
export interface Title {
  id: string;
  title: string;
  reading: string;
  brandId: string;
  description: string;
  tags: string[];
  genres: string[];
  /** YYYY-MM-DD */
  releaseDate: string;
  ageRating: AgeRating;
  keyArt: string;
  screenshots: ScreenshotImageWire[];
  gameFolder: string;
  /** Only subscribers may start it (meta.json "premium"; absent = false). docs/purchase.md */
  premium: boolean;
  /** Which runtime plays it (meta.json "runtime"; absent = the web engine). lib/api-types/titleRuntime.ts */
  runtime: TitleRuntime;
  /** meta.json "license", "copyright", "credits", "source" and games/<id>/LICENSE, when it names one. */
  license?: TitleLicenseWire;
}

/** An article: its front matter fields and its Markdown body. */
export interface Article extends ArticleFields {
  body: string;
}
