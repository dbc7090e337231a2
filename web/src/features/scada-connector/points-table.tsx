import { ArrowDown, ArrowUp, GripVertical } from "lucide-react";
import { type KeyboardEvent, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { PointDto } from "../../../../modules/scada/contract.ts";
import { Button } from "../../ui/button.tsx";
import { Cell, HeadCell, Row, Table, TableBody, TableHead } from "../../ui/table.tsx";
import { cn } from "../../ui/cn.ts";
import { moveItem } from "./scada-rules.ts";

/**
 * The point list in feeder order. The order changes by dragging a row (its grip), from the
 * keyboard on the grip (Space picks the point up, the arrow keys, Page Up/Down, Home and End move
 * it, Space or Enter drops it, Escape puts it back; each step announced), or with the up and down
 * buttons of each row.
 */
export function PointsTable({ points, onChange }: {
  points: PointDto[];
  onChange: (next: PointDto[]) => void;
}) {
  const { t } = useTranslation("scada");
  const [dragged, setDragged] = useState<number | null>(null);
  const [over, setOver] = useState<number | null>(null);
  /** The point picked up from the keyboard (its address) and the order before it. */
  const [grabbed, setGrabbed] = useState<{ ioa: number; before: PointDto[] } | null>(null);
  const [announcement, setAnnouncement] = useState("");
  const body = useRef<HTMLDivElement>(null);
  const focusIoa = useRef<number | null>(null);

  // A moved row is a moved DOM node, which loses focus: the grip of the moved point gets it back.
  useEffect(() => {
    if (focusIoa.current === null) return;
    body.current?.querySelector<HTMLElement>(`[data-grip="${focusIoa.current}"]`)?.focus();
    focusIoa.current = null;
  });

  /** Moves a point; from the keyboard (`announce`) its grip keeps the focus and says where. */
  const moveTo = (from: number, to: number, announce = true) => {
    const next = moveItem(points, from, to);
    if (next === points) return;
    const moved = points[from]!;
    if (announce) focusIoa.current = moved.ioa;
    onChange(next);
    if (announce) {
      setAnnouncement(
        t("points.moved", {
          ioa: moved.ioa,
          position: next.indexOf(moved) + 1,
          count: next.length,
        }),
      );
    }
  };

  const onGripKey = (event: KeyboardEvent, k: number, p: PointDto) => {
    if (event.key === " " || event.key === "Enter") {
      event.preventDefault();
      if (grabbed) {
        setGrabbed(null);
        setAnnouncement(t("points.dropped", { ioa: p.ioa, position: k + 1 }));
      } else {
        setGrabbed({ ioa: p.ioa, before: points });
        setAnnouncement(t("points.grabbed", { ioa: p.ioa }));
      }
      return;
    }
    if (event.key === "Escape" && grabbed) {
      event.preventDefault();
      focusIoa.current = p.ioa;
      onChange(grabbed.before);
      setGrabbed(null);
      setAnnouncement(t("points.cancelled", { ioa: p.ioa }));
      return;
    }
    if (!grabbed || grabbed.ioa !== p.ioa) return;
    const by: Record<string, number> = {
      ArrowUp: k - 1,
      ArrowDown: k + 1,
      PageUp: k - 10,
      PageDown: k + 10,
      Home: 0,
      End: points.length - 1,
    };
    const target = by[event.key];
    if (target === undefined) return;
    event.preventDefault();
    moveTo(k, target);
  };

  const endDrag = () => {
    setDragged(null);
    setOver(null);
  };

  return (
    <div ref={body}>
      <p className="sr-only" aria-live="assertive" data-testid="scada-points-announcement">
        {announcement}
      </p>
      <Table data-testid="scada-points">
        <TableHead sticky>
          <Row>
            <HeadCell className="w-8">
              <span className="sr-only">{t("points.drag")}</span>
            </HeadCell>
            <HeadCell numeric>{t("columns.ioa")}</HeadCell>
            <HeadCell>{t("columns.element")}</HeadCell>
            <HeadCell>{t("columns.quantity")}</HeadCell>
            <HeadCell>{t("columns.dataType")}</HeadCell>
            <HeadCell>{t("columns.activated")}</HeadCell>
            <HeadCell>{t("columns.order")}</HeadCell>
          </Row>
        </TableHead>
        <TableBody>
          {points.map((p, k) => (
            <Row
              key={p.ioa}
              data-ioa={p.ioa}
              draggable
              onDragStart={(e) => {
                e.dataTransfer.effectAllowed = "move";
                e.dataTransfer.setData("text/plain", String(p.ioa));
                setDragged(k);
              }}
              onDragOver={(e) => {
                if (dragged === null) return;
                e.preventDefault();
                e.dataTransfer.dropEffect = "move";
                if (over !== k) setOver(k);
              }}
              onDrop={(e) => {
                e.preventDefault();
                if (dragged !== null) moveTo(dragged, k, false);
                endDrag();
              }}
              onDragEnd={endDrag}
              className={cn(
                dragged === k && "opacity-50",
                over === k && dragged !== null && dragged !== k &&
                  (dragged < k ? "border-b-2 border-b-primary" : "border-t-2 border-t-primary"),
                grabbed?.ioa === p.ioa && "bg-accent",
              )}
            >
              <Cell>
                <button
                  type="button"
                  data-grip={p.ioa}
                  className="flex h-7 w-6 cursor-grab items-center justify-center rounded text-muted-foreground focus-visible:outline focus-visible:outline-2 focus-visible:outline-ring active:cursor-grabbing"
                  aria-label={t("points.gripLabel", { ioa: p.ioa })}
                  aria-pressed={grabbed?.ioa === p.ioa}
                  aria-describedby="scada-drag-help"
                  onKeyDown={(e) => onGripKey(e, k, p)}
                  onBlur={() => {
                    if (grabbed?.ioa === p.ioa && focusIoa.current === null) setGrabbed(null);
                  }}
                >
                  <GripVertical aria-hidden className="size-4" />
                </button>
              </Cell>
              <Cell numeric>{p.ioa}</Cell>
              <Cell>
                {p.element_name}
                {p.known
                  ? null
                  : <span className="ml-1 text-xs text-state-warning">({t("points.unknown")})
                  </span>}
              </Cell>
              <Cell>{t(`quantities.${p.quantity}`, { phase: p.phase ?? "" })}</Cell>
              <Cell className="text-xs text-muted-foreground">
                {t(`dataTypes.${p.data_type}`)}
              </Cell>
              <Cell>
                <input
                  type="checkbox"
                  checked={p.activated}
                  aria-label={t("columns.activated")}
                  onChange={(e) =>
                    onChange(
                      points.map((q, j) => j === k ? { ...q, activated: e.target.checked } : q),
                    )}
                />
              </Cell>
              <Cell>
                <div className="flex gap-1">
                  <Button
                    variant="ghost"
                    size="icon"
                    aria-label={t("points.up")}
                    disabled={k === 0}
                    onClick={() => moveTo(k, k - 1, false)}
                  >
                    <ArrowUp aria-hidden />
                  </Button>
                  <Button
                    variant="ghost"
                    size="icon"
                    aria-label={t("points.down")}
                    disabled={k === points.length - 1}
                    onClick={() => moveTo(k, k + 1, false)}
                  >
                    <ArrowDown aria-hidden />
                  </Button>
                </div>
              </Cell>
            </Row>
          ))}
        </TableBody>
      </Table>
      <p id="scada-drag-help" hidden>{t("points.dragHelp")}</p>
    </div>
  );
}
