import assert from "node:assert/strict";
import {
  IMPORT_MAX_CELLS,
  importCellsInput,
  normalizeSerialNumber,
  parseCellCsv,
  registerCellInput,
  serialNumberRule,
} from "./contract.ts";

Deno.test("serialNumberRule() takes 3-40 letters, digits, - _ . between letters or digits", () => {
  for (const ok of ["GW-2026-0001", "ABC", "A.B_C-1", "X".repeat(40)]) {
    assert.equal(serialNumberRule(ok), null, ok);
  }
  assert.deepEqual(serialNumberRule(""), { key: "validation.required" });
  assert.deepEqual(serialNumberRule("AB"), { key: "validation.minChars", params: { count: 3 } });
  assert.deepEqual(serialNumberRule("X".repeat(41)), {
    key: "validation.maxChars",
    params: { count: 40 },
  });
  for (const bad of ["-GW1", "GW1-", "GW 1", "GW/1", "GW:1", "GW\u00001", "ÄBC"]) {
    assert.deepEqual(serialNumberRule(bad), { key: "validation.serialNumberFormat" }, bad);
  }
});

Deno.test("normalizeSerialNumber() trims and writes capitals (one device, one spelling)", () => {
  assert.equal(normalizeSerialNumber("  gw-2026-0100 "), "GW-2026-0100");
});

Deno.test("registerCellInput gives field errors with the rule's key and defaults", () => {
  const ok = registerCellInput.parse({ serial_number: " gw-9 " });
  assert.deepEqual(ok, { serial_number: "GW-9", device_model: "GW4", type: "IN_STOCK" });
  const bad = registerCellInput.safeParse({ serial_number: "a/b", type: "INSTALLED" });
  assert.ok(!bad.success);
  const keys = bad.error.issues.map((i) => `${i.path.join(".")}:${i.message}`);
  assert.ok(keys.includes("serial_number:validation.serialNumberFormat"), keys.join());
  assert.ok(keys.some((k) => k.startsWith("type:")), keys.join());
  assert.ok(!importCellsInput.safeParse({ csv: "x".repeat(100_001) }).success);
});

Deno.test("parseCellCsv() reads serials with an optional model, header, comments, ; or ,", () => {
  const { cells, problems } = parseCellCsv(
    '\uFEFFSerial number;model\r\n# depot 4\n\ngw-1001\n"GW-1002";dtvi\nGW-1003,GW4,\n',
    "GW4",
  );
  assert.deepEqual(problems, []);
  assert.deepEqual(cells, [
    { line: 4, serial_number: "GW-1001", device_model: "GW4" },
    { line: 5, serial_number: "GW-1002", device_model: "DTVI" },
    { line: 6, serial_number: "GW-1003", device_model: "GW4" },
  ]);
  assert.equal(parseCellCsv("GW-1\nGW-2", "DTVI").cells[1]?.device_model, "DTVI");
});

Deno.test("parseCellCsv() lists every problem by line: format, model, repeated, columns", () => {
  const { problems } = parseCellCsv("GW-1\nG/1\nGW-2,XYZ\ngw-1\nGW-3,GW4,extra\nAB");
  assert.deepEqual(problems.map((p) => [p.line, p.key]), [
    [2, "validation.serialNumberFormat"],
    [3, "validation.deviceModelInvalid"],
    [4, "validation.serialNumberRepeated"],
    [5, "validation.csvColumns"],
    [6, "validation.minChars"],
  ]);
  assert.deepEqual(problems[2]?.params, { first: 1, line: 4, serial_number: "GW-1" });
});

Deno.test("parseCellCsv() refuses an empty file and more than IMPORT_MAX_CELLS cells", () => {
  assert.deepEqual(parseCellCsv("serial_number\n\n# none\n").problems, [
    { key: "validation.csvEmpty", line: null },
  ]);
  const many = Array.from({ length: IMPORT_MAX_CELLS + 1 }, (_, k) => `GW-${k}`).join("\n");
  assert.deepEqual(parseCellCsv(many).problems.map((p) => p.key), ["validation.csvTooManyCells"]);
});
