/**
 * The legend of a map coloured by state: what each colour (state), shape (element type), line
 * (MV feeder, LV grid), ring and size (clusters) means, and from which zoom names show.
 * Collapsible (remembered in the browser); open by default.
 */
import { ChevronDown, ChevronUp } from "lucide-react";
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { CLUSTER_SIZES, clusterShares } from "./clusters.ts";
import { type LegendItem, type MapState, ZOOM_RULES } from "./map-types.ts";
import { type SymbolKind, SYMBOLS } from "./symbols.ts";

const state = (s: MapState) => `var(--state-${s})`;
/** Whether the user closed the legend (it stays closed on every map until opened again). */
const LEGEND_KEY = "gw.map.legend";

function Shape({ kind, fill = "var(--muted-foreground)" }: { kind: SymbolKind; fill?: string }) {
  const size = SYMBOLS[kind].size;
  return (
    <svg aria-hidden viewBox="0 0 24 24" width={size} height={size} className="shrink-0">
      <path
        d={SYMBOLS[kind].path}
        fill={fill}
        stroke="var(--surface)"
        strokeWidth={3}
        paintOrder="stroke"
      />
    </svg>
  );
}

/** A sample ring of state shares (the look of a cluster). */
function Ring({ size }: { size: number }) {
  const r = 12 - 2.5;
  const circumference = 2 * Math.PI * r;
  const shares = clusterShares({ ok: 5, warning: 2, critical: 1, offline: 1, unknown: 0 });
  return (
    <svg aria-hidden viewBox="0 0 24 24" width={size} height={size} className="shrink-0">
      <circle cx={12} cy={12} r={11.5} fill="var(--surface)" />
      {shares.map((seg) => (
        <circle
          key={seg.state}
          cx={12}
          cy={12}
          r={r}
          fill="none"
          stroke={state(seg.state)}
          strokeWidth={4.5}
          strokeDasharray={`${(seg.to - seg.from) * circumference} ${circumference}`}
          strokeDashoffset={-seg.from * circumference}
          transform="rotate(-90 12 12)"
        />
      ))}
    </svg>
  );
}

function Row({ icon, children }: { icon: ReactNode; children: ReactNode }) {
  return (
    <li className="flex items-center gap-2">
      <span className="flex w-7 shrink-0 items-center justify-center">{icon}</span>
      <span>{children}</span>
    </li>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="grid gap-1">
      <h3 className="font-semibold text-muted-foreground">{title}</h3>
      <ul className="grid gap-1">{children}</ul>
    </section>
  );
}

