/**
 * The OpenAPI 3.1 document of external_v1, generated from the routes' zod schemas by the
 * kernel's machinery (kernel/openapi.ts), then given what the internal document has not: the
 * OAuth 2.0 client credentials scheme with its scopes (each operation names the scope its guard
 * checks) and RFC 9457 problem details as the error answer.
 */
import type { Hono } from "hono";
import { z } from "zod";
import { type ApiRoute, openApiDocument, routeDocs } from "../../../kernel/mod.ts";
import { PERMISSION_SCOPES, SCOPES } from "../contract.ts";
import { EXTERNAL_VERSION, problemDetails } from "./contract.ts";

type Json = Record<string, unknown>;

const SCOPE_TEXT: Record<string, string> = {
  "api:read:data": "Read measurement data (dm) and power quality (pq)",
  "api:read:grid-elements": "Read the grid structure and the cells (gsm, fm)",
  "api:write:data":
    "Write measurements of third-party meters (dm), create PQ reports and ask for recordings (pq)",
  "api:write:grid-elements": "Create, update and delete grid elements (gsm)",
};

/** What an error status means on external_v1 (the response's description). */
export const ERROR_TEXT: Readonly<Record<number, string>> = {
  400:
    "Invalid input: common.validation with the field errors in params.issues, or a period code (401-403)",
  401: "No valid client token (missing, expired, forged, or of a rotated or deleted client)",
  403:
    "The token lacks the route's scope (apiClients.insufficientScope), or the customer lacks the application",
  404: "Unknown id, or another customer's",
  409: "Conflicts with the current state (the screens' rule and code)",
  422: "Refused by a rule of the screens (its code and key)",
  429: "Rate limit of the client (common.rateLimited, Retry-After)",
  503: "The data is not available yet (its code and key)",
};

/** The tag (API) of a path: gsm, dm, pq or fm. */
function apiOf(path: string): string {
  return path.split("/")[3] ?? "";
}

/** Builds the document of `routes` mounted at `/external/v1`. */
export function externalOpenApi(
  routes: Pick<Hono, "routes">,
  opts: { tokenUrl: string; serverUrl: string; version: string },
): Json {
  const registry = routeDocs(routes, "/external/v1");
  const doc = openApiDocument({
    title: `GridWatch ${EXTERNAL_VERSION}`,
    version: opts.version,
    description: [
      "The external REST API of GridWatch (docs/external-api.md).",
      "Authenticate with the OAuth 2.0 client credentials grant at the token URL with an API",
      "client's ID and secret (API Clients page); send the access token as a bearer token.",
      `Read carries ${PERMISSION_SCOPES.read.join(", ")}; Write adds the write scopes.`,
      "Errors are RFC 9457 problem details with the catalogue's code and key.",
    ].join(" "),
  }, registry) as Json & {
    paths: Record<string, Record<string, Json>>;
    components: { schemas: Json; securitySchemes: Json };
  };
  // A schema with an id converts to `{ $ref: "#/$defs/ProblemDetails", $defs }`: inside the
  // document that reference would point at the document's root, so the definition goes in itself.
  const converted = z.toJSONSchema(problemDetails, { io: "output", unrepresentable: "any" }) as
    & Json
    & { $defs?: Record<string, Json> };
  const problem = converted.$defs?.ProblemDetails ?? converted;
  delete problem.$schema;
  delete problem.id;
  doc.components.schemas.ProblemDetails = problem;
  delete doc.components.schemas.ErrorBody;
  doc.components.securitySchemes = {
    clientCredentials: {
      type: "oauth2",
      description: "An API client's ID and secret; tokens live one hour.",
      flows: {
        clientCredentials: {
          tokenUrl: opts.tokenUrl,
          scopes: Object.fromEntries(SCOPES.map((s) => [s, SCOPE_TEXT[s] ?? s])),
        },
      },
    },
  };
  doc.security = [{ clientCredentials: [] }];
  doc.servers = [{ url: opts.serverUrl }];
  const tags = new Set<string>();
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const op of Object.values(operations)) {
      const scope = op["x-access"];
      delete op["x-access"];
      const api = apiOf(path);
      tags.add(api);
      op.tags = [api];
      if (typeof scope === "string") op.security = [{ clientCredentials: [scope] }];
      const responses = op.responses as Record<string, Json>;
      const route = registry.find((r) =>
        r.path === path && op.operationId === `${r.method} ${path}`
      );
      for (const status of errorStatusesOf(route, typeof scope === "string")) {
        responses[String(status)] = {
          description: ERROR_TEXT[status] ?? "An error of the catalogue",
          content: {
            "application/problem+json": { schema: { $ref: "#/components/schemas/ProblemDetails" } },
          },
        };
      }
      responses.default = {
        description: "RFC 9457 problem details: { type, title, status, code?, key, params }",
        content: {
          "application/problem+json": { schema: { $ref: "#/components/schemas/ProblemDetails" } },
        },
      };
    }
  }
  doc.tags = [...tags].sort().map((name) => ({ name }));
  return doc;
}

/**
 * The error statuses an operation documents: 401 and 429 for every call with a token, 403 where
 * a scope is checked, 400 where inputs are validated, 404 where a path names an id, and what the
 * route itself declares (`errorStatuses`).
 */
function errorStatusesOf(route: ApiRoute | undefined, scoped: boolean): number[] {
  if (!route) return [];
  const out = new Set<number>([401, 429]);
  if (scoped) out.add(403);
  if (route.query || route.json || route.param) out.add(400);
  if (route.path.includes("{")) out.add(404);
  for (const status of route.errors ?? []) out.add(status);
  return [...out].sort((a, b) => a - b);
}
