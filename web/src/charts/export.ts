/** CSV and PNG downloads of a chart. */

/** A column of a CSV export: header text and one cell per row (null = empty cell). */
export interface CsvColumn {
  header: string;
  cells: ArrayLike<number | string | null>;
}

function csvCell(value: number | string | null | undefined): string {
  if (value === null || value === undefined) return "";
  const text = typeof value === "number" ? (Number.isFinite(value) ? String(value) : "") : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * RFC 4180 CSV (comma separated, CRLF, quoted where needed) of equally long columns. Numbers are
 * written with a dot and full precision so that spreadsheets and scripts read them back exactly.
 */
export function toCsv(columns: readonly CsvColumn[]): string {
  const rows = Math.max(0, ...columns.map((c) => c.cells.length));
  const lines = [columns.map((c) => csvCell(c.header)).join(",")];
  for (let r = 0; r < rows; r++) lines.push(columns.map((c) => csvCell(c.cells[r])).join(","));
  return lines.join("\r\n") + "\r\n";
}

/** A file name from a chart title: letters, digits, dot, dash and underscore only. */
export function fileNameOf(title: string, extension: string): string {
  const base = title.normalize("NFC").replace(/[^\p{L}\p{N}._-]+/gu, "_").replace(/^_+|_+$/g, "");
  return `${base.slice(0, 120) || "chart"}.${extension}`;
}

/** Saves a blob under a file name through a temporary link. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}

/** A legend entry drawn below the chart in a PNG export. */
export interface PngLegendEntry {
  label: string;
  color: string;
}

/**
 * The chart's canvas as a PNG with the title above and the visible series below it, on the
 * theme's background (a transparent PNG would be unreadable in a dark document viewer).
 */
export function chartPng(
  chart: HTMLCanvasElement,
  title: string,
  legend: readonly PngLegendEntry[],
  colors: { background: string; foreground: string },
): Promise<Blob | null> {
  const ratio = chart.width / Math.max(1, chart.clientWidth || chart.width);
  const pad = 12 * ratio;
  const line = 18 * ratio;
  const canvas = document.createElement("canvas");
  canvas.width = chart.width + 2 * pad;
  canvas.height = chart.height + 2 * pad + 2 * line;
  const ctx = canvas.getContext("2d");
  if (!ctx) return Promise.resolve(null);
  ctx.fillStyle = colors.background;
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.fillStyle = colors.foreground;
  ctx.font = `600 ${13 * ratio}px system-ui, sans-serif`;
  ctx.textBaseline = "middle";
  ctx.fillText(title, pad, pad + line / 2);
  ctx.drawImage(chart, pad, pad + line);
  ctx.font = `${12 * ratio}px system-ui, sans-serif`;
  let x = pad;
  const y = pad + line + chart.height + line / 2 + 4 * ratio;
  for (const entry of legend) {
    ctx.fillStyle = entry.color;
    ctx.fillRect(x, y - 4 * ratio, 12 * ratio, 8 * ratio);
    x += 16 * ratio;
    ctx.fillStyle = colors.foreground;
    ctx.fillText(entry.label, x, y);
    x += ctx.measureText(entry.label).width + 14 * ratio;
  }
  return new Promise((resolve) => canvas.toBlob(resolve, "image/png"));
}
