/**
 * The OpenAPI documents, generated from the routes themselves: `validate()` and `requireApp()`
 * mark their middleware with what they check, and `doc()` adds a summary and the answer's
 * schema (a contract's zod schema). `routeDocs(app, prefix)` reads a Hono app's route list
 * into a route registry, `openApiDocument(info, routes)` turns a registry into OpenAPI 3.1.
 * Answer schemas that carry an `id` (`.meta({ id: "CustomerDto" })`) become named components.
 */
import type { Hono, MiddlewareHandler } from "hono";
import { z } from "zod";

/** What a piece of middleware tells about its route. */
export interface RouteDocPart {
  summary?: string;
  /** A bearer token is required (requireAuth); routes without it answer anyone. */
  auth?: boolean;
  /** The module key the caller must hold (requireApp), and whether as admin. */
  access?: { key: string; admin: boolean };
  query?: z.ZodType;
  json?: z.ZodType;
  param?: z.ZodType;
  /** The success answer: its status and JSON schema (null: no body). */
  answer?: { status: number; schema: z.ZodType | null; contentType?: string };
  /** Error statuses the route answers besides the generic ones (documents that list them). */
  errors?: readonly number[];
}

/** One call of a registry: a method, an OpenAPI path and what its middleware told. */
export interface ApiRoute extends RouteDocPart {
  method: string;
  /** OpenAPI style: `/csm/customers/{cid}`. */
  path: string;
}

const ROUTE_DOC = Symbol.for("gridwatch.routeDoc");

type Documented = { [ROUTE_DOC]?: RouteDocPart };

/** Marks a middleware with what it tells about its route; returns the same function. */
export function withDoc<M extends MiddlewareHandler>(middleware: M, part: RouteDocPart): M {
  const marked = middleware as M & Documented;
  marked[ROUTE_DOC] = { ...marked[ROUTE_DOC], ...part };
  return marked;
}

/**
 * Documents a route: its summary and answer. A middleware that only passes on, placed before
 * the handler: `.get("/x", doc({ summary, answer: dto }), (c) => ...)`.
 */
export function doc(
  part: { summary: string; answer?: z.ZodType | null; status?: number; contentType?: string },
): MiddlewareHandler {
  const answer: NonNullable<RouteDocPart["answer"]> = {
    status: part.status ?? 200,
    schema: part.answer ?? null,
  };
  if (part.contentType) answer.contentType = part.contentType;
  return withDoc(async (_c, next) => await next(), { summary: part.summary, answer });
}

/** Hono keeps the original handler of a mounted sub-app's route under this symbol. */
const COMPOSED_HANDLER = "__COMPOSED_HANDLER";

function partOf(handler: unknown): RouteDocPart | undefined {
  let h = handler as (Documented & Record<string, unknown>) | undefined;
  for (let depth = 0; h && depth < 4; depth++) {
    if (h[ROUTE_DOC]) return h[ROUTE_DOC];
    h = h[COMPOSED_HANDLER] as typeof h;
  }
  return undefined;
}

/** `/a/:id/b` as `/a/{id}/b`. */
function openApiPath(path: string): string {
  return path.replace(/:(\w+)(\{[^}]*\})?/g, "{$1}");
}

/** Whether a middleware path (`*`, `/x/*`, `/x`) applies to a route path. */
function covers(pattern: string, path: string): boolean {
  if (pattern === "*" || pattern === "/*") return true;
  if (pattern.endsWith("/*")) {
    return path === pattern.slice(0, -2) || path.startsWith(pattern.slice(0, -1));
  }
  return pattern === path;
}

/**
 * The route registry of an app mounted at `prefix`: one entry per method and path, with the
 * parts its middleware told (app-wide middleware such as `use("*", requireApp(...))` included).
 */
export function routeDocs(app: Pick<Hono, "routes">, prefix = ""): ApiRoute[] {
  const routes = new Map<string, ApiRoute>();
  const wide: { path: string; part: RouteDocPart }[] = [];
  for (const r of app.routes) {
    const part = partOf(r.handler);
    if (r.method === "ALL") {
      if (part) wide.push({ path: r.path, part });
      continue;
    }
    const path = `${prefix}${r.path === "/" ? "" : r.path}` || "/";
    const key = `${r.method} ${path}`;
    let route = routes.get(key);
    if (!route) {
      route = { method: r.method.toLowerCase(), path: openApiPath(path) };
      for (const w of wide) if (covers(w.path, r.path)) Object.assign(route, w.part);
      routes.set(key, route);
    }
    if (part) Object.assign(route, part);
  }
  return [...routes.values()];
}

