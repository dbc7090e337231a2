/**
 * Global settings through the real login, on PGlite and on PostgreSQL: who may read and write
 * them, every rule answering its translated key, nothing written when a rule fails, the grid
 * monitoring thresholds reaching the monitoring module, and the logo upload checks.
 */
import assert from "node:assert/strict";
import { deflateSync } from "node:zlib";
import { DEMO_USERS, OTHER_ADMIN } from "../../modules/demo/mod.ts";
import { databaseKinds, startTestPlatform } from "../helpers/platform.ts";

const [USER, ADMIN, SUPER_USER, SUPER_ADMIN, OPERATOR] = DEMO_USERS;

/** A settings body that breaks no rule. */
function validSettings(): Record<string, unknown> {
  return {
    name: "EW Demo AG",
    street: "Werkstrasse 1",
    postcode: "6003",
    city: "Luzern",
    country: "CH",
    technical_contact: {
      name: "Tina Technik",
      email: "tech@demo-ew.ch",
      phone: "+41 41 123 45 67",
    },
    default_date_format: "DD.MM.YYYY",
    default_time_format: "HH:mm",
    default_number_format: "1'234.56",
    default_timezone: "Europe/Zurich",
    default_language: "de",
    available_languages: ["de", "fr"],
    authorized_email_domains: ["demo-ew.ch"],
    default_frequency: 50,
    default_lv_nominal_voltage: "230/400",
    default_mv_nominal_voltage: 16000,
    map_center: { lat: 47.05, lng: 8.31 },
    default_map_zoom_level: 12,
    warning_thresholds: { overvoltage_pct: 10, undervoltage_pct: 10, overcurrent_pct: 100 },
  };
}

