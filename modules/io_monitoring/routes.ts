/**
 * The iom calls (spec 7; docs/contracts.md "IO monitoring: /iom"): holders of app:io-monitoring
 * in a customer whose applications list it; others get 403.
 */
import { type Context, Hono } from "hono";
import { z } from "zod";
import { type AppEnv, AppError, requireApp, validate } from "../../kernel/mod.ts";
import type { IoMonitoringService } from "./service.ts";

const APP = "app:io-monitoring";
const historyQuery = z.strictObject({ from: z.string().max(40), to: z.string().max(40) });

/** Routes mounted at /iom (behind authentication). */
export function ioMonitoringRoutes(service: IoMonitoringService): Hono<AppEnv> {
  /** The customer's key; 403 when the customer's applications do not list IO monitoring. */
  const customerKey = (c: Context<AppEnv>) => {
    const tenant = c.get("tenant");
    if (!tenant.applications.includes(APP)) throw new AppError("common.forbidden", { key: APP });
    return tenant.key;
  };
  return new Hono<AppEnv>()
    .use("*", requireApp(APP))
    .get("/electrical-works", async (c) => c.json(await service.list(customerKey(c))))
    .get("/electrical-works/:key/history", validate("query", historyQuery), async (c) => {
      const { from, to } = c.req.valid("query");
      return c.json(await service.history(customerKey(c), c.req.param("key"), from, to));
    });
}