type Json = Record<string, unknown>;

/**
 * Converts one schema. Parts with an `id` (the schema itself too) land in `components` and are
 * referenced from there.
 */
function convert(schema: z.ZodType, io: "input" | "output", components: Json): Json {
  const json = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as Json;
  const defs = (json.$defs ?? {}) as Record<string, Json>;
  delete json.$defs;
  delete json.$schema;
  for (const [name, def] of Object.entries(defs)) components[name] ??= relink(def);
  return relink(json);
}

/** Rewrites `#/$defs/X` references to `#/components/schemas/X`. */
function relink(json: Json): Json {
  return JSON.parse(
    JSON.stringify(json).replaceAll('"#/$defs/', '"#/components/schemas/'),
  ) as Json;
}

/** The query or path parameters of an object schema as OpenAPI parameters. */
function parameters(schema: z.ZodType, where: "query" | "path", components: Json): Json[] {
  const json = convert(schema, "input", components);
  const properties = (json.properties ?? {}) as Record<string, Json>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, s]) => ({
    name,
    in: where,
    required: where === "path" || required.has(name),
    schema: s,
  }));
}

/** Path parameters named in the path that no schema describes. */
function pathParameters(path: string, described: Set<string>): Json[] {
  return [...path.matchAll(/\{(\w+)\}/g)]
    .map((m) => m[1]!)
    .filter((name) => !described.has(name))
    .map((name) => ({ name, in: "path", required: true, schema: { type: "string" } }));
}

function operation(route: ApiRoute, components: Json): Json {
  const params = [
    ...(route.param ? parameters(route.param, "path", components) : []),
    ...(route.query ? parameters(route.query, "query", components) : []),
  ];
  const described = new Set(params.filter((p) => p.in === "path").map((p) => p.name as string));
  params.unshift(...pathParameters(route.path, described));
  const op: Json = {
    operationId: `${route.method} ${route.path}`,
    tags: [route.path.split("/")[1] ?? ""],
  };
  if (route.summary) op.summary = route.summary;
  if (!route.auth) op.security = [];
  if (route.access) {
    op["x-access"] = route.access.admin ? `${route.access.key}:admin` : route.access.key;
  }
  if (params.length) op.parameters = params;
  if (route.json) {
    op.requestBody = {
      required: true,
      content: { "application/json": { schema: convert(route.json, "input", components) } },
    };
  }
  const answer = route.answer ?? { status: 200, schema: null };
  const success: Json = { description: route.summary ?? "Success" };
  if (answer.schema) {
    success.content = {
      [answer.contentType ?? "application/json"]: {
        schema: convert(answer.schema, "output", components),
      },
    };
  }
  op.responses = {
    [String(answer.status)]: success,
    default: {
      description: "An error of the catalogue: { code?, key, params }",
      content: { "application/json": { schema: { $ref: "#/components/schemas/ErrorBody" } } },
    },
  };
  return op;
}

const ERROR_BODY: Json = {
  type: "object",
  properties: {
    code: { type: "integer", description: "The specification's numeric code, when it has one" },
    key: { type: "string", description: "Message key of kernel/i18n/<lang>/errors.json" },
    params: {
      type: "object",
      description: "Placeholders; `issues` ({path, key, params}[]) for common.validation",
    },
  },
  required: ["key", "params"],
};

/** An OpenAPI 3.1 document of a route registry. */
export function openApiDocument(
  info: { title: string; version: string; description?: string },
  routes: readonly ApiRoute[],
): Json {
  const components: Json = { ErrorBody: ERROR_BODY };
  const paths: Record<string, Json> = {};
  const sorted = [...routes].sort((a, b) =>
    a.path.localeCompare(b.path) || a.method.localeCompare(b.method)
  );
  for (const route of sorted) {
    paths[route.path] ??= {};
    paths[route.path]![route.method] = operation(route, components);
  }
  return {
    openapi: "3.1.0",
    info,
    paths,
    components: {
      schemas: Object.fromEntries(
        Object.entries(components).sort(([a], [b]) => a.localeCompare(b)),
      ),
      securitySchemes: { bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" } },
    },
    security: [{ bearer: [] }],
  };
}
