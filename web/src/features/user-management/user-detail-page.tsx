import { getRouteApi, Link, useNavigate } from "@tanstack/react-router";
import { useAtomValue } from "jotai";
import { ArrowLeft, Ban, CircleCheck, CircleMinus, Power, Trash2 } from "lucide-react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../lib/api.ts";
import { customersAtom, useSession } from "../../lib/session-atoms.ts";
import { useAsync } from "../../lib/use-async.ts";
import { usePasswordPolicy } from "../../lib/password-policy.ts";
import { reachableStartPages, ROLES } from "../../lib/user-rules.ts";
import { Button } from "../../ui/button.tsx";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "../../ui/dialog.tsx";
import { AsyncState } from "../../ui/loader.tsx";
import { Page } from "../../ui/page.tsx";
import { Toast } from "../../ui/toast.tsx";
import { FormAlert } from "./form-alert.tsx";
import { draftAccess, UserForm } from "./user-form.tsx";
import { errorsFromServer, type UserFormErrors, validateDraft } from "./user-form-rules.ts";
import { draftOf, type ManagedUser, type UserDraft, usersApi } from "./users-api.ts";
import { useFormatters } from "../../lib/use-formatters.ts";
import { useAction } from "../../lib/use-action.ts";

const detailRoute = getRouteApi("/user-management/$cid/$id");

/** /user-management/:cid/:id: every field of one user, disable/enable and delete. */
export function UserDetailPage() {
  const { cid, id } = detailRoute.useParams();
  const loaded = useAsync((signal) => usersApi.get(cid, id, signal), [cid, id]);
  return (
    <AsyncState state={loaded} onRetry={loaded.reload}>
      {(user) => <UserEditor key={user.user_id} initial={user} />}
    </AsyncState>
  );
}

function UserEditor({ initial }: { initial: ManagedUser }) {
  const { t } = useTranslation(["users", "modules", "errors"]);
  const format = useFormatters();
  const checkPassword = usePasswordPolicy();
  const { claims, config, customer: own } = useSession();
  const customers = useAtomValue(customersAtom);
  const customer = customers.find((c) => c.key === initial.customer_key) ?? own;
  const navigate = useNavigate();
  const [user, setUser] = useState(initial);
  const [draft, setDraft] = useState<UserDraft>(() => draftOf(initial));
  const [errors, setErrors] = useState<UserFormErrors>({});
  const [saved, setSaved] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const self = user.user_id === claims.userId;
  const aboveMe = ROLES.indexOf(user.role) > ROLES.indexOf(claims.role);

  const check = (next: UserDraft) =>
    validateDraft(next, {
      passwordRequired: false,
      country: customer.country,
      startPages: reachableStartPages(draftAccess(next, customer, config)).map((p) => p.path),
      checkPassword,
    });
  const [tried, setTried] = useState(false);
  useEffect(() => {
    if (tried) setErrors(check(draft));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [draft, tried]);

  // Save, disable/enable, delete: a refusal goes to its field or to the form.
  const action = useAction(async (call: () => Promise<void>) => {
    try {
      await call();
    } catch (error) {
      setErrors(errorsFromServer(error instanceof ApiError ? error.body : null));
    }
  });
  const run = action.run;
  const busy = action.busy;
  const save = () => {
    setTried(true);
    const found = check(draft);
    setErrors(found);
    if (Object.keys(found).length) return;
    void run(async () => {
      const next = await usersApi.update(user.customer_key, user.user_id, draft);
      setUser(next);
      setDraft(draftOf(next));
      setTried(false);
      setSaved(true);
    });
  };
  const toggle = () =>
    void run(async () => {
      setUser(await usersApi.setDisabled(user.customer_key, user.user_id, !user.disabled));
    });
  const remove = () =>
    void run(async () => {
      await usersApi.remove(user.customer_key, user.user_id);
      await navigate({ to: "/user-management" });
    });

  const latest = user.latest_login ? format.dateTime(user.latest_login) : t("list.never");

  return (
    <Page
      title={user.name}
      subtitle={
        <span className="inline-flex flex-wrap items-center gap-x-3 gap-y-1">
          <span>{t(`roles.${user.role}`)}</span>
          {user.disabled
            ? (
              <span className="inline-flex items-center gap-1 text-state-offline">
                <CircleMinus aria-hidden className="size-4" />
                {t("state.disabled")}
              </span>
            )
            : (
              <span className="inline-flex items-center gap-1 text-state-ok">
                <CircleCheck aria-hidden className="size-4" />
                {t("state.active")}
              </span>
            )}
          <span>{t("detail.latestLogin", { date: latest })}</span>
        </span>
      }
      actions={
        <>
          <Button variant="ghost" asChild>
            <Link to="/user-management">
              <ArrowLeft aria-hidden />
              {t("detail.back")}
            </Link>
          </Button>
          <Button
            variant="secondary"
            onClick={toggle}
            disabled={busy || self || aboveMe}
            title={self ? t("detail.selfLockout") : undefined}
          >
            {user.disabled ? <Power aria-hidden /> : <Ban aria-hidden />}
            {user.disabled ? t("actions.enable") : t("actions.disable")}
          </Button>
          <Button
            variant="danger"
            onClick={() => setConfirmDelete(true)}
            disabled={busy || self || aboveMe}
            title={self ? t("detail.selfLockout") : undefined}
          >
            <Trash2 aria-hidden />
            {t("actions.delete")}
          </Button>
        </>
      }
    >
      {aboveMe ? <FormAlert message={{ key: "users.roleAboveOwn" }} /> : null}
      <form
        noValidate
        className="grid gap-4 rounded-lg border bg-surface p-4"
        onSubmit={(e) => {
          e.preventDefault();
          save();
        }}
      >
        <UserForm
          draft={draft}
          onChange={setDraft}
          errors={errors}
          mode="edit"
          granter={{ role: claims.role, appsRoles: claims.appsRoles }}
          customer={customer}
          config={config}
          granted={initial.apps_roles}
          passwordSettable={!self}
        />
        <FormAlert message={errors.form} />
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={() => setDraft(draftOf(user))} disabled={busy}>
            {t("actions.reset")}
          </Button>
          <Button type="submit" disabled={busy || aboveMe} aria-busy={busy}>
            {t("actions.save")}
          </Button>
        </div>
      </form>
      <Dialog open={confirmDelete} onOpenChange={setConfirmDelete}>
        <DialogContent role="alertdialog">
          <DialogHeader>
            <DialogTitle>{t("detail.deleteTitle", { name: user.name })}</DialogTitle>
            <DialogDescription>{t("errors:validation.deleteConfirm")}</DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button variant="secondary" onClick={() => setConfirmDelete(false)}>
              {t("actions.cancel")}
            </Button>
            <Button
              variant="danger"
              disabled={busy}
              onClick={() => {
                setConfirmDelete(false);
                remove();
              }}
            >
              {t("errors:validation.deleteConfirmButton")}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
      <Toast open={saved} onOpenChange={setSaved}>{t("detail.saved")}</Toast>
    </Page>
  );
}
