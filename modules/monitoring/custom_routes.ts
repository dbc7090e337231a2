/**
 * Custom monitoring calls under /evm/custom-monitoring (the spec leaves them open; the contract
 * is in docs/contracts.md). Reading and manual requests need app:grid-monitoring; triggers and
 * requests without end need app:grid-monitoring:admin.
 */
import { type Context, Hono } from "hono";
import { z } from "zod";
import { isAllowedDuration } from "../../core/mod.ts";
import { type AppEnv, isAppAdmin, isSuperRole, requireApp, validate } from "../../kernel/mod.ts";
import type { Caller } from "./custom_access.ts";
import type { CustomMonitoring } from "./custom_monitoring.ts";

const APP = "app:grid-monitoring";

const id = z.string().min(1).max(200);
const manualDuration = z.number().int().refine((m) => isAllowedDuration("MANUAL", m), {
  message: "Allowed: 1-5, 10-60 step 10, 120-1440 step 60 minutes",
});
const automaticDuration = z.number().int().refine((m) => isAllowedDuration("AUTOMATIC", m), {
  message: "Allowed: 1-5, 10-60 step 10 minutes",
});
// Spec 5: the absolute current deltas are required, with 2 decimals.
const amperes = z.number().min(1).max(3000).refine(
  (v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6,
  { message: "At most 2 decimals" },
);

const listQuery = z.strictObject({
  node_id: id.optional(),
  status: z.enum(["RUNNING", "STOPPED", "FINISHED"]).optional(),
  limit: z.coerce.number().int().min(1).max(500).optional(),
});
const startBody = z.strictObject({
  node_id: id,
  feeder_id: id.nullable().optional(),
  /** null: until stopped (admins only). */
  duration_min: manualDuration.nullable(),
});
const valuesQuery = z.strictObject({
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
});
const triggerQuery = z.strictObject({ node_id: id.optional() });
const triggerFields = {
  delta_lv_a: amperes,
  delta_mv_a: amperes,
  duration_min: automaticDuration,
};
const triggerCreate = z.strictObject({
  node_id: id.nullable(),
  ...triggerFields,
  enabled: z.boolean().optional(),
});
const triggerUpdate = z.strictObject({ ...triggerFields, enabled: z.boolean() });

const time = (iso: string | undefined) => (iso === undefined ? undefined : Date.parse(iso));

/** Routes mounted at /evm/custom-monitoring (behind authentication). */
export function customMonitoringRoutes(cm: CustomMonitoring): Hono<AppEnv> {
  const callerOf = (c: Context<AppEnv>): Caller => {
    const p = c.get("principal");
    return {
      userId: p.userId,
      customerKey: c.get("tenant").key,
      superRole: isSuperRole(p.role),
      admin: isAppAdmin(p.appsRoles, APP) || p.role === "super-admin",
    };
  };
  const reader = requireApp(APP);
  const admin = requireApp(APP, { admin: true });

  return new Hono<AppEnv>()
    .get("/requests", reader, validate("query", listQuery), async (c) => {
      const q = c.req.valid("query");
      return c.json(
        await cm.requests.list(callerOf(c), {
          nodeId: q.node_id,
          status: q.status,
          ...(q.limit ? { limit: q.limit } : {}),
        }),
      );
    })
    .post("/requests", reader, validate("json", startBody), async (c) => {
      const b = c.req.valid("json");
      const request = await cm.requests.start(callerOf(c), {
        nodeId: b.node_id,
        feederId: b.feeder_id ?? null,
        durationMin: b.duration_min,
      });
      return c.json(request, 201);
    })
    .get("/requests/:id", reader, async (c) => {
      return c.json(await cm.requests.get(callerOf(c), c.req.param("id")));
    })
    .post("/requests/:id/stop", reader, async (c) => {
      return c.json(await cm.requests.stop(callerOf(c), c.req.param("id")));
    })
    .get("/requests/:id/values", reader, validate("query", valuesQuery), async (c) => {
      const q = c.req.valid("query");
      const range = { from: time(q.from), to: time(q.to) };
      return c.json(await cm.values(callerOf(c), c.req.param("id"), range));
    })
    .get("/triggers", reader, validate("query", triggerQuery), async (c) => {
      return c.json(await cm.triggers.list(callerOf(c), c.req.valid("query").node_id));
    })
    .post("/triggers", admin, validate("json", triggerCreate), async (c) => {
      const b = c.req.valid("json");
      const trigger = await cm.triggers.create(callerOf(c), b.node_id, {
        deltaLvA: b.delta_lv_a,
        deltaMvA: b.delta_mv_a,
        durationMin: b.duration_min,
        enabled: b.enabled ?? true,
      });
      return c.json(trigger, 201);
    })
    .get("/triggers/:id", reader, async (c) => {
      return c.json(await cm.triggers.get(callerOf(c), c.req.param("id")));
    })
    .put("/triggers/:id", admin, validate("json", triggerUpdate), async (c) => {
      const b = c.req.valid("json");
      return c.json(
        await cm.triggers.update(callerOf(c), c.req.param("id"), {
          deltaLvA: b.delta_lv_a,
          deltaMvA: b.delta_mv_a,
          durationMin: b.duration_min,
          enabled: b.enabled,
        }),
      );
    })
    .delete("/triggers/:id", admin, async (c) => {
      return c.json(await cm.triggers.disable(callerOf(c), c.req.param("id")));
    });
}
