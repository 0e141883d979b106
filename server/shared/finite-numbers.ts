/**
 * An Ajv plugin that makes every number a request carries finite, for every route at once
 * (params, query, headers and body). Ajv's type coercion (Fastify's default `coerceTypes`) turns
 * the strings "Infinity", "-Infinity", "1e309" into ±Infinity, and its minimum/maximum checks skip
 * values that are not finite numbers, so `?limit=Infinity` passed `Type.Integer({ maximum: 100 })`
 * and reached the handlers (500s, or an unbounded page). JSON bodies can carry the same value
 * (`1e309` parses to Infinity) in fields typed loosely (Type.Unknown).
 *
 * The plugin wraps the validators the api's and the host's Fastify build (`ajv.compile`, and
 * `ajv.getSchema`, which @fastify/ajv-compiler uses for schemas with an $id): after a successful
 * validation (coercion included) the validated value is walked, and any non-finite number fails
 * it with an ordinary Ajv error at that field. Fastify then raises its usual validation error,
 * so the errors plugins answer 400 invalid_request naming the field (or a route's typed 404 for a
 * path parameter), exactly like any other schema violation. Installed through the Fastify
 * constructor's `ajv: { plugins: [finiteNumbers] }` (server/api/app.ts, server/host/agent.ts).
 */

/** The error a non-finite number gets: Ajv's own shape (Fastify reads instancePath, keyword, params). */
export interface NonFiniteError {
  instancePath: string;
  schemaPath: string;
  keyword: 'type';
  params: { type: 'number' };
  message: string;
}

type Validate = ((this: unknown, data: unknown, context?: ValidateContext) => unknown) & { errors?: unknown; schema?: unknown };

interface ValidateContext {
  parentData?: Record<string | number, unknown>;
  parentDataProperty?: string | number;
}

interface AjvLike {
  compile(schema: unknown, meta?: boolean): Validate;
  getSchema(key: string): Validate | undefined;
}

/** JSON Pointer escaping of one path segment (RFC 6901), as Ajv writes instancePath. */
function pointerSegment(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

interface Visit {
  value: unknown;
  key: string;
  parent: Visit | null;
}

/**
 * The keys leading to the first non-finite number inside `value` ([] for the value itself), or
 * null when there is none. Iterative, with parent links instead of copied paths, so a deeply
 * nested body costs neither stack nor quadratic memory.
 */
export function nonFinitePath(value: unknown): string[] | null {
  const stack: Visit[] = [{ value, key: '', parent: null }];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const visit = stack.pop()!;
    const current = visit.value;
    if (typeof current === 'number') {
      if (Number.isFinite(current)) continue;
      const keys: string[] = [];
      for (let at: Visit | null = visit; at?.parent; at = at.parent) keys.push(at.key);
      return keys.reverse();
    }
    if (typeof current !== 'object' || current === null || seen.has(current) || ArrayBuffer.isView(current)) continue;
    seen.add(current);
    for (const [key, item] of Object.entries(current)) {
      if (typeof item === 'number' || (typeof item === 'object' && item !== null)) stack.push({ value: item, key, parent: visit });
    }
  }
  return null;
}

/**
 * The schema path of the field at `keys`, as far as the schema names it (`properties`): the
 * error message names fields from the schema only, never a key the request made up.
 */
function schemaPathOf(schema: unknown, keys: string[]): string {
  let node = schema;
  let path = '#';
  for (const key of keys) {
    const properties = (node as { properties?: unknown } | null)?.properties;
    if (typeof properties !== 'object' || properties === null || !Object.hasOwn(properties, key)) break;
    node = (properties as Record<string, unknown>)[key];
    path += `/properties/${pointerSegment(key)}`;
  }
  return `${path}/type`;
}

function nonFiniteError(schema: unknown, keys: string[]): NonFiniteError {
  return {
    instancePath: keys.map((key) => `/${pointerSegment(key)}`).join(''),
    schemaPath: schemaPathOf(schema, keys),
    keyword: 'type',
    params: { type: 'number' },
    message: 'must be a finite number',
  };
}

/** `validate`, failing also when the value it accepted holds a non-finite number. */
function finiteOnly(validate: Validate): Validate {
  const wrapped = function (this: unknown, data: unknown, context?: ValidateContext): unknown {
    const valid = validate.call(this, data, context);
    if (valid !== true) {
      // false, or the promise of an $async schema (left as it is)
      wrapped.errors = validate.errors;
      return valid;
    }
    // Coercion may have replaced the root value in its parent (Fastify passes the request).
    const root =
      context?.parentData !== undefined && context.parentDataProperty !== undefined
        ? context.parentData[context.parentDataProperty]
        : data;
    const keys = nonFinitePath(root);
    if (keys === null) {
      wrapped.errors = null;
      return true;
    }
    wrapped.errors = [nonFiniteError(validate.schema, keys)];
    return false;
  } as Validate;
  // Ajv's own properties (schema, schemaEnv: Fastify passes the parent only when it is there, ...)
  return Object.assign(wrapped, validate, { errors: null });
}

/**
 * The Ajv plugin (Fastify: `ajv: { plugins: [finiteNumbers] }`): every validator this Ajv
 * instance hands out rejects non-finite numbers. Returns the same instance, as Ajv plugins do.
 */
export function finiteNumbers<A extends object>(ajv: A): A {
  const target = ajv as unknown as AjvLike;
  const wrappers = new WeakMap<Validate, Validate>();
  const wrap = (validate: Validate): Validate => {
    let wrapped = wrappers.get(validate);
    if (!wrapped) {
      wrapped = finiteOnly(validate);
      wrappers.set(validate, wrapped);
    }
    return wrapped;
  };
  const compile = target.compile.bind(target);
  const getSchema = target.getSchema.bind(target);
  target.compile = (schema, meta) => wrap(compile(schema, meta));
  target.getSchema = (key) => {
    const validate = getSchema(key);
    return validate ? wrap(validate) : validate;
  };
  return ajv;
}
