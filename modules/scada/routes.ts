/**
 * The scm calls (docs/contracts.md "SCADA connector: /scm"): administrators of the SCADA
 * connector (hes:scada-connector admin); others get 403.
 */
import { Hono } from "hono";
import { z } from "zod";
import { type AppEnv, doc, requireApp, validate } from "../../kernel/mod.ts";
import {
  addedPointsDto,
  addPointsInput,
  generateInput,
  pointListDto,
  pointsInput,
  pointsPdfQuery,
  profileDto,
  profileInput,
  profileListDto,
  scadaNodeListDto,
  statusDto,
} from "./contract.ts";
import type { StoredPoint } from "./points.ts";
import type { ScadaService } from "./service.ts";
import type { StatusDto } from "./contract.ts";

export const SCADA_APP = "hes:scada-connector";

/**
 * The whole point list (PUT .../points) and the nodes of an addition (POST .../points/add) go
 * beyond the input gate's 256 KiB default: 60,000 points of about 130 bytes each (ids of 36
 * characters) make 8 MB; 16 MiB leaves room for longer ids, and beyond it the answer is 413.
 */
export const POINTS_BODY_LIMIT = {
  path: /^\/scm\/profiles\/[^/]+\/points(?:\/add)?$/,
  bytes: 16 * 1024 * 1024,
};

/** Routes mounted at /scm (behind authentication). */
export function scadaRoutes(
  service: ScadaService,
  status: (customerKey: string) => StatusDto,
): Hono<AppEnv> {
  return new Hono<AppEnv>()
    .use("*", requireApp(SCADA_APP, { admin: true }))
    .get(
      "/status",
      doc({ summary: "The connector's listeners and connected masters", answer: statusDto }),
      (c) => c.json(status(c.get("tenant").key)),
    )
    .get(
      "/nodes",
      doc({
        summary: "The nodes points may name, in feeder order, with their LV feeders",
        answer: scadaNodeListDto,
      }),
      async (c) => c.json(await service.nodes(c.get("tenant").key)),
    )
    .get(
      "/profiles",
      doc({ summary: "The SCADA profiles (one per master)", answer: profileListDto }),
      async (c) => c.json(await service.list(c.get("tenant").key)),
    )
    .post(
      "/profiles",
      validate("json", profileInput),
      doc({ summary: "Creates a SCADA profile", answer: profileDto, status: 201 }),
      async (c) => c.json(await service.create(c.get("tenant").key, c.req.valid("json")), 201),
    )
    .put(
      "/profiles/:id",
      validate("json", profileInput),
      doc({ summary: "Replaces a SCADA profile", answer: profileDto }),
      async (c) =>
        c.json(
          await service.update(c.get("tenant").key, c.req.param("id"), c.req.valid("json")),
        ),
    )
    .delete(
      "/profiles/:id",
      doc({ summary: "Deletes a SCADA profile and its points", status: 204 }),
      async (c) => {
        await service.remove(c.get("tenant").key, c.req.param("id"));
        return c.body(null, 204);
      },
    )
    .get(
      "/profiles/:id/points",
      doc({ summary: "A profile's points in feeder order", answer: pointListDto }),
      async (c) => c.json(await service.points(c.get("tenant").key, c.req.param("id"))),
    )
    .get(
      "/profiles/:id/points/pdf",
      validate("query", pointsPdfQuery),
      doc({
        summary: "A profile's point list as a PDF for the SCADA engineer",
        answer: z.string(),
        contentType: "application/pdf",
      }),
      async (c) => {
        const { language } = c.req.valid("query");
        const { name, pdf } = await service.pointsPdf(
          c.get("tenant").key,
          c.req.param("id"),
          language,
        );
        const file = `scada-points-${name.replace(/[^\p{L}\p{N}._-]+/gu, "_")}.pdf`;
        return c.body(pdf as Uint8Array<ArrayBuffer>, 200, {
          "content-type": "application/pdf",
          "content-disposition": `attachment; filename="${
            file.replace(/[^\x20-\x7e]|"/g, "_")
          }"; filename*=UTF-8''${encodeURIComponent(file)}`,
        });
      },
    )
    .put(
      "/profiles/:id/points",
      validate("json", pointsInput),
      doc({
        summary: "Replaces a profile's points (their order is the feeder order)",
        answer: pointListDto,
      }),
      async (c) => {
        const list = c.req.valid("json").points as StoredPoint[];
        return c.json(await service.setPoints(c.get("tenant").key, c.req.param("id"), list));
      },
    )
    .post(
      "/profiles/:id/points/generate",
      validate("json", generateInput),
      doc({
        summary: "Fills a profile with the default point list (plus P, Q, frequency if asked)",
        answer: pointListDto,
      }),
      async (c) => {
        const { extra } = c.req.valid("json");
        return c.json(await service.generate(c.get("tenant").key, c.req.param("id"), extra));
      },
    )
    .post(
      "/profiles/:id/points/add",
      validate("json", addPointsInput),
      doc({
        summary: "Adds values to a profile's points (next free addresses, existing points kept)",
        answer: addedPointsDto,
      }),
      async (c) =>
        c.json(
          await service.addPoints(c.get("tenant").key, c.req.param("id"), c.req.valid("json")),
        ),
    );
}
