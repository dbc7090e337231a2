/**
 * The voltage events of the report's node over the period (read through the voltage events
 * module): the EN 50160 dip and swell tables (residual or swell voltage x duration, counts per
 * cell), the other counts, and the list of the events.
 */
import type { Color } from "pdf-lib";
import {
  DIP_COLUMN_IDS,
  DIP_ROW_IDS,
  type EventDto,
  type PeriodEvents,
  SWELL_COLUMN_IDS,
  SWELL_ROW_IDS,
} from "../voltage_events/mod.ts";
import {
  ACCENT,
  fit,
  type Formatters,
  INK,
  MARGIN,
  MUTED,
  RULE,
  SHADE,
  WIDTH,
  type Writer,
} from "./pdf_writer.ts";
import { rgb } from "pdf-lib";

/** Row and column headings of EN 50160 (tables 1 and 2), by the ids of the events module. */
const DIP_ROWS: Record<string, string> = {
  "90-80": "90 > u ≥ 80",
  "80-70": "80 > u ≥ 70",
  "70-40": "70 > u ≥ 40",
  "40-5": "40 > u ≥ 5",
  "<5": "5 > u",
};
const DIP_COLUMNS: Record<string, string> = {
  "10-200ms": "10 ≤ t ≤ 200 ms",
  "0.2-0.5s": "200 < t ≤ 500 ms",
  "0.5-1s": "500 ms < t ≤ 1 s",
  "1-5s": "1 < t ≤ 5 s",
  "5-60s": "5 < t ≤ 60 s",
};
const SWELL_ROWS: Record<string, string> = { ">=120": "u ≥ 120", "120-110": "120 > u > 110" };
const SWELL_COLUMNS: Record<string, string> = {
  "10-500ms": "10 ≤ t ≤ 500 ms",
  "0.5-5s": "500 ms < t ≤ 5 s",
  "5-60s": "5 < t ≤ 60 s",
};
const HIT = rgb(0.99, 0.9, 0.8);

function table(
  w: Writer,
  title: string,
  corner: string,
  rows: readonly string[],
  columns: readonly string[],
  rowLabels: Record<string, string>,
  columnLabels: Record<string, string>,
  counts: Record<string, Record<string, number>>,
): void {
  const rowHeight = 15;
  w.need(30 + (rows.length + 1) * rowHeight);
  w.subheading(title);
  const first = 90;
  const cell = (WIDTH - first) / columns.length;
  const top = w.y + 10;
  const drawRow = (
    k: number,
    label: string,
    values: string[],
    fill?: (i: number) => Color | undefined,
  ) => {
    const y = top - (k + 1) * rowHeight;
    if (k === 0) {
      w.page.drawRectangle({ x: MARGIN, y, width: WIDTH, height: rowHeight, color: SHADE });
    }
    values.forEach((v, i) => {
      const colour = fill?.(i);
      if (colour) {
        w.page.drawRectangle({
          x: MARGIN + first + i * cell,
          y,
          width: cell,
          height: rowHeight,
          color: colour,
        });
      }
      w.textCentre(v, MARGIN + first + (i + 0.5) * cell, {
        size: k === 0 ? 6.5 : 8,
        bold: k !== 0 && v !== "0",
        y: y + 4.5,
        color: k !== 0 && v === "0" ? MUTED : INK,
      });
    });
    w.text(label, MARGIN + 4, { size: k === 0 ? 6.5 : 7.5, bold: k === 0, y: y + 4.5 });
    w.page.drawLine({
      start: { x: MARGIN, y },
      end: { x: MARGIN + WIDTH, y },
      thickness: 0.4,
      color: RULE,
    });
  };
  drawRow(0, `${corner} \\ t`, columns.map((c) => columnLabels[c] ?? c));
  rows.forEach((r, k) => {
    const values = columns.map((c) => String(counts[r]?.[c] ?? 0));
    drawRow(k + 1, rowLabels[r] ?? r, values, (i) => (values[i] !== "0" ? HIT : undefined));
  });
  for (let i = 0; i <= columns.length; i++) {
    const x = MARGIN + first + i * cell;
    w.page.drawLine({
      start: { x, y: top - (rows.length + 1) * rowHeight },
      end: { x, y: top },
      thickness: 0.4,
      color: RULE,
    });
  }
  w.page.drawRectangle({
    x: MARGIN,
    y: top - (rows.length + 1) * rowHeight,
    width: WIDTH,
    height: (rows.length + 1) * rowHeight,
    borderColor: MUTED,
    borderWidth: 0.5,
  });
  w.y = top - (rows.length + 1) * rowHeight - 16;
}

