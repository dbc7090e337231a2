/**
 * What the grid structure's dialogs share: a form in a dialog with Cancel and Save, the form's
 * refusal, and a save that puts the server's field errors (`{path, key, params}`, read by the
 * one parser lib/field-errors.ts) on the fields and any other refusal on the form.
 */
import { type FormEvent, type ReactNode, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../../lib/api.ts";
import { fieldIssuesOf } from "../../../lib/field-errors.ts";
import { useAction } from "../../../lib/use-action.ts";
import { useErrorText } from "../../../lib/use-error-text.ts";
import { Button } from "../../../ui/button.tsx";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "../../../ui/dialog.tsx";
import { Notice } from "../../../ui/notice.tsx";
import type { RuleMessage } from "./rules.ts";

/** Messages by field path (`name`, `feeders.0.nominal_current_a`). */
export type Messages = Record<string, RuleMessage>;

/** Translates rule messages (namespace `errors`, the server's texts). */
export function useMessageText() {
  const { t } = useTranslation("errors");
  return (message: RuleMessage | undefined | null) =>
    message ? t(message.key, message.params ?? {}) : undefined;
}

/** Runs a save: field errors of a refused call go to the fields, other errors to the form. */
export function useSave(onDone: () => void) {
  const errorText = useErrorText();
  const action = useAction(async (call: () => Promise<unknown>) => {
    await call();
    onDone();
  });
  const { error } = action;
  const serverFields = useMemo((): Messages => {
    const issues = error instanceof ApiError ? fieldIssuesOf(error.body) : [];
    return Object.fromEntries(issues.map((i) => [i.path, { key: i.key, params: i.params }]));
  }, [error]);
  const formError = error && !Object.keys(serverFields).length ? errorText(error) : null;
  const save = async (call: () => Promise<unknown>) => {
    await action.run(call);
  };
  return { busy: action.busy, formError, serverFields, save, reset: action.reset };
}

/** A refused save of the whole form, with the catalogue code in small print. */
function FormError({ error }: { error: { text: string; code?: number } | null }) {
  if (!error) return null;
  return <Notice tone="critical" code={error.code}>{error.text}</Notice>;
}

/** A form in a dialog: title, fields, the form's refusal, Cancel and Save. */
export function FormDialog({
  open,
  onOpenChange,
  title,
  description,
  busy,
  error,
  onSubmit,
  children,
  wide,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: string;
  busy: boolean;
  error: { text: string; code?: number } | null;
  onSubmit: () => void;
  children: ReactNode;
  wide?: boolean;
}) {
  const { t } = useTranslation("infrastructure");
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        className={wide
          ? "max-h-[90vh] w-[min(48rem,calc(100vw-2rem))] overflow-y-auto"
          : undefined}
      >
        <form
          noValidate
          className="grid gap-4"
          onSubmit={(event: FormEvent) => {
            event.preventDefault();
            onSubmit();
          }}
        >
          <DialogHeader>
            <DialogTitle>{title}</DialogTitle>
            {description ? <DialogDescription>{description}</DialogDescription> : null}
          </DialogHeader>
          {children}
          <FormError error={error} />
          <DialogFooter>
            <Button variant="secondary" onClick={() => onOpenChange(false)}>
              {t("actions.cancel")}
            </Button>
            <Button type="submit" disabled={busy}>{t("actions.save")}</Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
