/**
 * The OpenAPI 3.1 document of external_v1, generated from the routes' zod schemas by the
 * kernel's machinery (kernel/openapi.ts), then given what the internal document has not: the
 * OAuth 2.0 client credentials scheme with its scopes (each operation names the scope its guard
 * checks) and RFC 9457 problem details as the error answer.
 */
import type { Hono } from "hono";
import { z } from "zod";
import { openApiDocument, routeDocs } from "../../../kernel/mod.ts";
import { PERMISSION_SCOPES, SCOPES } from "../contract.ts";
import { EXTERNAL_VERSION, problemDetails } from "./contract.ts";

type Json = Record<string, unknown>;

const SCOPE_TEXT: Record<string, string> = {
  "api:read:data": "Read measurement data (dm)",
  "api:read:grid-elements": "Read the grid structure and the cells (gsm, fm)",
  "api:write:data": "Write measurements of third-party meters (dm)",
  "api:write:grid-elements": "Create, update and delete grid elements (gsm)",
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
  }, routeDocs(routes, "/external/v1")) as Json & {
    paths: Record<string, Record<string, Json>>;
    components: { schemas: Json; securitySchemes: Json };
  };
  const problem = z.toJSONSchema(problemDetails, { io: "output", unrepresentable: "any" }) as Json;
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
