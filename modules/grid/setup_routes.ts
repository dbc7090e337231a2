/**
 * The grid setup calls the spec leaves open (docs/contracts.md, "Grid setup calls"), mounted at
 * /gsm. Administrators of hes:infrastructure-setup (and super-admins) write; holders of a module
 * that shows the grid read. Ids of another customer answer the same 404 as unknown ids.
 */
import { Hono } from "hono";
import type { Context } from "hono";
import {
  type AppEnv,
  AppError,
  type Db,
  type EventBus,
  holdsKey,
  isAppAdmin,
  readLimited,
} from "../../kernel/mod.ts";
import { MAP_LAYER_MAX_BYTES, MapLayerService } from "./map_layers.ts";
import { GridSetupService } from "./setup_service.ts";

const SETUP_KEY = "hes:infrastructure-setup";
/** Keys whose screens read the grid structure and its maps (spec 2.1). */
export const GRID_READERS = [
  SETUP_KEY,
  "app:visual-statistics",
  "app:grid-metering",
  "app:grid-monitoring",
];
/** Keys of the metering status (Metering Information and Infrastructure Setup). */
const METERING_READERS = ["app:grid-metering", SETUP_KEY];
/** JSON bodies of the setup calls are small. */
const MAX_JSON_BYTES = 64 * 1024;
/** Room for the multipart envelope around a 10 MB file. */
export const MULTIPART_OVERHEAD = 64 * 1024;
const mapLayerTooLarge = () => new AppError("validation.fileTooLarge", { size: 10 });

type Ctx = Context<AppEnv>;

