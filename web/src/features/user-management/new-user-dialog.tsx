import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../lib/api.ts";
import { useSession } from "../../lib/session-atoms.ts";
import type { CustomerDto as Customer } from "../../../../modules/customers/contract.ts";
import { usePasswordPolicy } from "../../lib/password-policy.ts";
import { useAction } from "../../lib/use-action.ts";
import { reachableStartPages } from "../../lib/user-rules.ts";
import { Button } from "../../ui/button.tsx";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "../../ui/dialog.tsx";
import { FormAlert } from "./form-alert.tsx";
import { draftAccess, UserForm } from "./user-form.tsx";
import { errorsFromServer, type UserFormErrors, validateDraft } from "./user-form-rules.ts";
import { emptyDraft, type ManagedUser, type UserDraft, usersApi } from "./users-api.ts";

/** New user: every field, a password with its live check and confirmation. */
export function NewUserDialog({
  open,
  customer,
  onOpenChange,
  onCreated,
}: {
  open: boolean;
  customer: Customer;
  onOpenChange: (open: boolean) => void;
  onCreated: (user: ManagedUser) => void;
}) {
  const { t } = useTranslation("users");
  const checkPassword = usePasswordPolicy();
  const { claims, config } = useSession();
  const [draft, setDraft] = useState<UserDraft>(() =>
    emptyDraft(customer.default_language ?? "en")
  );
  const [errors, setErrors] = useState<UserFormErrors>({});
  const [tried, setTried] = useState(false);

  useEffect(() => {
    if (!open) return;
    setDraft(emptyDraft(customer.default_language ?? "en"));
    setErrors({});
    setTried(false);
  }, [open, customer.default_language]);

  const check = (next: UserDraft) =>
    validateDraft(next, {
      passwordRequired: true,
      country: customer.country,
      startPages: reachableStartPages(draftAccess(next, customer, config)).map((p) => p.path),
      checkPassword,
    });
  const change = (next: UserDraft) => {
    setDraft(next);
    if (tried) setErrors(check(next));
  };
  const creation = useAction(async () => {
    try {
      onCreated(await usersApi.create(customer.key, draft));
    } catch (error) {
      setErrors(errorsFromServer(error instanceof ApiError ? error.body : null));
    }
  });
  const busy = creation.busy;
  const submit = async () => {
    setTried(true);
    const found = check(draft);
    setErrors(found);
    if (!Object.keys(found).length) await creation.run();
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[calc(100vh-2rem)] w-[min(64rem,calc(100vw-2rem))] overflow-y-auto">
        <DialogHeader>
          <DialogTitle>{t("create.title")}</DialogTitle>
          <DialogDescription>
            {t("create.description", { customer: customer.name || customer.auth_connection_name })}
          </DialogDescription>
        </DialogHeader>
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
          className="grid gap-4"
        >
          <UserForm
            draft={draft}
            onChange={change}
            errors={errors}
            mode="create"
            granter={{ role: claims.role, appsRoles: claims.appsRoles }}
            customer={customer}
            config={config}
            granted={[]}
          />
          <FormAlert message={errors.form} />
          <DialogFooter>
            <Button variant="secondary" onClick={() => onOpenChange(false)}>
              {t("actions.cancel")}
            </Button>
            <Button type="submit" disabled={busy} aria-busy={busy}>
              {t("create.submit")}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
