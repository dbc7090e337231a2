import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { PointDto } from "./contract.ts";
import { renderPointsPdf } from "./points_pdf.ts";

const profile = { name: "Centre de conduite", ip_address: "10.1.2.3", port: 2404, asdu: 7 };

function point(ioa: number, over: Partial<PointDto> = {}): PointDto {
  return {
    ioa,
    node_id: "n1",
    feeder_id: "f1",
    quantity: "U",
    phase: 1,
    activated: true,
    data_type: "FLOAT",
    element_type: "FEEDER",
    element_name: "EW Nord / Node 12 / Feeder 1",
    known: true,
    ...over,
  };
}

/** The PDF's text as poppler's pdftotext reads it (layout kept), or null without poppler. */
async function pdfText(pdf: Uint8Array): Promise<string | null> {
  const dir = await mkdtemp(join(tmpdir(), "gw-scada-pdf-"));
  try {
    const path = join(dir, "points.pdf");
    await writeFile(path, pdf);
    return execFileSync("pdftotext", ["-layout", path, "-"], { encoding: "utf8" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

Deno.test("the point list PDF holds the profile and every point, read back by pdftotext", async () => {
  const points: PointDto[] = [
    point(1),
    point(2, { quantity: "P", phase: 2 }),
    point(3, {
      quantity: "FREQUENCY",
      phase: null,
      feeder_id: null,
      element_type: "NODE",
      element_name: "EW Nord / Node 12",
    }),
    point(4, {
      quantity: "NODE_STATE",
      phase: null,
      feeder_id: null,
      data_type: "SINGLE_POINT",
      element_type: "NODE",
      element_name: "EW Nord / Node 12",
      activated: false,
    }),
    // Enough rows for a second page, whose table has its head again.
    ...Array.from({ length: 60 }, (_, k) => point(100 + k, { quantity: "I", phase: 3 })),
  ];
  const pdf = await renderPointsPdf(profile, points, "en", new Date("2026-11-28T10:00:00Z"));
  assert.equal(new TextDecoder().decode(pdf.slice(0, 5)), "%PDF-");
  const text = await pdfText(pdf);
  if (text === null) {
    console.warn("pdftotext is not installed (apt-get install poppler-utils): reading skipped");
    return;
  }
  for (
    const expected of [
      "SCADA point list (IEC 60870-5-104)",
      "Centre de conduite",
      "10.1.2.3",
      "2404",
      "2026-11-28 10:00 UTC",
      "64 points, 63 activated",
    ]
  ) assert.ok(text.includes(expected), expected);
  const rows = text.split("\n").map((l) => l.trim().split(/\s{2,}/));
  const row = (ioa: string) => rows.find((r) => r[0] === ioa);
  assert.deepEqual(row("1"), [
    "1",
    "M_ME_NC_1 / M_ME_TF_1",
    "Feeder",
    "EW Nord / Node 12 / Feeder 1",
    "Voltage U L1",
    "V",
    "yes",
  ]);
  assert.deepEqual(row("2")?.slice(4), ["Active power P L2", "kW", "yes"]);
  assert.deepEqual(row("3")?.slice(2), ["Node", "EW Nord / Node 12", "Frequency f", "Hz", "yes"]);
  assert.deepEqual(row("4")?.slice(1), [
    "M_SP_NA_1 / M_SP_TB_1",
    "Node",
    "EW Nord / Node 12",
    "Node state (warning or alarm)",
    "no",
  ]);
  assert.equal(row("159")?.[4], "Current I L3");
  const pages = text.split("\f").filter((p) => p.trim());
  assert.equal(pages.length, 2);
  assert.ok(pages[1]!.includes("Type (GI / spontaneous)") && pages[1]!.includes("Page 2"));
});

Deno.test("the point list PDF is written in the user's language, Cyrillic included", async () => {
  const pdf = await renderPointsPdf(profile, [point(5, { quantity: "Q", phase: 3 })], "uk");
  const text = await pdfText(pdf);
  if (text === null) return;
  assert.ok(text.includes("Перелік точок SCADA"));
  assert.ok(text.includes("Реактивна потужність Q L3"));
  assert.ok(text.includes("kvar"));
});
