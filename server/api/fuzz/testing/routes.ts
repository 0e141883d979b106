/**
 * What the fuzz suite (../fuzz.int.test.ts) fuzzes: every route of the running app, read from
 * Fastify's own route tree (`printRoutes`), so a route added tomorrow is fuzzed without anyone
 * listing it; and each route's schemas, captured from `request.routeOptions` by an onResponse
 * hook, so the query and body fields a route declares are the ones the fuzzer aims at.
 */
import type { FastifyInstance, FastifySchema } from 'fastify';

export interface FuzzRoute {
  method: string;
  /** Fastify's pattern: `/v1/screenshots/:id`, or `*` (the CORS plugin's OPTIONS route). */
  url: string;
  /** Names of the path parameters, in order. */
  params: string[];
}

/** One line of printRoutes({ commonPrefix: false }): `│   └── /:id (GET, HEAD, DELETE)`. */
const TREE_LINE = /^((?:│ {3}| {4})*)(?:├── |└── )(\S+)(?: \(([^)]+)\))?$/u;

/**
 * Every (method, url) the app routes, parsed from its route tree. Throws when a line does not
 * parse, so a change of Fastify's format fails loudly instead of fuzzing nothing.
 */
export function listRoutes(app: FastifyInstance): FuzzRoute[] {
  const tree = app.printRoutes({ commonPrefix: false });
  const prefixes: string[] = [];
  const routes: FuzzRoute[] = [];
  for (const line of tree.split('\n')) {
    if (!line.trim()) continue;
    const match = TREE_LINE.exec(line);
    if (!match) throw new Error(`cannot parse route tree line: ${JSON.stringify(line)}`);
    const depth = match[1].length / 4;
    const url = (depth > 0 ? prefixes[depth - 1] : '') + match[2];
    prefixes[depth] = url;
    prefixes.length = depth + 1;
    for (const method of match[3]?.split(', ') ?? []) {
      const params = [...url.matchAll(/:([A-Za-z0-9_]+)/g)].map((found) => found[1]);
      routes.push({ method, url, params });
    }
  }
  return routes;
}

/** Route schemas by `${method} ${url}`, filled in as requests are answered. */
export class RouteSchemas {
  private readonly schemas = new Map<string, FastifySchema>();

  /** Call before the app is ready: records the schema of every route that answers a request. */
  install(app: FastifyInstance): void {
    app.addHook('onResponse', async (request) => {
      const { url, schema } = request.routeOptions;
      if (url && schema) this.schemas.set(`${request.method} ${url}`, schema);
    });
  }

  get(route: FuzzRoute): FastifySchema | undefined {
    return this.schemas.get(`${route.method} ${route.url}`) ?? this.schemas.get(`GET ${route.url}`);
  }

  /** The property names a part of the route's schema declares (query or body). */
  fields(route: FuzzRoute, part: 'querystring' | 'body'): string[] {
    const schema = this.get(route)?.[part] as { properties?: Record<string, unknown> } | undefined;
    return Object.keys(schema?.properties ?? {});
  }
}
