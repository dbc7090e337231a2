/**
 * The station group > MV feeder group > LV group > node tree, drawn by one recursive item from a
 * table of levels: each level names its icon, its children (and their level), the dialog that
 * adds a child and the one that edits the item.
 */
import {
  ChevronDown,
  ChevronRight,
  CircuitBoard,
  Factory,
  GitFork,
  Network,
  Pencil,
  Plus,
  Trash2,
  Zap,
} from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../../ui/button.tsx";
import { cn } from "../../../ui/cn.ts";
import type { GridNode, LvGroup, MvFeederGroup, StationGroup } from "./grid-api.ts";
import type { Selection } from "./grid-items.ts";
import type { DialogState, SetDialog } from "./structure-dialogs.tsx";

type Kind = Selection["kind"];
type Item = StationGroup | MvFeederGroup | LvGroup | GridNode;

/** One level of the tree. `parent` is the item above (the LV group of a node). */
interface Level {
  icon: (item: Item) => ReactNode;
  /** The children and their kind; none below nodes. */
  children?: (item: Item) => { kind: Kind; items: Item[] };
  /** The dialog that adds a child (its label: `actions.addChild.<kind>`). */
  add?: (item: Item) => DialogState;
  edit: (item: Item, parent: Item | null) => DialogState;
}

const LEVELS: Record<Kind, Level> = {
  station: {
    icon: () => <Factory />,
    children: (s) => ({ kind: "mvFeederGroup", items: (s as StationGroup).mv_feeder_groups }),
    add: (s) => ({ type: "group", kind: "mvFeederGroup", parentId: s.id }),
    edit: (s) => ({ type: "group", kind: "station", edit: s as StationGroup }),
  },
  mvFeederGroup: {
    icon: () => <GitFork />,
    children: (mv) => ({ kind: "lvGroup", items: (mv as MvFeederGroup).lv_groups }),
    add: (mv) => ({ type: "group", kind: "lvGroup", parentId: mv.id }),
    edit: (mv) => ({ type: "group", kind: "mvFeederGroup", edit: mv }),
  },
  lvGroup: {
    icon: () => <Network />,
    children: (lv) => ({ kind: "node", items: (lv as LvGroup).nodes }),
    add: (lv) => ({ type: "node", lvGroup: lv as LvGroup }),
    edit: (lv) => ({ type: "group", kind: "lvGroup", edit: lv }),
  },
  node: {
    icon: (n) =>
      (n as GridNode).electrical_work.type === "MV_LV_STATION" ? <Zap /> : <CircuitBoard />,
    edit: (n, lv) => ({ type: "node", lvGroup: lv as LvGroup, node: n as GridNode }),
  },
};

/** What every item of the tree needs. */
export interface TreeProps {
  collapsed: Set<string>;
  toggle: (id: string) => void;
  selection: Selection | null;
  select: (selection: Selection) => void;
  canEdit: boolean;
  setDialog: SetDialog;
}

/** A small icon button with its label as tooltip. */
export function IconAction(
  { label, onClick, children }: { label: string; onClick: () => void; children: ReactNode },
) {
  return (
    <Button
      variant="ghost"
      size="icon"
      className="size-7"
      aria-label={label}
      title={label}
      onClick={onClick}
    >
      {children}
    </Button>
  );
}

/** The tree of the customer's station groups. */
export function StructureTree({ groups, ...props }: { groups: StationGroup[] } & TreeProps) {
  const { t } = useTranslation("infrastructure");
  return (
    <ul role="tree" aria-label={t("tree.label")}>
      {groups.map((station) => (
        <TreeItem
          key={station.id}
          kind="station"
          item={station}
          parent={null}
          depth={0}
          {...props}
        />
      ))}
    </ul>
  );
}

/** One item and, when open, its children (recursively). */
function TreeItem({
  kind,
  item,
  parent,
  depth,
  ...props
}: { kind: Kind; item: Item; parent: Item | null; depth: number } & TreeProps) {
  const { t } = useTranslation("infrastructure");
  const level = LEVELS[kind];
  const children = level.children?.(item);
  const count = children?.items.length ?? 0;
  const expandable = count > 0;
  const open = !props.collapsed.has(item.id);
  const selected = props.selection?.id === item.id;
  const meta = children
    ? t(`tree.count.${children.kind}`, { count })
    : t("tree.count.feeder", { count: (item as GridNode).feeders.length });
  return (
    <li
      role="treeitem"
      aria-expanded={children ? open : undefined}
      aria-selected={selected}
    >
      <div
        className={cn(
          "group flex h-8 items-center gap-1 rounded-md pr-1 text-sm",
          selected ? "bg-accent text-accent-foreground" : "hover:bg-surface-muted",
        )}
        style={{ paddingLeft: `${depth * 1.1 + 0.25}rem` }}
      >
        {expandable
          ? (
            <button
              type="button"
              className="flex size-5 items-center justify-center rounded text-muted-foreground hover:text-foreground"
              aria-label={t(open ? "tree.collapse" : "tree.expand", { name: item.name })}
              onClick={() => props.toggle(item.id)}
            >
              {open
                ? <ChevronDown className="size-4" aria-hidden />
                : <ChevronRight className="size-4" aria-hidden />}
            </button>
          )
          : <span className="size-5" />}
        <button
          type="button"
          className="flex min-w-0 flex-1 items-center gap-1.5 text-left"
          aria-current={selected || undefined}
          onClick={() => props.select({ kind, id: item.id } as Selection)}
        >
          <span className="text-muted-foreground [&_svg]:size-4">{level.icon(item)}</span>
          <span className="truncate font-medium">{item.name}</span>
          <span className="truncate text-xs text-muted-foreground">{meta}</span>
        </button>
        {props.canEdit
          ? (
            <span className="flex shrink-0 items-center opacity-70 group-hover:opacity-100">
              {level.add && children
                ? (
                  <IconAction
                    label={t(`actions.addChild.${children.kind}`, { name: item.name })}
                    onClick={() => props.setDialog(level.add!(item))}
                  >
                    <Plus aria-hidden />
                  </IconAction>
                )
                : null}
              <IconAction
                label={t("actions.editNamed", { name: item.name })}
                onClick={() => props.setDialog(level.edit(item, parent))}
              >
                <Pencil aria-hidden />
              </IconAction>
              <IconAction
                label={t("actions.deleteNamed", { name: item.name })}
                onClick={() =>
                  props.setDialog({
                    type: "delete",
                    what: { kind, id: item.id } as Selection,
                    name: item.name,
                  })}
              >
                <Trash2 aria-hidden />
              </IconAction>
            </span>
          )
          : null}
      </div>
      {children && open && count
        ? (
          <ul role="group">
            {children.items.map((child) => (
              <TreeItem
                key={child.id}
                kind={children.kind}
                item={child}
                parent={item}
                depth={depth + 1}
                {...props}
              />
            ))}
          </ul>
        )
        : null}
    </li>
  );
}
