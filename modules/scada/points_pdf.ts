/**
 * The point list of a profile as a PDF for the SCADA engineer (vector text, A4 landscape, the
 * kernel's embedded DejaVu fonts): the profile (name, master's address and port, common
 * address, field sizes), then every point in feeder order: IOA, ASDU types (interrogation /
 * spontaneous), element type, element, value, unit, activated. The table head repeats on every
 * page.
 */
import { fit, MARGIN, MUTED, openPdf, PageWriter } from "../../kernel/mod.ts";
import { type PointDto, type ProfileDto, UNIT_OF } from "./contract.ts";
import { type PdfLanguage, POINTS_PDF_TEXTS } from "./points_pdf_texts.ts";

const LANDSCAPE: [number, number] = [841.89, 595.28];
/** Column left edges and widths (points), in the order of the table. */
const COLUMNS = [
  ["ioa", 40],
  ["type", 125],
  ["elementType", 65],
  ["element", 250],
  ["value", 165],
  ["unit", 40],
  ["activated", 60],
] as const;

const TYPES = {
  FLOAT: "M_ME_NC_1 / M_ME_TF_1",
  SINGLE_POINT: "M_SP_NA_1 / M_SP_TB_1",
} as const;

/** Renders the point list of `profile`. */
export async function renderPointsPdf(
  profile: Pick<ProfileDto, "name" | "ip_address" | "port" | "asdu">,
  points: readonly PointDto[],
  language: PdfLanguage,
  now = new Date(),
): Promise<Uint8Array> {
  const t = POINTS_PDF_TEXTS[language];
  const { doc, regular, bold } = await openPdf({
    title: `${t.title}: ${profile.name}`,
    language,
  });
  const w = new PageWriter(doc, regular, bold, t.page, {
    size: LANDSCAPE,
    header: `${t.title} · ${profile.name}`,
  });
  w.text(t.title, MARGIN, { size: 16, bold: true });
  w.line(16, 10);
  const facts: [string, string][] = [
    [t.profile, profile.name],
    [t.master, profile.ip_address],
    [t.port, String(profile.port)],
    [t.asdu, String(profile.asdu)],
    [t.generated, `${now.toISOString().slice(0, 16).replace("T", " ")} UTC`],
    ["", t.count(points.filter((p) => p.activated).length, points.length)],
  ];
  for (const [label, value] of facts) {
    if (label) w.text(label, MARGIN, { color: MUTED });
    w.text(fit(regular, value, 9, 500), MARGIN + 150, { bold: label === t.profile });
    w.line();
  }
  w.text(t.sizes, MARGIN, { size: 8, color: MUTED });
  w.line(8, 12);
  const head = () => {
    let x = MARGIN;
    for (const [key, width] of COLUMNS) {
      w.text(fit(bold, t.columns[key], 8, width - 4), x, { size: 8, bold: true });
      x += width;
    }
    w.line(8, 6);
    w.rule();
  };
  head();
  for (const p of points) {
    if (w.y - 12 < MARGIN) {
      w.newPage();
      head();
    }
    const element = p.known ? p.element_name : `${p.element_name} (${t.unknown})`.trim();
    const cells = [
      String(p.ioa),
      TYPES[p.data_type],
      p.element_type === "FEEDER" ? t.feeder : t.node,
      element,
      t.quantity(p.quantity, p.phase),
      UNIT_OF[p.quantity],
      p.activated ? t.yes : t.no,
    ];
    let x = MARGIN;
    cells.forEach((value, k) => {
      const width = COLUMNS[k]![1];
      const color = p.activated ? undefined : MUTED;
      w.text(fit(regular, value, 8, width - 4), x, { size: 8, ...(color ? { color } : {}) });
      x += width;
    });
    w.line(8, 4);
  }
  w.finish(`${profile.name} · ${profile.ip_address}:${profile.port} · ASDU ${profile.asdu}`);
  return await doc.save();
}
