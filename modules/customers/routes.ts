/** The csm calls of spec 7 and the settings calls (docs/contracts.md, "Settings calls"). */
import { proxyTile } from "./tile_proxy.ts";
import { Hono } from "hono";
import { z } from "zod";
import { type AppEnv, AppError, doc, readLimited, requireApp, validate } from "../../kernel/mod.ts";
import {
  customerDto,
  customerSettingsDto,
  gridMonitoringSettingsDto,
  logoInfoDto,
  settingsInput,
  thresholdsInput,
} from "./contract.ts";
import { MAX_LOGO_BYTES } from "./logo_image.ts";
import type { CustomersService } from "./service.ts";

const settingsAdmin = requireApp("hes:cm", { admin: true });
const monitoringAdmin = requireApp("app:grid-monitoring", { admin: true });
/** Room for the multipart envelope around a 3 MB file. */
export const MULTIPART_SLACK = 64 * 1024;

const logoTooLarge = () => new AppError("settings.logoTooLarge");

/** The logo bytes of a raw image body or of the first file of a multipart form. */
async function logoUpload(req: Request): Promise<Uint8Array> {
  const type = req.headers.get("content-type") ?? "";
  if (!type.toLowerCase().startsWith("multipart/form-data")) {
    return await readLimited(req, MAX_LOGO_BYTES, logoTooLarge);
  }
  const raw = await readLimited(req, MAX_LOGO_BYTES + MULTIPART_SLACK, logoTooLarge);
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
    .get(
      "/customers",
      doc({ summary: "The caller's customer; every customer for super roles", answer: customers }),
      async (c) => c.json(await service.listFor(c.get("principal"))),
    )
    .get(
      "/customers/:cid",
      doc({ summary: "One customer (404 for a foreign or unknown id)", answer: customerDto }),
      async (c) => c.json(await service.getFor(c.get("principal"), c.req.param("cid"))),
    )
    .get(
      "/customers/:cid/settings",
      settingsAdmin,
      doc({ summary: "Global settings of a customer", answer: customerSettingsDto }),
      async (c) => c.json(await settings.get(c.get("principal"), c.req.param("cid"))),
    )
    .put(
      "/customers/:cid/settings",
      settingsAdmin,
      validate("json", settingsInput),
      doc({ summary: "Replaces the global settings", answer: customerSettingsDto }),
      async (c) => {
        const input = c.req.valid("json");
        return c.json(await settings.update(c.get("principal"), c.req.param("cid"), input));
      },
    )
    .get(
      "/customers/:cid/grid-monitoring-settings",
      monitoringAdmin,
      doc({
        summary: "Warning thresholds and nominal voltages",
        answer: gridMonitoringSettingsDto,
      }),
      async (c) => c.json(await settings.gridMonitoring(c.get("principal"), c.req.param("cid"))),
    )
    .put(
      "/customers/:cid/grid-monitoring-settings",
      monitoringAdmin,
      validate("json", thresholdsInput),
      doc({ summary: "Replaces the warning thresholds", answer: gridMonitoringSettingsDto }),
      async (c) => {
        const input = c.req.valid("json");
        const cid = c.req.param("cid");
        return c.json(await settings.updateGridMonitoring(c.get("principal"), cid, input));
      },
    )
    .put(
      "/customers/:cid/logo",
      settingsAdmin,
      doc({ summary: "Stores the logo (JPEG or PNG, at most 3 MB)", answer: logoInfoDto }),
      async (c) => {
        const principal = c.get("principal");
        const cid = c.req.param("cid");
        await settings.get(principal, cid); // 404 for a foreign customer before reading the body
        return c.json(await settings.putLogo(principal, cid, await logoUpload(c.req.raw)));
      },
    )
    .get(
      "/customers/:cid/logo",
      doc({
        summary: "The logo image (ETag, 304 when unchanged)",
        answer: z.string().meta({ format: "binary" }),
        contentType: "image/*",
      }),
      async (c) => {
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
      },
    )
    .get(
      "/customers/:cid/map-tiles/:z/:x/:y",
      doc({
        summary: "A tile of the online basemap (404 when none is set)",
        answer: z.string().meta({ format: "binary" }),
        contentType: "image/*",
      }),
      async (c) => {
        const [tz, tx, ty] = ["z", "x", "y"].map((p) => Number(c.req.param(p)));
        const url = await settings.tileUrl(c.get("principal"), c.req.param("cid"), tz!, tx!, ty!);
        return await proxyTile(url);
      },
    )
    .delete(
      "/customers/:cid/logo",
      settingsAdmin,
      doc({ summary: "Removes the logo", status: 204 }),
      async (c) => {
        await settings.deleteLogo(c.get("principal"), c.req.param("cid"));
        return c.body(null, 204);
      },
    );
}

const customers = z.array(customerDto);
