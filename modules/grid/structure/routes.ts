/** The gsm calls of spec 7 that exist so far. */
import { Hono } from "hono";
import { type AppEnv, AppError, type Db, type EventBus, holdsKey } from "../../../kernel/mod.ts";
import { setupRoutes } from "./setup_routes.ts";
import { readStructure, visualStatisticsView } from "./read.ts";

/** Keys whose screens read the grid structure (spec 2.1). */
const STRUCTURE_READERS = [
  "hes:infrastructure-setup",
  "app:visual-statistics",
  "app:grid-metering",
  "app:grid-monitoring",
];

/** Routes mounted at /gsm (behind authentication). */
export function gridRoutes(db: Db, bus?: EventBus): Hono<AppEnv> {
  return new Hono<AppEnv>()
    .get("/grid-structure/hv-mv-station-groups", async (c) => {
      const principal = c.get("principal");
      if (!STRUCTURE_READERS.some((key) => holdsKey(principal.appsRoles, key))) {
        throw new AppError("common.forbidden");
      }
      const structure = await readStructure(db, c.get("tenant").key);
      // ?view=visual-statistics: the reshaped variant of spec 2.1.
      if (c.req.query("view") === "visual-statistics") {
        return c.json(visualStatisticsView(structure));
      }
      return c.json(structure);
    })
    .route("/", setupRoutes(db, bus));
}
