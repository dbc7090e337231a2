/**
 * The iom calls (spec 7; docs/contracts.md "IO monitoring: /iom"): holders of app:io-monitoring
 * in a customer whose applications list it; others get 403.
 */
import { type Context, Hono } from "hono";
import { type AppEnv, AppError, doc, requireApp, validate } from "../../kernel/mod.ts";
import { historyQuery, ioElectricalWorksDto, ioHistoryDto } from "./contract.ts";
import type { IoMonitoringService } from "./service.ts";

const APP = "app:io-monitoring";

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
    .get(
      "/electrical-works",
      doc({ summary: "Electrical works with active I/O modules", answer: ioElectricalWorksDto }),
      async (c) => c.json(await service.list(customerKey(c))),
    )
    .get(
      "/electrical-works/:key/history",
      validate("query", historyQuery),
      doc({ summary: "History of an electrical work's channels", answer: ioHistoryDto }),
      async (c) => {
        const { from, to } = c.req.valid("query");
        return c.json(await service.history(customerKey(c), c.req.param("key"), from, to));
      },
    );
}
