/** Add or edit one feeder of a node. */
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { feederDraft, FeederFields, feederForm } from "./feeder-fields.tsx";
import { FormDialog, useMessageText, useSave } from "./form-dialog.tsx";
import type { Feeder } from "./grid-api.ts";
import { type FeederForm, feederMessages } from "./rules.ts";

/** Add or edit one feeder of a node; the form checks the server's rules before sending. */
export function FeederDialog({
  feeder,
  open,
  onOpenChange,
  onSubmit,
}: {
  feeder?: Feeder;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onSubmit: (input: FeederForm) => Promise<unknown>;
}) {
  const { t } = useTranslation("infrastructure");
  const text = useMessageText();
  const [draft, setDraft] = useState(() => feederDraft(feeder));
  const [touched, setTouched] = useState(false);
  const { busy, formError, serverFields, save } = useSave(() => onOpenChange(false));
  const input = feederForm(draft);
  const messages = feederMessages(input);
  const show = (field: string) =>
    text(
      (touched ? messages[field] : undefined) ??
        serverFields[field] ?? serverFields[`parameters.${field}`],
    );
  return (
    <FormDialog
      wide
      open={open}
      onOpenChange={onOpenChange}
      title={t(feeder ? "dialogs.edit.feeder" : "dialogs.create.feeder")}
      busy={busy}
      error={formError}
      onSubmit={() => {
        setTouched(true);
        if (Object.keys(messages).length) return;
        void save(() => onSubmit(input));
      }}
    >
      <FeederFields draft={draft} onChange={setDraft} show={show} />
    </FormDialog>
  );
}