/** Routes mounted at /gsm next to the structure read. */
export function setupRoutes(db: Db, bus?: EventBus): Hono<AppEnv> {
  const setup = new GridSetupService(db, bus);
  const layers = new MapLayerService(db);

  const customer = (c: Ctx, access: "read" | "metering" | "write") => {
    const p = c.get("principal");
    const allowed = access === "write"
      ? isAppAdmin(p.appsRoles, SETUP_KEY) || p.role === "super-admin"
      : (access === "read" ? GRID_READERS : METERING_READERS).some((k) => holdsKey(p.appsRoles, k));
    if (!allowed) throw new AppError("common.forbidden");
    return c.get("tenant").key;
  };
  const body = async (c: Ctx): Promise<Record<string, unknown>> => {
    if (Number(c.req.header("content-length") ?? 0) > MAX_JSON_BYTES) {
      throw new AppError("common.payloadTooLarge");
    }
    const text = await c.req.text();
    if (text.length > MAX_JSON_BYTES) throw new AppError("common.payloadTooLarge");
    try {
      const json = JSON.parse(text) as unknown;
      if (typeof json === "object" && json !== null && !Array.isArray(json)) {
        return json as Record<string, unknown>;
      }
    } catch {
      // falls through to the error below
    }
    throw new AppError("common.badRequest");
  };

  return new Hono<AppEnv>()
    // Station groups
    .post("/hv-mv-station-groups", async (c) => {
      const key = customer(c, "write");
      return c.json(await setup.createStationGroup(key, await body(c)), 201);
    })
    .put("/hv-mv-station-groups/:id", async (c) => {
      const key = customer(c, "write");
      return c.json(await setup.updateStationGroup(key, c.req.param("id"), await body(c)));
    })
    .delete("/hv-mv-station-groups/:id", async (c) => {
      const key = customer(c, "write");
      await setup.deleteStationGroup(key, c.req.param("id"));
      return c.body(null, 204);
    })
    // MV feeder groups and their MV topology
    .post("/mv-feeder-groups", async (c) => {
      const key = customer(c, "write");
      return c.json(await setup.createMvFeederGroup(key, await body(c)), 201);
    })
    .put("/mv-feeder-groups/:id", async (c) => {
      const key = customer(c, "write");
      return c.json(await setup.updateMvFeederGroup(key, c.req.param("id"), await body(c)));
    })
    .delete("/mv-feeder-groups/:id", async (c) => {
      const key = customer(c, "write");
      await setup.deleteMvFeederGroup(key, c.req.param("id"));
      return c.body(null, 204);
    })
    .get("/mv-feeder-groups/:id/mv-topology", async (c) => {
      const key = customer(c, "read");
      return c.json(await setup.mvTopology(key, c.req.param("id")));
    })
    .put("/mv-feeder-groups/:id/mv-topology", async (c) => {
      const key = customer(c, "write");
      return c.json(await setup.setMvTopology(key, c.req.param("id"), await body(c)));
    })
    .delete("/mv-feeder-groups/:id/mv-topology", async (c) => {
      const key = customer(c, "write");
      await setup.clearMvTopology(key, c.req.param("id"));
      return c.body(null, 204);
    })
    // LV groups
    .post("/lv-groups", async (c) => {
      const key = customer(c, "write");
      return c.json(await setup.createLvGroup(key, await body(c)), 201);
    })
    .put("/lv-groups/:id", async (c) => {
      const key = customer(c, "write");
      return c.json(await setup.updateLvGroup(key, c.req.param("id"), await body(c)));
    })
    .delete("/lv-groups/:id", async (c) => {
      const key = customer(c, "write");
      await setup.deleteLvGroup(key, c.req.param("id"));
      return c.body(null, 204);
    })
    // Nodes with their electrical work and feeders
    .post("/nodes", async (c) => {
      const key = customer(c, "write");
      return c.json(await setup.createNode(key, await body(c)), 201);
    })
    .get("/nodes/:id", async (c) => {
      const key = customer(c, "read");
      return c.json(await setup.node(key, c.req.param("id")));
    })
    .put("/nodes/:id", async (c) => {
      const key = customer(c, "write");
      return c.json(await setup.updateNode(key, c.req.param("id"), await body(c)));
    })
    .delete("/nodes/:id", async (c) => {
      const key = customer(c, "write");
      return c.json(await setup.deleteNode(key, c.req.param("id")));
    })
    .post("/nodes/:id/feeders", async (c) => {
      const key = customer(c, "write");
      return c.json(await setup.addFeeder(key, c.req.param("id"), await body(c)), 201);
    })
    .put("/nodes/:id/feeders/:feederId", async (c) => {
      const key = customer(c, "write");
      const { id, feederId } = c.req.param();
      return c.json(await setup.updateFeeder(key, id, feederId, await body(c)));
    })
    .delete("/nodes/:id/feeders/:feederId", async (c) => {
      const key = customer(c, "write");
      const { id, feederId } = c.req.param();
      await setup.deleteFeeder(key, id, feederId);
      return c.body(null, 204);
    })
    // Electrical works
    .get("/electrical-works/status", async (c) => {
      const key = customer(c, "metering");
      return c.json(await setup.electricalWorksStatus(key));
    })
    .get("/electrical-works/search", async (c) => {
      const key = customer(c, "read");
      return c.json(await setup.searchElectricalWorks(key, c.req.query("q") ?? ""));
    })
    // Map layers
    .get("/map-layers", async (c) => {
      const key = customer(c, "read");
      return c.json(await layers.list(key));
    })
    .get("/map-layers/:id", async (c) => {
      const key = customer(c, "read");
      return c.json(await layers.geojson(key, c.req.param("id")));
    })
    .post("/map-layers", async (c) => {
      const key = customer(c, "write");
      const type = c.req.header("content-type") ?? "";
      if (!/^multipart\/form-data;/i.test(type)) throw new AppError("common.unsupportedMediaType");
      const bytes = await readLimited(
        c.req.raw,
        MAP_LAYER_MAX_BYTES + MULTIPART_OVERHEAD,
        mapLayerTooLarge,
      );
      let form: FormData;
      try {
        form = await new Request("http://upload.local/", {
          method: "POST",
          headers: { "content-type": type },
          body: bytes,
        }).formData();
      } catch {
        throw new AppError("common.badRequest");
      }
      const file = form.get("file");
      if (!(file instanceof File)) throw new AppError("common.badRequest");
      const name = form.get("name");
      const layer = await layers.upload(
        key,
        { name: file.name, bytes: new Uint8Array(await file.arrayBuffer()) },
        typeof name === "string" ? name : undefined,
      );
      return c.json(layer, 201);
    })
    .delete("/map-layers/:id", async (c) => {
      const key = customer(c, "write");
      await layers.delete(key, c.req.param("id"));
      return c.body(null, 204);
    });
}
