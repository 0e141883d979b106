/**
 * JSON schemas of the catalogue, magazine and my-list answers: exactly the wire types of
 * lib/api-types/catalog.ts (the serializer drops anything else), plus shared query parts.
 */
const str = { type: 'string' } as const;
const strList = { type: 'array', items: str } as const;
const ageRating = { type: 'string', enum: ['all', 'r15', 'r18'] } as const;

export const ok = { type: 'string', enum: ['ok'] } as const;
export const nextCursor = { type: ['string', 'null'] } as const;

/** `limit` (1..100, default 20) and the opaque `cursor` of every paginated list. */
export const pageQueryProperties = {
  limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
  cursor: { type: 'string', maxLength: 512 },
} as const;

const titleProperties = {
  id: str,
  title: str,
  reading: str,
  brand_id: str,
  brand: str,
  description: str,
  tags: strList,
  genres: strList,
  release_date: str,
  age_rating: ageRating,
  key_art: str,
  plays: { type: 'integer' },
} as const;

export const titleSchema = {
  type: 'object',
  required: Object.keys(titleProperties),
  additionalProperties: false,
  properties: titleProperties,
} as const;

export const titleListSchema = { type: 'array', items: titleSchema } as const;

const screenshotImageSchema = {
  type: 'object',
  required: ['src', 'width', 'height', 'alt'],
  additionalProperties: false,
  properties: { src: str, width: { type: 'integer' }, height: { type: 'integer' }, alt: str },
} as const;

const titleDetailProperties = {
  ...titleProperties,
  brand_reading: str,
  screenshots: { type: 'array', items: screenshotImageSchema },
  game_folder: str,
} as const;

export const titleDetailSchema = {
  type: 'object',
  required: Object.keys(titleDetailProperties),
  additionalProperties: false,
  properties: titleDetailProperties,
} as const;

export const brandSchema = {
  type: 'object',
  required: ['id', 'name', 'reading', 'description', 'titles'],
  additionalProperties: false,
  properties: { id: str, name: str, reading: str, description: str, titles: titleListSchema },
} as const;

const articleSummaryProperties = {
  slug: str,
  title: str,
  lead: str,
  published_at: str,
  author: str,
  game_ids: strList,
  tags: strList,
  cover: str,
  age_rating: ageRating,
} as const;

export const articleSummarySchema = {
  type: 'object',
  required: Object.keys(articleSummaryProperties),
  additionalProperties: false,
  properties: articleSummaryProperties,
} as const;

export const articleSchema = {
  type: 'object',
  required: [...Object.keys(articleSummaryProperties), 'body'],
  additionalProperties: false,
  properties: { ...articleSummaryProperties, body: str },
} as const;

/** `{ status: 'ok', ...properties }` with every property required. */
export function okAnswer(properties: Record<string, object>): object {
  return {
    type: 'object',
    required: ['status', ...Object.keys(properties)],
    additionalProperties: false,
    properties: { status: ok, ...properties },
  };
}