const EVENT_COLUMNS = [0, 112, 180, 222, 282, 335] as const;

function duration(ms: number, fmt: Formatters): string {
  return ms < 1000 ? `${fmt.integer(ms)} ms` : `${fmt.number(ms / 1000, 3)} s`;
}

function eventRow(w: Writer, e: EventDto, fmt: Formatters, shaded: boolean): void {
  const t = w.texts;
  w.need(12);
  if (shaded) {
    w.page.drawRectangle({ x: MARGIN, y: w.y - 3, width: WIDTH, height: 11, color: SHADE });
  }
  const start = new Date(e.start);
  const phases = e.start_phase && e.end_phase && e.start_phase !== e.end_phase
    ? `${e.start_phase} → ${e.end_phase}`
    : e.start_phase ?? e.end_phase ?? "–";
  const extreme = e.type === "RVC"
    ? `ΔU ${fmt.number(e.delta_u_pct, 2)} %`
    : e.extreme_pct === null
    ? "–"
    : `${fmt.number(e.extreme_pct, 2)} %`;
  const cell = e.table_cell
    ? `${e.table_cell.table === "DIP" ? t.eventTypes.DIP : t.eventTypes.SWELL} ${
      (e.table_cell.table === "DIP" ? DIP_ROWS : SWELL_ROWS)[e.table_cell.row] ?? e.table_cell.row
    } · ${
      (e.table_cell.table === "DIP" ? DIP_COLUMNS : SWELL_COLUMNS)[e.table_cell.column] ??
        e.table_cell.column
    }`
    : "–";
  const cells = [
    `${fmt.day(start)} ${fmt.time(start)}`,
    t.eventTypes[e.type] ?? e.type,
    phases,
    duration(e.duration_ms, fmt),
    extreme,
    cell,
  ];
  cells.forEach((v, i) => {
    const width = (EVENT_COLUMNS[i + 1] ?? WIDTH) - EVENT_COLUMNS[i]! - 4;
    w.text(fit(w.regular, v, 7, width), MARGIN + 2 + EVENT_COLUMNS[i]!, { size: 7 });
  });
  w.line(7, 4);
}

/** The events page: EN 50160 tables, other counts and the list. */
export function eventPages(w: Writer, events: PeriodEvents, fmt: Formatters): void {
  const t = w.texts;
  w.newPage();
  w.heading(t.events);
  w.paragraph(t.eventsCaption, { size: 7, color: MUTED });
  w.line(0, 10);
  const { tables } = events;
  table(w, t.dipTable, t.residual, DIP_ROW_IDS, DIP_COLUMN_IDS, DIP_ROWS, DIP_COLUMNS, tables.dip);
  table(
    w,
    t.swellTable,
    t.swellVoltage,
    SWELL_ROW_IDS,
    SWELL_COLUMN_IDS,
    SWELL_ROWS,
    SWELL_COLUMNS,
    tables.swell,
  );
  const others: [string, number][] = [
    [t.interruptionsShort, tables.interruptions_short],
    [t.interruptionsLong, tables.interruptions_long],
    [t.rvc, tables.rvc],
    [t.msv, tables.msv],
    [t.outsideTables, tables.outside_tables],
  ];
  w.need(14 * others.length);
  for (const [label, n] of others) {
    w.text(label, MARGIN + 4, { size: 8 });
    w.textRight(fmt.integer(n), MARGIN + 260, { size: 8, bold: n > 0 });
    w.line(8, 5);
  }
  w.line(0, 10);
  w.heading(t.eventList, 60);
  if (!events.events.length) {
    w.text(t.noEvents, MARGIN, { size: 8, color: MUTED });
    w.line(8, 6);
    return;
  }
  if (events.total > events.events.length) {
    const note = t.eventsListed.replace("{shown}", fmt.integer(events.events.length))
      .replace("{total}", fmt.integer(events.total));
    w.text(note, MARGIN, { size: 7, color: MUTED });
    w.line(7, 6);
  }
  const header = () => {
    const labels = [t.start, t.type, t.phase, t.duration, t.extreme, t.tableCell];
    labels.forEach((h, i) =>
      w.text(h, MARGIN + 2 + EVENT_COLUMNS[i]!, { size: 7, bold: true, color: ACCENT })
    );
    w.line(7, 3);
    w.rule();
    w.line(0, 2);
  };
  header();
  events.events.forEach((e, k) => {
    if (w.y - 12 < MARGIN) {
      w.newPage();
      header();
    }
    eventRow(w, e, fmt, k % 2 === 1);
  });
}
