/**
 * Custom monitoring calls under /evm/custom-monitoring (the spec leaves them open; the contract
 * is in docs/contracts.md). Reading and manual requests need app:grid-monitoring; triggers and
 * requests without end need app:grid-monitoring:admin.
 */
import { type Context, Hono } from "hono";
import { z } from "zod";
import {
  type AppEnv,
  doc,
  isAppAdmin,
  isSuperRole,
  requireApp,
  validate,
} from "../../../kernel/mod.ts";
import {
  requestDto,
  requestListQuery,
  requestValuesDto,
  requestValuesQuery,
  startRequestInput,
  triggerCreateInput,
  triggerDto,
  triggerQuery,
  triggerUpdateInput,
} from "../contract.ts";
import type { Caller } from "./access.ts";
import type { CustomMonitoring } from "./monitoring.ts";

const APP = "app:grid-monitoring";

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
    .get(
      "/requests",
      reader,
      validate("query", requestListQuery),
      doc({ summary: "Requests, newest first", answer: z.array(requestDto) }),
      async (c) => {
        const q = c.req.valid("query");
        return c.json(
          await cm.requests.list(callerOf(c), {
            nodeId: q.node_id,
            status: q.status,
            ...(q.limit ? { limit: q.limit } : {}),
          }),
        );
      },
    )
    .post(
      "/requests",
      reader,
      validate("json", startRequestInput),
      doc({
        summary: "Starts a manual request now (null duration: admins)",
        answer: requestDto,
        status: 201,
      }),
      async (c) => {
        const b = c.req.valid("json");
        const request = await cm.requests.start(callerOf(c), {
          nodeId: b.node_id,
          feederId: b.feeder_id ?? null,
          durationMin: b.duration_min,
        });
        return c.json(request, 201);
      },
    )
    .get(
      "/requests/:id",
      reader,
      doc({ summary: "One request", answer: requestDto }),
      async (c) => {
        return c.json(await cm.requests.get(callerOf(c), c.req.param("id")));
      },
    )
    .post(
      "/requests/:id/stop",
      reader,
      doc({ summary: "Stops a running request now", answer: requestDto }),
      async (c) => {
        return c.json(await cm.requests.stop(callerOf(c), c.req.param("id")));
      },
    )
    .get(
      "/requests/:id/values",
      reader,
      validate("query", requestValuesQuery),
      doc({ summary: "The 20-s values of a request's window", answer: requestValuesDto }),
      async (c) => {
        const q = c.req.valid("query");
        const range = { from: time(q.from), to: time(q.to) };
        return c.json(await cm.values(callerOf(c), c.req.param("id"), range));
      },
    )
    .get(
      "/triggers",
      reader,
      validate("query", triggerQuery),
      doc({ summary: "Automatic triggers", answer: z.array(triggerDto) }),
      async (c) => {
        return c.json(await cm.triggers.list(callerOf(c), c.req.valid("query").node_id));
      },
    )
    .post(
      "/triggers",
      admin,
      validate("json", triggerCreateInput),
      doc({
        summary: "Creates a trigger (one enabled per scope: 330)",
        answer: triggerDto,
        status: 201,
      }),
      async (c) => {
        const b = c.req.valid("json");
        const trigger = await cm.triggers.create(callerOf(c), b.node_id, {
          deltaLvA: b.delta_lv_a,
          deltaMvA: b.delta_mv_a,
          durationMin: b.duration_min,
          enabled: b.enabled ?? true,
        });
        return c.json(trigger, 201);
      },
    )
    .get(
      "/triggers/:id",
      reader,
      doc({ summary: "One trigger", answer: triggerDto }),
      async (c) => {
        return c.json(await cm.triggers.get(callerOf(c), c.req.param("id")));
      },
    )
    .put(
      "/triggers/:id",
      admin,
      validate("json", triggerUpdateInput),
      doc({ summary: "Changes a trigger", answer: triggerDto }),
      async (c) => {
        const b = c.req.valid("json");
        return c.json(
          await cm.triggers.update(callerOf(c), c.req.param("id"), {
            deltaLvA: b.delta_lv_a,
            deltaMvA: b.delta_mv_a,
            durationMin: b.duration_min,
            enabled: b.enabled,
          }),
        );
      },
    )
    .delete(
      "/triggers/:id",
      admin,
      doc({ summary: "Disables a trigger (kept for its requests' history)", answer: triggerDto }),
      async (c) => {
        return c.json(await cm.triggers.disable(callerOf(c), c.req.param("id")));
      },
    );
}
