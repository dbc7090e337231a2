/**
 * The nsm calls of spec 7 (docs/contracts.md, "Notification calls"), mounted at /nsm behind
 * authentication. Every call is about the caller's own notifications of the caller's own
 * customer: another user's id or key answers 404, like a missing one.
 */
import { type Context, Hono } from "hono";
import { z } from "zod";
import { type AppEnv, doc, isSuperRole, requireApp, validate } from "../../kernel/mod.ts";
import {
  notificationDto,
  notificationPageDto,
  outboxDto,
  pageQuery,
  readInput,
} from "./contract.ts";
import type { NotificationsService, Owner } from "./service.ts";

const updated = z.object({ updated: z.number() });
const deleted = z.object({ deleted: z.number() });

/** Routes mounted at /nsm (behind authentication). */
export function notificationRoutes(service: NotificationsService): Hono<AppEnv> {
  // Notifications belong to the person: their own customer, whichever one a super role acts on.
  const owner = (c: Context<AppEnv>): Owner => ({
    userId: c.get("principal").userId,
    customerKey: c.get("homeTenant").key,
  });
  return new Hono<AppEnv>()
    .get(
      "/notifications/users/:id",
      validate("query", pageQuery),
      doc({ summary: "A page of the caller's notifications", answer: notificationPageDto }),
      async (c) => {
        const { page, size } = c.req.valid("query");
        return c.json(await service.list(owner(c), c.req.param("id"), page, size));
      },
    )
    .put(
      "/notifications/users/:id",
      validate("json", readInput),
      doc({ summary: "Marks all of the caller's notifications read", answer: updated }),
      async (c) => {
        const { is_read } = c.req.valid("json");
        const updated = await service.markAllRead(owner(c), c.req.param("id"), is_read);
        return c.json({ updated });
      },
    )
    .delete(
      "/notifications/users/:id",
      doc({ summary: "Deletes all of the caller's notifications", answer: deleted }),
      async (c) => {
        const deleted = await service.deleteAll(owner(c), c.req.param("id"));
        return c.json({ deleted });
      },
    )
    .put(
      "/notifications/:key",
      validate("json", readInput),
      doc({ summary: "Marks one notification read", answer: notificationDto }),
      async (c) => {
        const { is_read } = c.req.valid("json");
        return c.json(await service.markRead(owner(c), c.req.param("key"), is_read));
      },
    )
    .delete(
      "/notifications/:key",
      doc({ summary: "Deletes one notification", answer: z.object({ key: z.string() }) }),
      async (c) => {
        const key = c.req.param("key");
        await service.delete(owner(c), key);
        return c.json({ key });
      },
    )
    .get(
      "/outbox",
      requireApp("hes:um", { admin: true }),
      doc({ summary: "E-mails kept while no SMTP server is set", answer: z.array(outboxDto) }),
      async (c) => {
        const principal = c.get("principal");
        const customerKey = isSuperRole(principal.role) ? null : (owner(c)).customerKey;
        return c.json(await service.outbox(customerKey));
      },
    );
}