function crc32(bytes: Uint8Array): number {
  let c = ~0;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

/** A real, decodable RGB PNG of one colour. */
function png(width: number, height: number): Uint8Array<ArrayBuffer> {
  const chunk = (type: string, data: Uint8Array) => {
    const out = new Uint8Array(12 + data.length);
    const v = new DataView(out.buffer);
    v.setUint32(0, data.length);
    out.set(new TextEncoder().encode(type), 4);
    out.set(data, 8);
    v.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
    return out;
  };
  const ihdr = new Uint8Array(13);
  new DataView(ihdr.buffer).setUint32(0, width);
  new DataView(ihdr.buffer).setUint32(4, height);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const row = new Uint8Array(1 + width * 3).fill(0x2a);
  row[0] = 0;
  const raw = new Uint8Array(row.length * height);
  for (let y = 0; y < height; y++) raw.set(row, y * row.length);
  const parts = [
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(raw)),
    chunk("IEND", new Uint8Array()),
  ];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

for (const kind of databaseKinds()) {
  Deno.test({
    name: `global settings on ${kind}: access, rules, thresholds and logo`,
    sanitizeResources: false,
    sanitizeOps: false,
    async fn(t) {
      const platform = await startTestPlatform(kind);
      const call = (path: string, token: string, init: RequestInit = {}) =>
        platform.request(path, { ...init, token });
      const put = (path: string, token: string, body: unknown) =>
        call(path, token, {
          method: "PUT",
          body: JSON.stringify(body),
          headers: { "content-type": "application/json" },
        });
      try {
        const tokens = Object.fromEntries(
          await Promise.all(
            [USER, ADMIN, SUPER_USER, SUPER_ADMIN, OPERATOR, OTHER_ADMIN].map(async (a) =>
              [a.email, (await platform.login(a.email, a.password)).access_token] as const
            ),
          ),
        ) as Record<string, string>;
        const admin = tokens[ADMIN.email]!;
        const superAdmin = tokens[SUPER_ADMIN.email]!;
        const all = await (await call("/csm/customers", superAdmin)).json() as {
          key: string;
          auth_connection_name: string;
        }[];
        const demo = all.find((c) => c.auth_connection_name === "demo-ew")!.key;
        const other = all.find((c) => c.auth_connection_name === "sw-beispiel")!.key;
        const settingsOf = `/csm/customers/${demo}/settings`;

        await t.step("an admin reads the settings of the own customer only", async () => {
          const res = await call(settingsOf, admin);
          assert.equal(res.status, 200);
          const body = await res.json() as Record<string, unknown>;
          assert.equal(body.name, "EW Demo AG");
          assert.deepEqual(body.technical_contact, { name: null, email: null, phone: null });
          assert.equal(body.logo, null);
          assert.equal((await call(`/csm/customers/${other}/settings`, admin)).status, 404);
        });

        await t.step("users without hes:cm:admin are refused with 403", async () => {
          for (const email of [USER.email, SUPER_USER.email, OPERATOR.email]) {
            assert.equal((await call(settingsOf, tokens[email]!)).status, 403, email);
            assert.equal((await put(settingsOf, tokens[email]!, validSettings())).status, 403);
          }
        });

        await t.step("a valid change is stored and visible in the customer data", async () => {
          const res = await put(settingsOf, admin, {
            ...validSettings(),
            default_date_format: "MMM DD, YYYY",
            warning_thresholds: { overvoltage_pct: 8, undervoltage_pct: 12.5, overcurrent_pct: 90 },
          });
          assert.equal(res.status, 200);
          const saved = await res.json() as Record<string, unknown>;
          assert.equal(saved.city, "Luzern");
          assert.equal(typeof saved.updated_at, "string");
          const customer = await (await call(`/csm/customers/${demo}`, tokens[USER.email]!))
            .json() as Record<string, unknown>;
          assert.equal(customer.default_date_format, "MMM DD, YYYY");
          assert.equal(customer.default_language, "de");
          // The monitoring module reads the thresholds through CustomersService.
          const read = await platform.services.customers.getByKey(demo);
          assert.deepEqual(read?.warning_thresholds, {
            overvoltage_pct: 8,
            undervoltage_pct: 12.5,
            overcurrent_pct: 90,
          });
        });

        await t.step("a broken rule answers its key and field, and writes nothing", async () => {
          const res = await put(settingsOf, admin, {
            ...validSettings(),
            name: "Changed",
            city: "x".repeat(251),
          });
          assert.equal(res.status, 400);
          const body = await res.json() as { key: string; params: Record<string, unknown> };
          assert.equal(body.key, "common.validation");
          assert.deepEqual(body.params.issues, [
            { path: "city", key: "settings.tooLong", params: { count: 250 } },
          ]);
          const now = await (await call(settingsOf, admin)).json() as { name: string };
          assert.equal(now.name, "EW Demo AG");
          const lang = await put(settingsOf, admin, { ...validSettings(), default_language: "uk" });
          assert.deepEqual(
            (await lang.json() as { params: { issues: unknown } }).params.issues,
            [{ path: "default_language", key: "settings.defaultLanguageNotAvailable", params: {} }],
          );
          const bad = await call(settingsOf, admin, { method: "PUT", body: "{not json" });
          assert.equal(bad.status, 400);
        });

        await t.step("only a super-admin changes modules and other customers", async () => {
          const apps = ["app:grid-metering", "hes:data-export", "app:grid-monitoring"];
          const refused = await put(settingsOf, admin, { ...validSettings(), applications: apps });
          assert.equal(refused.status, 403);
          assert.equal(
            (await refused.json() as { key: string }).key,
            "settings.applicationsSuperAdminOnly",
          );
          const foreign = await put(`/csm/customers/${other}/settings`, superAdmin, {
            ...validSettings(),
            name: "Stadtwerk Beispiel",
            authorized_email_domains: ["sw-beispiel.ch"],
            applications: apps,
          });
          assert.equal(foreign.status, 200);
          assert.deepEqual((await foreign.json() as { applications: string[] }).applications, apps);
          const otherAdmin = tokens[OTHER_ADMIN.email]!;
          assert.equal((await put(settingsOf, otherAdmin, validSettings())).status, 404);
        });

        await t.step("grid monitoring admins read and change the thresholds", async () => {
          const path = `/csm/customers/${demo}/grid-monitoring-settings`;
          const thresholds = { overvoltage_pct: 9, undervoltage_pct: 11, overcurrent_pct: 120 };
          const ok = await put(path, admin, { warning_thresholds: thresholds });
          assert.equal(ok.status, 200);
          assert.deepEqual(
            (await ok.json() as { warning_thresholds: unknown }).warning_thresholds,
            thresholds,
          );
          const bad = await put(path, admin, {
            warning_thresholds: { ...thresholds, overcurrent_pct: 201 },
          });
          assert.equal(bad.status, 400);
          assert.deepEqual(await bad.json(), {
            key: "common.validation",
            params: {
              issues: [{
                path: "warning_thresholds.overcurrent_pct",
                key: "settings.outOfRange",
                params: { min: 50, max: 200 },
              }],
            },
          });
          assert.equal((await call(path, tokens[OPERATOR.email]!)).status, 403);
          const read = await platform.services.customers.getByKey(demo);
          assert.deepEqual(read?.warning_thresholds, thresholds);
        });

        await t.step("a logo is checked by content and size before it is stored", async () => {
          const logo = `/csm/customers/${demo}/logo`;
          const form = new FormData();
          form.append("file", new File(["not an image"], "logo.png", { type: "image/png" }));
          const text = await call(logo, admin, { method: "PUT", body: form });
          assert.equal(text.status, 415);
          assert.equal((await text.json() as { key: string }).key, "settings.logoNotImage");
          const big = new Uint8Array(3 * 1024 * 1024 + 1);
          big.set(png(8, 8));
          const declared = await call(logo, admin, {
            method: "PUT",
            body: big,
            headers: { "content-type": "image/png" },
          });
          assert.equal(declared.status, 413);
          const streamed = await call(logo, admin, {
            method: "PUT",
            body: new Blob([big]).stream(),
            headers: { "content-type": "image/png" },
          });
          assert.equal(streamed.status, 413);
          assert.equal((await call(logo, admin)).status, 404);
        });

        await t.step("a PNG is stored, served with its ETag, and deleted", async () => {
          const logo = `/csm/customers/${demo}/logo`;
          const form = new FormData();
          form.append("file", new File([png(512, 512)], "logo.txt"));
          const res = await call(logo, admin, { method: "PUT", body: form });
          assert.equal(res.status, 200);
          assert.deepEqual(await res.json(), {
            content_type: "image/png",
            width: 512,
            height: 512,
            size: png(512, 512).length,
          });
          const got = await call(logo, tokens[USER.email]!);
          assert.equal(got.status, 200);
          assert.equal(got.headers.get("content-type"), "image/png");
          assert.deepEqual(new Uint8Array(await got.arrayBuffer()), png(512, 512));
          const etag = got.headers.get("etag")!;
          const customer = await (await call(`/csm/customers/${demo}`, admin)).json() as {
            logo_etag: string;
          };
          assert.equal(`"${customer.logo_etag}"`, etag);
          const again = await call(logo, admin, { headers: { "if-none-match": etag } });
          assert.equal(again.status, 304);
          assert.equal((await call(logo, tokens[OTHER_ADMIN.email]!)).status, 404);
          assert.equal((await call(logo, admin, { method: "DELETE" })).status, 204);
          assert.equal((await call(logo, admin)).status, 404);
          const after = await (await call(settingsOf, admin)).json() as { logo_etag: unknown };
          assert.equal(after.logo_etag, null);
        });

        await t.step(
          "an online basemap is off by default, checked, stored and proxied",
          async () => {
            const user = tokens[USER.email]!;
            const tile = (cid: string, zxy: string) => `/csm/customers/${cid}/map-tiles/${zxy}`;
            // Off by default: no tiles, and the customer data says so.
            assert.equal((await call(tile(demo, "0/0/0"), user)).status, 404);
            const refused = await put(settingsOf, admin, {
              ...validSettings(),
              map_tiles: { url: "http://tiles.example.org/{z}/{x}.png", attribution: "" },
            });
            assert.equal(refused.status, 400);
            const issues = (await refused.json() as { params: { issues: { path: string }[] } })
              .params.issues.map((i) => i.path).sort();
            assert.deepEqual(issues, ["map_tiles.attribution", "map_tiles.url"]);
            // Nothing listens on port 1: the tile server is unreachable.
            const tiles = { url: "https://127.0.0.1:1/{z}/{x}/{y}.png", attribution: "© Test" };
            const saved = await put(settingsOf, admin, { ...validSettings(), map_tiles: tiles });
            assert.equal(saved.status, 200);
            assert.deepEqual((await saved.json() as { map_tiles: unknown }).map_tiles, tiles);
            const mine = await (await call(`/csm/customers/${demo}`, user)).json() as {
              map_tiles: unknown;
            };
            assert.deepEqual(mine.map_tiles, tiles);
            assert.equal((await call(tile(demo, "0/0/0"), user)).status, 503);
            assert.equal((await call(tile(demo, "1/5/0"), user)).status, 404);
            assert.equal((await call(tile(demo, "a/b/c"), user)).status, 404);
            assert.equal((await call(tile(other, "0/0/0"), user)).status, 404);
            // A save without the field keeps it; null switches it off.
            await put(settingsOf, admin, validSettings());
            assert.deepEqual(
              (await (await call(settingsOf, admin)).json() as { map_tiles: unknown }).map_tiles,
              tiles,
            );
            await put(settingsOf, admin, { ...validSettings(), map_tiles: null });
            assert.equal(
              (await (await call(settingsOf, admin)).json() as { map_tiles: unknown }).map_tiles,
              null,
            );
          },
        );
      } finally {
        await platform.close();
      }
    },
  });
}
