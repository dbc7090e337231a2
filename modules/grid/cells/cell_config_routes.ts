/**
 * The cell side of the setup (docs/cell-configuration.md), mounted at /ingest: a cell fetches
 * its configuration (mapping, I/O modules, what to send) with its own credential and
 * acknowledges the mapping version it applied.
 */
import { type Context, Hono } from "hono";
import { z } from "zod";
import { type AppEnv, AppError } from "../../../kernel/mod.ts";
import type { CellConfigurationService } from "./cell_configuration.ts";
import type { CellsService } from "./cells.ts";

const ackBody = z.strictObject({ mapping_version: z.number().int().min(0).max(2 ** 31 - 1) });

/** Routes mounted at /ingest. */
export function cellConfigRoutes(
  deps: { cells: CellsService; configuration: CellConfigurationService },
): Hono<AppEnv> {
  const cellOf = async (c: Context<AppEnv>) => {
    const match = /^Bearer (\S+)$/i.exec(c.req.header("authorization") ?? "");
    const cell = match?.[1] ? await deps.cells.authenticate(match[1]) : null;
    if (!cell) throw new AppError("common.unauthorized");
    return cell.cellId;
  };
  return new Hono<AppEnv>()
    .get("/v1/configuration", async (c) => {
      return c.json(await deps.configuration.configurationFor(await cellOf(c)));
    })
    .post("/v1/configuration/ack", async (c) => {
      // The credential first: an unknown cell learns nothing about the body.
      const cellId = await cellOf(c);
      const parsed = ackBody.safeParse(await c.req.json().catch(() => null));
      if (!parsed.success) throw new AppError("common.badRequest");
      await deps.configuration.acknowledge(cellId, parsed.data.mapping_version);
      return c.body(null, 204);
    });
}
