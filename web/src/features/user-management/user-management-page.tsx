import { getRouteApi, Link } from "@tanstack/react-router";
import { useAtomValue } from "jotai";
import { CircleCheck, CircleMinus, Search, UserPlus } from "lucide-react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { customerAtom, useSession } from "../../lib/session-atoms.ts";
import { useAsync } from "../../lib/use-async.ts";
import { SEARCH_DELAY_MS, USERS_PAGE_SIZE } from "../../lib/user-rules.ts";
import { Button } from "../../ui/button.tsx";
import { Input } from "../../ui/input.tsx";
import { AsyncState } from "../../ui/loader.tsx";
import { Page } from "../../ui/page.tsx";
import { Pager } from "../../ui/pager.tsx";
import { HeadCell, Table, TableBody, TableHead } from "../../ui/table.tsx";
import { Toast } from "../../ui/toast.tsx";
import { NewUserDialog } from "./new-user-dialog.tsx";
import { type ManagedUser, usersApi } from "./users-api.ts";
import { useFormatters } from "../../lib/use-formatters.ts";

const route = getRouteApi("/user-management");

/** User Management (spec 2.1): 17 users per page, a delayed search, and New user. */
export function UserManagementPage() {
  const { t } = useTranslation(["users", "modules", "common"]);
  const format = useFormatters();
  const { customer: ownCustomer } = useSession();
  const customer = useAtomValue(customerAtom) ?? ownCustomer;
  const navigate = route.useNavigate();
  const query = route.useSearch();
  const search = (query.search ?? "").slice(0, 100);
  const page = query.page ?? 1;
  const [typed, setTyped] = useState(search);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<string | null>(null);

  const go = (next: { search: string; page: number }) =>
    void navigate({ search: { search: next.search || undefined, page: next.page }, replace: true });

  useEffect(() => {
    if (typed === search) return;
    const timer = window.setTimeout(() => go({ search: typed.trim(), page: 1 }), SEARCH_DELAY_MS);
    return () => window.clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [typed]);

  const list = useAsync(
    (signal) => usersApi.list({ customer: customer.key, search, page }, signal),
    [customer.key, search, page],
  );
  const formatLogin = (iso: string | null) => iso ? format.dateTime(iso) : t("list.never");

  return (
    <Page
      title={t("modules:user-management.title")}
      subtitle={t("list.subtitle", { customer: customer.name || customer.auth_connection_name })}
      actions={
        <Button onClick={() => setCreating(true)}>
          <UserPlus aria-hidden />
          {t("list.newUser")}
        </Button>
      }
    >
      <div className="relative max-w-sm">
        <Search
          aria-hidden
          className="pointer-events-none absolute left-2 top-2 size-4 text-muted-foreground"
        />
        <Input
          type="search"
          aria-label={t("list.search")}
          placeholder={t("list.searchPlaceholder")}
          className="pl-8"
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
        />
      </div>
      <div className="min-h-0 flex-1 overflow-auto rounded-lg border bg-surface">
        <AsyncState state={list} onRetry={list.reload}>
          {(data) => (
            <>
              <Table>
                <TableHead sticky className="bg-surface-muted">
                  <tr>
                    <HeadCell className="px-3 py-2 first:pl-3">{t("fields.name")}</HeadCell>
                    <HeadCell className="px-3 py-2">{t("fields.email")}</HeadCell>
                    <HeadCell className="px-3 py-2">{t("fields.role")}</HeadCell>
                    <HeadCell className="px-3 py-2">{t("fields.startPage")}</HeadCell>
                    <HeadCell className="px-3 py-2">{t("fields.latestLogin")}</HeadCell>
                    <HeadCell className="px-3 py-2 last:pr-3">{t("fields.state")}</HeadCell>
                  </tr>
                </TableHead>
                <TableBody className="divide-y">
                  {data.items.map((user) => (
                    <UserRow
                      key={user.user_id}
                      user={user}
                      login={formatLogin(user.latest_login)}
                    />
                  ))}
                </TableBody>
              </Table>
              {data.items.length === 0
                ? (
                  <p className="p-6 text-center text-sm text-muted-foreground">
                    {search ? t("list.noMatch", { search }) : t("list.empty")}
                  </p>
                )
                : null}
              <Pager
                total={data.total}
                page={page}
                pageSize={USERS_PAGE_SIZE}
                onPage={(next) => go({ search, page: next })}
                label={t("list.pages")}
              />
            </>
          )}
        </AsyncState>
      </div>
      <NewUserDialog
        open={creating}
        customer={customer}
        onOpenChange={setCreating}
        onCreated={(user) => {
          setCreating(false);
          setCreated(user.name);
          list.reload();
        }}
      />
      <Toast open={created !== null} onOpenChange={(open) => !open && setCreated(null)}>
        {t("list.created", { name: created ?? "" })}
      </Toast>
    </Page>
  );
}

function UserRow({ user, login }: { user: ManagedUser; login: string }) {
  const { t } = useTranslation("users");
  return (
    <tr className="hover:bg-surface-muted">
      <td className="px-3 py-1.5">
        <Link
          to="/user-management/$cid/$id"
          params={{ cid: user.customer_key, id: user.user_id }}
          className="font-medium text-primary hover:underline"
        >
          {user.name}
        </Link>
      </td>
      <td className="px-3 py-1.5">{user.email}</td>
      <td className="px-3 py-1.5">{t(`roles.${user.role}`)}</td>
      <td className="px-3 py-1.5 text-muted-foreground">{user.start_page ?? t("list.default")}</td>
      <td className="px-3 py-1.5 tabular text-muted-foreground">{login}</td>
      <td className="px-3 py-1.5">
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
      </td>
    </tr>
  );
}
