/** Create or rename a group of the grid structure; a station group also has coordinates. */
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { FormField } from "../../../ui/form-field.tsx";
import { Input } from "../../../ui/input.tsx";
import { FormDialog, type Messages, useMessageText, useSave } from "./form-dialog.tsx";
import {
  coordinateMessage,
  GRID_NAME,
  nameMessage,
  parseNumber,
  type RuleMessage,
} from "./rules.ts";

/** What a group dialog edits. */
export type GroupKind = "station" | "mvFeederGroup" | "lvGroup";

/** The values a group dialog saves. */
export interface GroupValue {
  name: string;
  latitude: number | null;
  longitude: number | null;
}

/** Create or rename a group; a station group also has optional coordinates. */
export function GroupDialog({
  kind,
  initial,
  open,
  onOpenChange,
  onSubmit,
}: {
  kind: GroupKind;
  initial?: { name: string; latitude?: number | null; longitude?: number | null };
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onSubmit: (value: GroupValue) => Promise<unknown>;
}) {
  const { t } = useTranslation("infrastructure");
  const text = useMessageText();
  const [name, setName] = useState(initial?.name ?? "");
  const [lat, setLat] = useState(initial?.latitude?.toString() ?? "");
  const [lng, setLng] = useState(initial?.longitude?.toString() ?? "");
  const [touched, setTouched] = useState(false);
  const { busy, formError, serverFields, save } = useSave(() => onOpenChange(false));
  const latitude = parseNumber(lat), longitude = parseNumber(lng);
  const messages: Messages = {};
  const add = (path: string, m: RuleMessage | null) => m && (messages[path] = m);
  add("name", nameMessage(name, GRID_NAME));
  if (kind === "station") {
    add("latitude", coordinateMessage(latitude, 90, false));
    add("longitude", coordinateMessage(longitude, 180, false));
  }
  const shown = (path: string) =>
    text((touched ? messages[path] : undefined) ?? serverFields[path]);
  const coordinate = (field: "latitude" | "longitude", value: string, set: (v: string) => void) => (
    <FormField label={t(`fields.${field}Optional`)} error={shown(field)}>
      {(p) => (
        <Input
          {...p}
          inputMode="decimal"
          value={value}
          onChange={(e) => set(e.target.value)}
        />
      )}
    </FormField>
  );
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={t(`dialogs.${initial ? "edit" : "create"}.${kind}`)}
      busy={busy}
      error={formError}
      onSubmit={() => {
        setTouched(true);
        if (Object.keys(messages).length) return;
        void save(() => onSubmit({ name: name.trim(), latitude, longitude }));
      }}
    >
      <FormField label={t("fields.name")} error={shown("name")} hint={t("hints.gridName")}>
        {(p) => <Input {...p} value={name} autoFocus onChange={(e) => setName(e.target.value)} />}
      </FormField>
      {kind === "station"
        ? (
          <div className="grid grid-cols-2 gap-3">
            {coordinate("latitude", lat, setLat)}
            {coordinate("longitude", lng, setLng)}
          </div>
        )
        : null}
    </FormDialog>
  );
}
