import assert from "node:assert/strict";
import { EN50160_LV } from "../../core/mod.ts";
import { evaluateFeeder } from "./analysis.ts";
import { steadyInput } from "./_test_utils.ts";
import { renderReportPdf } from "./pdf.ts";

const DAY = 86_400_000;
const MONDAY = Date.UTC(2026, 10, 9);

async function render(language: "en" | "uk") {
  const input = steadyInput(MONDAY, MONDAY + 7 * DAY);
  const summary =
    evaluateFeeder({ id: "f", name: "Transformer" }, input, MONDAY, MONDAY + 7 * DAY, EN50160_LV)
      .summary;
  return await renderReportPdf({
    report: {
      name: "Week 46",
      language,
      nodeName: "TS Seeblick",
      ewName: "TS Seeblick",
      feeders: [{ id: "f", name: "Transformer", slot: 1 }],
      startAt: new Date(MONDAY),
      endAt: new Date(MONDAY + 7 * DAY),
      limitSet: "EN 50160",
    },
    customer: {
      name: "EW Demo AG",
      nominalVoltage: 230,
      nominalVoltageMv: 9238,
      nominalFrequency: 50,
      timezone: "Europe/Zurich",
      formats: {
        dateFormat: "DD.MM.YYYY",
        timeFormat: "HH:mm",
        numberFormat: "1'234.56",
        timezone: "Europe/Zurich",
      },
    },
    summary: [summary],
    inputs: [input],
    passed: summary.passed === true,
  });
}

async function text(pdf: Uint8Array): Promise<string | null> {
  const file = await Deno.makeTempFile({ suffix: ".pdf" });
  try {
    await Deno.writeFile(file, pdf);
    const out = await new Deno.Command("pdftotext", { args: [file, "-"] }).output();
    return new TextDecoder().decode(out.stdout);
  } catch {
    return null; // pdftotext is not installed: the byte checks below still run
  } finally {
    await Deno.remove(file);
  }
}

Deno.test("renderReportPdf() writes a PDF whose text says the verdict in the report's language", async () => {
  const en = await render("en");
  assert.equal(new TextDecoder().decode(en.subarray(0, 5)), "%PDF-");
  const english = await text(en);
  if (english !== null) {
    assert.match(english, /Power quality report/);
    assert.match(english, /Result: Passed/);
    assert.match(english, /Voltage deviation/);
  }
  const ukrainian = await text(await render("uk"));
  if (ukrainian !== null) {
    assert.match(ukrainian, /Звіт про якість електроенергії/);
    assert.match(ukrainian, /Результат: Відповідає/);
  }
});
