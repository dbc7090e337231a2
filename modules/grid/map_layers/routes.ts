/**
 * The map-layer calls (spec 5), mounted at /gsm: holders of a module that shows the grid list
 * and draw the layers; administrators of hes:infrastructure-setup upload (multipart, one file of
 * at most 10 MB) and delete them.
 */
import { Hono } from "hono";
import {
  type AppEnv,
  AppError,
  type Db,
  doc,
  readLimited,
  requireApp,
} from "../../../kernel/mod.ts";
import { GRID_READERS, SETUP_KEY } from "../structure/routes.ts";
import { featureCollectionDto, MAP_LAYER_MAX_BYTES, mapLayerDto } from "./contract.ts";
import { MapLayerService } from "./map_layers.ts";

/** Room for the multipart envelope around a 10 MB file. */
export const MULTIPART_OVERHEAD = 64 * 1024;
const tooLarge = () => new AppError("validation.fileTooLarge", { size: 10 });

/** The upload's file and optional name from a multipart body read within the limit. */
async function uploadedFile(req: Request): Promise<{ file: File; name?: string }> {
  const type = req.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data;/i.test(type)) throw new AppError("common.unsupportedMediaType");
  const bytes = await readLimited(req, MAP_LAYER_MAX_BYTES + MULTIPART_OVERHEAD, tooLarge);
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
  return typeof name === "string" ? { file, name } : { file };
}

/** Routes mounted at /gsm (behind authentication). */
export function mapLayerRoutes(db: Db): Hono<AppEnv> {
  const layers = new MapLayerService(db);
  const reader = requireApp(GRID_READERS);
  const writer = requireApp(SETUP_KEY, { admin: true });
  return new Hono<AppEnv>()
    .get(
      "/map-layers",
      reader,
      doc({ summary: "The customer's map layers", answer: mapLayerDto.array() }),
      async (c) => c.json(await layers.list(c.get("tenant").key)),
    )
    .get(
      "/map-layers/:id",
      reader,
      doc({ summary: "A map layer as GeoJSON", answer: featureCollectionDto }),
      async (c) => c.json(await layers.geojson(c.get("tenant").key, c.req.param("id"))),
    )
    .post(
      "/map-layers",
      writer,
      doc({
        summary: "Uploads a map layer (multipart: file, name)",
        answer: mapLayerDto,
        status: 201,
      }),
      async (c) => {
        const { file, name } = await uploadedFile(c.req.raw);
        const upload = { name: file.name, bytes: new Uint8Array(await file.arrayBuffer()) };
        return c.json(await layers.upload(c.get("tenant").key, upload, name), 201);
      },
    )
    .delete(
      "/map-layers/:id",
      writer,
      doc({ summary: "Deletes a map layer", status: 204 }),
      async (c) => {
        await layers.delete(c.get("tenant").key, c.req.param("id"));
        return c.body(null, 204);
      },
    );
}
