import assert from "node:assert/strict";
import { fileNameOf, toCsv } from "./export.ts";
import { COMPARE_COLOR_COUNT, compareColor, resolveColor } from "./palette.ts";

Deno.test("toCsv() writes gaps as empty cells, quotes where needed and ends lines with CRLF", () => {
  const csv = toCsv([
    { header: "Time (UTC)", cells: ["2026-11-22T10:00:00.000Z", "2026-11-22T10:00:20.000Z"] },
    { header: 'L1 "U" (V)', cells: [231.25, null] },
    { header: "Node, east", cells: [Number.NaN, 0.1] },
  ]);
  assert.equal(
    csv,
    'Time (UTC),"L1 ""U"" (V)","Node, east"\r\n' +
      "2026-11-22T10:00:00.000Z,231.25,\r\n" +
      "2026-11-22T10:00:20.000Z,,0.1\r\n",
  );
});

Deno.test("fileNameOf() keeps letters of every language and drops path and shell characters", () => {
  assert.equal(fileNameOf("Trafo Süd / Feeder 3: U", "csv"), "Trafo_Süd_Feeder_3_U.csv");
  assert.equal(fileNameOf("../../etc", "png"), ".._.._etc.png");
  assert.equal(fileNameOf("???", "png"), "chart.png");
});

Deno.test("compareColor() gives 15 distinct colours and wraps after them", () => {
  const colours = Array.from({ length: COMPARE_COLOR_COUNT }, (_, k) => compareColor(k));
  assert.equal(new Set(colours).size, 15);
  assert.equal(compareColor(15), compareColor(0));
});

Deno.test("resolveColor() reads CSS variables for the canvas and keeps plain colours", () => {
  const style = { getPropertyValue: (name: string) => (name === "--phase-l1" ? " #d32f2f " : "") };
  assert.equal(resolveColor("var(--phase-l1)", style), "#d32f2f");
  assert.equal(resolveColor("var(--missing, #123456)", style), "#123456");
  assert.equal(resolveColor("#4e79a7", style), "#4e79a7");
});
