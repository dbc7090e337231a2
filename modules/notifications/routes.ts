/**
 * The nsm calls of spec 7 (docs/contracts.md, "Notification calls"), mounted at /nsm behind
 * authentication. Every call is about the caller's own notifications of the caller's own
 * customer: another user's id or key answers 404, like a missing one.
 */
import { Hono } from "hono";
import { z } from "zod";
import { type AppEnv, AppError, isSuperRole, requireApp, validate } from "../../kernel/mod.ts";
import { MAX_PAGE_SIZE, type NotificationsService, type Owner } from "./service.ts";

/** Resolves an auth connection name to its customer key (given by main.ts from customers). */
export type CustomerKeyOf = (authConnectionName: string) => Promise<string | null>;

const pageQuery = z.object({
  page: z.coerce.number().int().min(0).max(1_000_000).default(0),
  size: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(20),
});
const readBody = z.strictObject({ is_read: z.boolean() });

/** Routes mounted at /nsm (behind authentication). */
export function notificationRoutes(
  service: NotificationsService,
  customerKeyOf: CustomerKeyOf,
): Hono<AppEnv> {
  const owner = async (c: { get(key: "principal"): AppEnv["Variables"]["principal"] }) => {
    const principal = c.get("principal");
    const customerKey = await customerKeyOf(principal.customer);
    if (!customerKey) throw new AppError("common.notFound");
    return { userId: principal.userId, customerKey } satisfies Owner;
  };
  return new Hono<AppEnv>()
    .get("/notifications/users/:id", validate("query", pageQuery), async (c) => {
      const { page, size } = c.req.valid("query");
      return c.json(await service.list(await owner(c), c.req.param("id"), page, size));
    })
    .put("/notifications/users/:id", validate("json", readBody), async (c) => {
      const { is_read } = c.req.valid("json");
      const updated = await service.markAllRead(await owner(c), c.req.param("id"), is_read);
      return c.json({ updated });
    })
    .delete("/notifications/users/:id", async (c) => {
      const deleted = await service.deleteAll(await owner(c), c.req.param("id"));
      return c.json({ deleted });
    })
    .put("/notifications/:key", validate("json", readBody), async (c) => {
      const { is_read } = c.req.valid("json");
      return c.json(await service.markRead(await owner(c), c.req.param("key"), is_read));
    })
    .delete("/notifications/:key", async (c) => {
      const key = c.req.param("key");
      await service.delete(await owner(c), key);
      return c.json({ key });
    })
    .get("/outbox", requireApp("hes:um", { admin: true }), async (c) => {
      const principal = c.get("principal");
      const customerKey = isSuperRole(principal.role) ? null : (await owner(c)).customerKey;
      return c.json(await service.outbox(customerKey));
    });
}
