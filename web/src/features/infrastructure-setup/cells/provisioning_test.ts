import assert from "node:assert/strict";
import type { CellCredentialDto } from "./cells-api.ts";
import { provisioningFile } from "./provisioning.ts";

const cell = (serial: string, id: string): CellCredentialDto => ({
  cell_id: id,
  serial_number: serial,
  device_model: "GW4",
  type: "IN_STOCK",
  credential: `${id}.abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG`,
  issued_at: "2026-11-22T09:15:02.123Z",
  ingest_url: "https://gw.example.ch/ingest/v1/batches",
  configuration_url: "https://gw.example.ch/ingest/v1/configuration",
  protocol_version: 2,
});

Deno.test("provisioningFile() of one cell names it by serial and holds URL, credential and header", () => {
  const { name, text } = provisioningFile([cell("GW-2026-0100", "CGW20260100")]);
  assert.equal(name, "gridwatch-cell-GW-2026-0100.json");
  const json = JSON.parse(text);
  assert.equal(json.format, "gridwatch-cell-provisioning");
  assert.equal(json.ingest_url, "https://gw.example.ch/ingest/v1/batches");
  assert.equal(json.credential, "CGW20260100.abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG");
  assert.equal(json.authorization, `Bearer ${json.credential}`);
  assert.equal(json.protocol_version, 2);
});

Deno.test("provisioningFile() of an import lists every cell under `cells`", () => {
  const { name, text } = provisioningFile([cell("GW-1", "CGW1"), cell("GW-2", "CGW2")]);
  assert.equal(name, "gridwatch-cells-2-20261122T091502.json");
  const json = JSON.parse(text);
  assert.deepEqual(json.cells.map((c: { cell_id: string }) => c.cell_id), ["CGW1", "CGW2"]);
});
