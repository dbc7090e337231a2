/** The list/map switch of the screens that show grid items both ways. */
import { List, Map as MapIcon } from "lucide-react";
import { SegmentedControl } from "../ui/segmented-control.tsx";

export type ListOrMap = "list" | "map";

/** A two-way segmented control with the list and map icons; the texts come translated. */
export function ListMapSwitch({
  value,
  onChange,
  labels,
}: {
  value: ListOrMap;
  onChange: (value: ListOrMap) => void;
  labels: { group: string; list: string; map: string };
}) {
  return (
    <SegmentedControl
      label={labels.group}
      value={value}
      onChange={onChange}
      options={[
        {
          value: "list",
          label: (
            <span className="inline-flex items-center gap-1">
              <List aria-hidden className="size-3.5" />
              {labels.list}
            </span>
          ),
        },
        {
          value: "map",
          label: (
            <span className="inline-flex items-center gap-1">
              <MapIcon aria-hidden className="size-3.5" />
              {labels.map}
            </span>
          ),
        },
      ]}
    />
  );
}