export function MapLegend({
  states,
  kinds,
  network,
  overlays,
}: {
  /** The states the screen uses, with their labels (colours). */
  states: readonly LegendItem[];
  /** The element types on the map (shapes). */
  kinds: readonly SymbolKind[];
  /** Whether the network's lines are drawn. */
  network: { mv: boolean; lv: boolean };
  /** Whether uploaded layers are drawn. */
  overlays: boolean;
}) {
  const { t } = useTranslation(["common", "infrastructure"]);
  const [open, setOpenState] = useState(() => {
    try {
      return window.localStorage.getItem(LEGEND_KEY) !== "closed";
    } catch {
      return true;
    }
  });
  const setOpen = (next: boolean) => {
    setOpenState(next);
    try {
      window.localStorage.setItem(LEGEND_KEY, next ? "open" : "closed");
    } catch {
      // Remembering is a convenience only.
    }
  };
  const line = (width: number, colour: string, dashed = false) => (
    <svg aria-hidden width={24} height={10} className="shrink-0">
      <line
        x1={2}
        y1={5}
        x2={22}
        y2={5}
        stroke={colour}
        strokeWidth={width}
        strokeLinecap="round"
        strokeDasharray={dashed ? "4 3" : undefined}
      />
    </svg>
  );
  const kindLabel = (kind: SymbolKind) =>
    kind === "station"
      ? t("map.legend.station")
      : kind === "node"
      ? t("map.legend.node")
      : t(`infrastructure:electricalWorkTypes.${kind}`);
  const sizes = CLUSTER_SIZES.map((s, i) => {
    const next = CLUSTER_SIZES[i + 1];
    return next ? `${s.from}–${next.from - 1}` : `${s.from}+`;
  });
  return (
    <div
      data-testid="map-legend"
      className="absolute bottom-2 left-2 max-h-[calc(100%-1rem)] max-w-72 overflow-auto rounded-md border bg-surface/95 text-xs shadow-sm"
    >
      <button
        type="button"
        className="flex w-full items-center justify-between gap-3 px-2.5 py-1.5 font-semibold"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
      >
        {t("map.legend.title")}
        {open
          ? <ChevronDown aria-hidden className="size-3.5" />
          : <ChevronUp aria-hidden className="size-3.5" />}
      </button>
      {open
        ? (
          <div className="grid gap-2 px-2.5 pb-2">
            <Section title={t("map.legend.colours")}>
              {states.map((item) => (
                <Row
                  key={item.label}
                  icon={
                    <span
                      className="inline-block size-3 rounded-full"
                      style={{ background: "state" in item ? state(item.state) : undefined }}
                    />
                  }
                >
                  {item.label}
                </Row>
              ))}
            </Section>
            {kinds.length
              ? (
                <Section title={t("map.legend.shapes")}>
                  {kinds.map((kind) => (
                    <Row
                      key={kind}
                      icon={
                        <Shape
                          kind={kind}
                          fill={kind === "station" ? "var(--foreground)" : undefined}
                        />
                      }
                    >
                      {kindLabel(kind)}
                    </Row>
                  ))}
                </Section>
              )
              : null}
            {network.mv || network.lv || overlays
              ? (
                <Section title={t("map.legend.lines")}>
                  {network.mv
                    ? (
                      <Row icon={line(5, "var(--muted-foreground)")}>
                        {t("map.legend.mvLine")}
                      </Row>
                    )
                    : null}
                  {network.lv
                    ? (
                      <Row icon={line(2.5, "var(--muted-foreground)")}>
                        {t("map.legend.lvLine")}
                      </Row>
                    )
                    : null}
                  {network.mv || network.lv
                    ? <li className="text-muted-foreground">{t("map.legend.lineColour")}</li>
                    : null}
                  {overlays
                    ? (
                      <Row icon={line(2, "var(--muted-foreground)", true)}>
                        {t("map.legend.overlay")}
                      </Row>
                    )
                    : null}
                </Section>
              )
              : null}
            <Section title={t("map.legend.clusters")}>
              <Row icon={<Ring size={24} />}>{t("map.legend.cluster")}</Row>
              <li className="flex items-end gap-1.5 text-muted-foreground">
                <span className="self-center">{t("map.legend.clusterSize")}</span>
                {CLUSTER_SIZES.map((s, i) => (
                  <span key={s.from} className="grid justify-items-center gap-0.5">
                    <svg aria-hidden width={s.size / 2} height={s.size / 2} viewBox="0 0 24 24">
                      <circle
                        cx={12}
                        cy={12}
                        r={10}
                        fill="none"
                        stroke="var(--muted-foreground)"
                        strokeWidth={3}
                      />
                    </svg>
                    <span className="tabular">{sizes[i]}</span>
                  </span>
                ))}
              </li>
            </Section>
            <p className="text-muted-foreground" data-testid="map-legend-zoom">
              {t("map.legend.names", {
                station: ZOOM_RULES.station.named,
                mv: ZOOM_RULES.mvFeederGroup.named,
                lv: ZOOM_RULES.lvGroup.named,
                work: ZOOM_RULES.electricalWork.named,
              })}
            </p>
          </div>
        )
        : null}
    </div>
  );
}
