/**
 * The acm calls (docs/contracts.md "API clients: /acm"): admins of the API clients toolset
 * (hes:api-clients:admin) manage their customer's clients and read the audit log of their calls.
 */
import { Hono } from "hono";
import { type AppEnv, doc, requireApp, validate } from "../../kernel/mod.ts";
import {
  apiClientListDto,
  apiClientSecretDto,
  auditPageDto,
  auditQuery,
  clientParam,
  createClientInput,
  deleteClientInput,
} from "./contract.ts";
import type { ApiClientsService } from "./service.ts";

/** The toolset key of /api-settings. */
export const API_CLIENTS_KEY = "hes:api-clients";

/** Routes mounted at /acm (behind authentication and the tenant middleware). */
export function acmRoutes(service: ApiClientsService): Hono<AppEnv> {
  return new Hono<AppEnv>()
    .use("*", requireApp(API_CLIENTS_KEY, { admin: true }))
    .get(
      "/clients",
      doc({ summary: "The customer's API clients and limits", answer: apiClientListDto }),
      async (c) => c.json(await service.list(c.get("tenant").key)),
    )
    .post(
      "/clients",
      validate("json", createClientInput),
      doc({
        summary: "Create an API client (secret shown once)",
        answer: apiClientSecretDto,
        status: 201,
      }),
      async (c) => c.json(await service.create(c.get("tenant").key, c.req.valid("json")), 201),
    )
    .post(
      "/clients/:id/secret",
      validate("param", clientParam),
      doc({ summary: "Rotate a client's secret (shown once)", answer: apiClientSecretDto }),
      async (c) => c.json(await service.rotate(c.get("tenant").key, c.req.valid("param").id)),
    )
    .delete(
      "/clients/:id",
      validate("param", clientParam),
      validate("json", deleteClientInput),
      doc({ summary: "Delete a client; the body names it again", status: 204 }),
      async (c) => {
        await service.remove(
          c.get("tenant").key,
          c.req.valid("param").id,
          c.req.valid("json").name,
        );
        return c.body(null, 204);
      },
    )
    .get(
      "/audit",
      validate("query", auditQuery),
      doc({ summary: "Calls of the customer's API clients, newest first", answer: auditPageDto }),
      async (c) => {
        const { before, limit } = c.req.valid("query");
        return c.json(await service.auditPage(c.get("tenant").key, before, limit));
      },
    );
}
