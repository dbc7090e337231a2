/** The csm calls of spec 7 and the settings calls (docs/contracts.md, "Settings calls"). */
import { Hono } from "hono";
import { type AppEnv, AppError, requireApp } from "../../kernel/mod.ts";
import { MAX_LOGO_BYTES } from "./logo_image.ts";
import type { CustomersService } from "./service.ts";

const settingsAdmin = requireApp("hes:cm", { admin: true });
const monitoringAdmin = requireApp("app:grid-monitoring", { admin: true });
/** Room for the multipart envelope around a 3 MB file. */
const MULTIPART_SLACK = 64 * 1024;

async function jsonBody(req: Request): Promise<unknown> {
  try {
    return await req.json();
  } catch {
    throw new AppError("common.badRequest", { reason: "json" });
  }
}

/** Reads at most `limit` bytes of a body: Content-Length first, then while streaming. */
async function readLimited(req: Request, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(req.headers.get("content-length") ?? Number.NaN);
  if (declared > limit) throw new AppError("settings.logoTooLarge");
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = req.body?.getReader();
  while (reader) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw new AppError("settings.logoTooLarge");
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/** The logo bytes of a raw image body or of the first file of a multipart form. */
async function logoUpload(req: Request): Promise<Uint8Array> {
  const type = req.headers.get("content-type") ?? "";
  if (!type.toLowerCase().startsWith("multipart/form-data")) {
    return await readLimited(req, MAX_LOGO_BYTES);
  }
  const raw = await readLimited(req, MAX_LOGO_BYTES + MULTIPART_SLACK);
  let form: FormData;
  try {
    form = await new Response(raw, { headers: { "content-type": type } }).formData();
  } catch {
    throw new AppError("settings.logoNotImage");
  }
  const file = [...form.values()].find((v): v is File => typeof v !== "string");
  if (!file) throw new AppError("settings.logoNotImage");
  if (file.size > MAX_LOGO_BYTES) throw new AppError("settings.logoTooLarge");
  return new Uint8Array(await file.arrayBuffer());
}

/** Routes mounted at /csm (behind authentication). */
export function customerRoutes(service: CustomersService): Hono<AppEnv> {
  const settings = service.settings;
  return new Hono<AppEnv>()
    .get("/customers", async (c) => c.json(await service.listFor(c.get("principal"))))
    .get(
      "/customers/:cid",
      async (c) => c.json(await service.getFor(c.get("principal"), c.req.param("cid"))),
    )
    .get("/customers/:cid/settings", settingsAdmin, async (c) => {
      return c.json(await settings.get(c.get("principal"), c.req.param("cid")));
    })
    .put("/customers/:cid/settings", settingsAdmin, async (c) => {
      const body = await jsonBody(c.req.raw);
      return c.json(await settings.update(c.get("principal"), c.req.param("cid"), body));
    })
    .get("/customers/:cid/grid-monitoring-settings", monitoringAdmin, async (c) => {
      return c.json(await settings.gridMonitoring(c.get("principal"), c.req.param("cid")));
    })
    .put("/customers/:cid/grid-monitoring-settings", monitoringAdmin, async (c) => {
      const body = await jsonBody(c.req.raw);
      return c.json(
        await settings.updateGridMonitoring(c.get("principal"), c.req.param("cid"), body),
      );
    })
    .put("/customers/:cid/logo", settingsAdmin, async (c) => {
      const principal = c.get("principal");
      const cid = c.req.param("cid");
      await settings.get(principal, cid); // 404 for a foreign customer before reading the body
      return c.json(await settings.putLogo(principal, cid, await logoUpload(c.req.raw)));
    })
    .get("/customers/:cid/logo", async (c) => {
      const logo = await settings.logo(c.get("principal"), c.req.param("cid"));
      const etag = `"${logo.etag}"`;
      const headers = { ETag: etag, "Cache-Control": "private, no-cache" };
      const match = c.req.header("if-none-match");
      if (match?.split(",").some((t) => t.trim().replace(/^W\//, "") === etag)) {
        return c.body(null, 304, headers);
      }
      return c.body(logo.data as Uint8Array<ArrayBuffer>, 200, {
        ...headers,
        "Content-Type": logo.contentType,
        "Content-Disposition": "inline",
      });
    })
    .delete("/customers/:cid/logo", settingsAdmin, async (c) => {
      await settings.deleteLogo(c.get("principal"), c.req.param("cid"));
      return c.body(null, 204);
    });
}
