/**
 * Grid setup calls over HTTP on the real platform (PGlite, and PostgreSQL when configured):
 * create down to a node with feeders as an administrator, refusals for other roles and other
 * customers, refused changes that leave the grid unchanged, metering status, search and map
 * layers (size, type and malicious XML).
 */
import assert from "node:assert/strict";
import { DEMO_USERS, OTHER_ADMIN } from "../../modules/demo/mod.ts";
import { databaseKinds, startTestPlatform } from "../helpers/platform.ts";

const ADMIN = DEMO_USERS[1];
const USER = DEMO_USERS[0];

const lvLine = (in_out = "OUT") => ({
  name: "LV line 1",
  type: "LV_LINE",
  in_out,
  nominal_current_a: 250,
  parameters: { meshed: false },
});

for (const kind of databaseKinds()) {
  Deno.test({
    name: `grid setup calls (${kind})`,
    sanitizeResources: false,
    sanitizeOps: false,
    async fn(t) {
      const platform = await startTestPlatform(kind);
      try {
        const admin = (await platform.login(ADMIN.email, ADMIN.password)).access_token;
        const user = (await platform.login(USER.email, USER.password)).access_token;
        const other = (await platform.login(OTHER_ADMIN.email, OTHER_ADMIN.password)).access_token;
        const call = (
          token: string,
          method: string,
          path: string,
          body?: unknown,
        ) =>
          platform.request(path, {
            method,
            token,
            ...(body === undefined
              ? {}
              : { body: JSON.stringify(body), headers: { "content-type": "application/json" } }),
          });
        const json = async <T>(res: Response, status: number): Promise<T> => {
          const text = await res.text();
          assert.equal(res.status, status, text);
          return (text ? JSON.parse(text) : undefined) as T;
        };
        const structure = async () =>
          await json<unknown[]>(
            await call(admin, "GET", "/gsm/grid-structure/hv-mv-station-groups"),
            200,
          );

        let ids = { station: "", mv: "", lv: "", node: "", feeder: "" };

        await t.step("an admin creates a station group down to a node with feeders", async () => {
          const station = await json<{ id: string }>(
            await call(admin, "POST", "/gsm/hv-mv-station-groups", {
              name: "Substation North",
              latitude: 47.05,
              longitude: 8.3,
            }),
            201,
          );
          const mv = await json<{ id: string }>(
            await call(admin, "POST", "/gsm/mv-feeder-groups", {
              station_group_id: station.id,
              name: "MV feeder North",
            }),
            201,
          );
          const lv = await json<{ id: string }>(
            await call(admin, "POST", "/gsm/lv-groups", {
              mv_feeder_group_id: mv.id,
              name: "LV grid North",
            }),
            201,
          );
          const node = await json<{ id: string; feeders: { id: string; slot: number }[] }>(
            await call(admin, "POST", "/gsm/nodes", {
              lv_group_id: lv.id,
              name: "TS Nord",
              electrical_work: { name: "TS Nord", type: "MV_LV_STATION" },
              latitude: 47.051,
              longitude: 8.301,
              feeders: [{
                name: "Transformer 400 kVA",
                type: "TRANSFORMER",
                in_out: "IN",
                nominal_current_a: 577,
                parameters: {
                  impedanceVoltage: 4,
                  vectorGroup: "Dy5",
                  lvOperatingTap: 400,
                  mvOperatingTap: 16,
                  nominalMvVoltage: 16,
                  nominalPower: 400,
                  mvVoltageEstimation: false,
                },
              }, lvLine()],
            }),
            201,
          );
          assert.deepEqual(node.feeders.map((f) => f.slot), [1, 2]);
          ids = {
            station: station.id,
            mv: mv.id,
            lv: lv.id,
            node: node.id,
            feeder: node.feeders[1]!.id,
          };
          const text = JSON.stringify(await structure());
          assert.ok(text.includes("TS Nord") && text.includes("Transformer 400 kVA"));
        });

        await t.step("a refused change leaves the grid unchanged", async () => {
          const before = JSON.stringify(await structure());
          const refused = await json<{ key: string }>(
            await call(admin, "DELETE", `/gsm/hv-mv-station-groups/${ids.station}`),
            409,
          );
          assert.equal(refused.key, "validation.deleteStationHasMvFeeders");
          const invalid = await json<{ key: string; params: { issues: { key: string }[] } }>(
            await call(admin, "POST", "/gsm/nodes", {
              lv_group_id: ids.lv,
              name: "Cabinet with a far too long name",
              electrical_work: { name: "CAB", type: "LV_CABINET" },
              latitude: 47,
              longitude: 8,
              feeders: [lvLine("IN")],
            }),
            400,
          );
          assert.deepEqual(invalid.params.issues.map((i) => i.key), ["validation.nameMax"]);
          const seven = await json<{ key: string }>(
            await call(admin, "POST", "/gsm/nodes", {
              lv_group_id: ids.lv,
              name: "CAB Seven",
              electrical_work: { name: "CAB Seven", type: "LV_CABINET" },
              latitude: 47,
              longitude: 8,
              feeders: Array.from({ length: 7 }, () => lvLine("IN")),
            }),
            422,
          );
          assert.equal(seven.key, "setup.maxFeeders");
          const mvLine = await json<{ code: number }>(
            await call(admin, "POST", `/gsm/nodes/${ids.node}/feeders`, {
              ...lvLine(),
              type: "MV_LINE",
            }),
            422,
          );
          assert.equal(mvLine.code, 309);
          await json(
            await call(admin, "DELETE", `/gsm/lv-groups/${ids.lv}`),
            409,
          );
          assert.equal(JSON.stringify(await structure()), before);
        });

        await t.step("non-admins read but cannot write; other customers get 404", async () => {
          await json(
            await call(user, "POST", "/gsm/hv-mv-station-groups", { name: "Nope station" }),
            403,
          );
          await json(await call(user, "DELETE", `/gsm/nodes/${ids.node}`), 403);
          await json(await call(user, "GET", `/gsm/nodes/${ids.node}`), 200);
          const foreign = await json<{ key: string }>(
            await call(other, "DELETE", `/gsm/nodes/${ids.node}`),
            404,
          );
          assert.equal(foreign.key, "grid.elementNotFound");
          await json(await call(other, "GET", `/gsm/nodes/${ids.node}`), 404);
          await json(
            await call(other, "PUT", `/gsm/lv-groups/${ids.lv}`, { name: "Taken over" }),
            404,
          );
        });

        await t.step("metering status, search and the visual-statistics view", async () => {
          const status = await json<
            { electrical_works: { name: string; state: string }[]; counts: Record<string, number> }
          >(await call(user, "GET", "/gsm/electrical-works/status"), 200);
          assert.equal(status.electrical_works.length, 21);
          const total = Object.values(status.counts).reduce((a, b) => a + b, 0);
          assert.equal(total, 21);
          assert.equal(status.electrical_works.find((w) => w.name === "TS Nord")?.state, "NO_CELL");
          const hits = await json<{ name: string }[]>(
            await call(user, "GET", "/gsm/electrical-works/search?q=cab"),
            200,
          );
          assert.equal(hits.length, 10);
          await json(await call(user, "GET", "/gsm/electrical-works/search?q=ca"), 400);
          const view = await json<{ has_mv_feeders: boolean; lv_groups: unknown[] }>(
            await call(
              user,
              "GET",
              "/gsm/grid-structure/hv-mv-station-groups?view=visual-statistics",
            ),
            200,
          );
          assert.equal(view.has_mv_feeders, true, "the demo stations with an MV line");
          assert.equal(view.lv_groups.length, 6);
        });

        await t.step("deleting a node returns its cell to waiting for configuration", async () => {
          const demoStatus = await json<
            { electrical_works: { node_id: string; name: string; cell: { id: string } | null }[] }
          >(await call(admin, "GET", "/gsm/electrical-works/status"), 200);
          const waldrand = demoStatus.electrical_works.find((w) => w.name === "CAB Waldrand")!;
          const deleted = await json<{ cellIds: string[] }>(
            await call(admin, "DELETE", `/gsm/nodes/${waldrand.node_id}`),
            200,
          );
          assert.deepEqual(deleted.cellIds, [waldrand.cell!.id]);
          const cells = await platform.services.cells.listFor(
            (await platform.services.customers.getByConnection("demo-ew"))!.key,
            "WAITING_FOR_INSTALLATION",
          );
          assert.ok(cells.some((c) => c.id === waldrand.cell!.id));
        });

        await t.step("the last feeder stays and the hierarchy deletes bottom-up", async () => {
          await json(
            await call(admin, "DELETE", `/gsm/nodes/${ids.node}/feeders/${ids.feeder}`),
            204,
          );
          const node = await json<{ feeders: { id: string }[] }>(
            await call(admin, "GET", `/gsm/nodes/${ids.node}`),
            200,
          );
          const last = await json<{ key: string }>(
            await call(admin, "DELETE", `/gsm/nodes/${ids.node}/feeders/${node.feeders[0]!.id}`),
            409,
          );
          assert.equal(last.key, "validation.deleteLastFeeder");
          await json(await call(admin, "DELETE", `/gsm/nodes/${ids.node}`), 200);
          await json(await call(admin, "DELETE", `/gsm/lv-groups/${ids.lv}`), 204);
          await json(await call(admin, "DELETE", `/gsm/mv-feeder-groups/${ids.mv}`), 204);
          await json(await call(admin, "DELETE", `/gsm/hv-mv-station-groups/${ids.station}`), 204);
        });

        await t.step("map layers: upload, list, read, refuse and delete", async () => {
          const upload = (token: string, name: string, content: BlobPart, type = "") => {
            const form = new FormData();
            form.set("file", new File([content], name, { type }));
            return platform.request("/gsm/map-layers", { method: "POST", token, body: form });
          };
          const geojson = JSON.stringify({
            type: "FeatureCollection",
            features: [{
              type: "Feature",
              properties: { name: "Cable" },
              geometry: { type: "LineString", coordinates: [[8.28, 47.03], [8.29, 47.04]] },
            }],
          });
          const layer = await json<{ id: string; feature_count: number }>(
            await upload(admin, "cables.geojson", geojson),
            201,
          );
          assert.equal(layer.feature_count, 1);
          const kml = await json<{ id: string; format: string }>(
            await upload(
              admin,
              "stations.kml",
              `<kml><Placemark><name>TS</name><Point><coordinates>8.28,47.03</coordinates></Point></Placemark></kml>`,
            ),
            201,
          );
          assert.equal(kml.format, "KML");
          const list = await json<{ id: string }[]>(
            await call(user, "GET", "/gsm/map-layers"),
            200,
          );
          assert.equal(list.length, 2);
          const read = await json<{ type: string }>(
            await call(user, "GET", `/gsm/map-layers/${layer.id}`),
            200,
          );
          assert.equal(read.type, "FeatureCollection");
          await json(await call(other, "GET", `/gsm/map-layers/${layer.id}`), 404);
          await json(await upload(user, "cables.geojson", geojson), 403);
          const wrongType = await json<{ key: string }>(await upload(admin, "grid.shp", "x"), 415);
          assert.equal(wrongType.key, "validation.mapLayerFileType");
          const xxe = await json<{ key: string }>(
            await upload(
              admin,
              "evil.kml",
              `<?xml version="1.0"?><!DOCTYPE kml [<!ENTITY x SYSTEM "file:///etc/passwd">]><kml><Placemark><name>&x;</name></Placemark></kml>`,
            ),
            422,
          );
          assert.equal(xxe.key, "messages.unableToLoadMapLayer");
          const big = new Uint8Array(10 * 1024 * 1024 + 1).fill(32);
          const tooLarge = await json<{ key: string }>(await upload(admin, "big.json", big), 413);
          assert.equal(tooLarge.key, "validation.fileTooLarge");
          await json(await call(admin, "DELETE", `/gsm/map-layers/${layer.id}`), 204);
          await json(await call(admin, "DELETE", `/gsm/map-layers/${layer.id}`), 404);
        });
      } finally {
        await platform.close();
      }
    },
  });
}
