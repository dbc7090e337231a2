/**
 * Users of every customer: reads for the shell and the identity provider, and user management
 * (spec 2.1, 5, 6) with the access rules applied per call. See docs/decisions.md, "User
 * management", for the rights matrix.
 */
import { and, asc, count, eq, or, type SQL, sql } from "drizzle-orm";
import {
  AppError,
  type Db,
  type EventBus,
  hashPassword,
  isSuperRole,
  type Principal,
  type Role,
  validationError,
} from "../../kernel/mod.ts";
import { describeAccessChange, saveAccessChange } from "./access_store.ts";
import {
  kioskAllowed,
  type NewUserInput,
  type UserListQuery,
  type UserPageDto,
} from "./contract.ts";
import type { UserAccessChanged } from "./events.ts";
import {
  canGrantAppRole,
  canGrantRole,
  normalizeAppsRoles,
  normalizePhone,
  reachableStartPages,
  roleRank,
  USERS_PAGE_SIZE,
} from "./rules.ts";
import { type UserRow, users } from "./schema.ts";
import {
  acceptNewPassword,
  assertEmailFree,
  type CurrentUserDto,
  findRow,
  findRowByEmail,
  isUniqueViolation,
  type LoginUser,
  type ManagedUserDto,
  rememberPassword,
  toCurrentUser,
  toLoginUser,
  toManagedUser,
  withoutEmailValidation,
} from "./store.ts";

export type { CurrentUserDto, LoginUser, ManagedUserDto } from "./store.ts";
export { withoutEmailValidation } from "./store.ts";

/** What users need to know about a customer (given by main.ts from the customers module). */
export interface CustomerFacts {
  available_languages: string[];
  applications: string[];
  country: string;
}

/** Looks a customer up by key. */
export type CustomerLookup = (customerKey: string) => Promise<CustomerFacts | null>;

/** Input of {@link UsersService.create} for the demo seed and tests (no rights, no policy). */
export interface NewUser {
  customerKey: string;
  email: string;
  name: string;
  role: Role;
  password: string;
  appsRoles: string[];
  startPage?: string | null;
  language?: string;
  phone?: string | null;
  userMetadata?: Record<string, unknown>;
  appMetadata?: Record<string, unknown>;
}

/** The editable fields of a user in user management. */
export type UserFields = Omit<NewUserInput, "customer_key" | "password" | "password_confirmation">;

/** A password set by an administrator, with its optional confirmation. */
export type PasswordInput = Pick<NewUserInput, "password" | "password_confirmation">;

/** The caller of a management call: its principal and its own customer key. */
export interface Caller {
  principal: Principal;
  customerKey: string | null;
}

/** Users of every customer; access rules are applied per call. */
export class UsersService {
  /** `bus` receives `users.accessChanged` after every committed change of a user's access. */
  constructor(
    private readonly db: Db,
    private readonly customerOf: CustomerLookup,
    private readonly bus?: EventBus,
  ) {}

  /**
   * The current user's data. Only the caller itself reads it, or a super role; anything else
   * is 404.
   */
  async current(
    principal: Principal,
    id: string,
    callerCustomerKey: string | null,
  ): Promise<CurrentUserDto> {
    const row = await findRow(this.db, id);
    const own = row?.id === principal.userId && row.customerKey === callerCustomerKey;
    if (!row || (!own && !isSuperRole(principal.role))) throw new AppError("common.notFound");
    return toCurrentUser(row);
  }

  async getById(id: string): Promise<LoginUser | null> {
    const row = await findRow(this.db, id);
    return row ? toLoginUser(row) : null;
  }

  async findByEmail(email: string): Promise<LoginUser | null> {
    const row = await findRowByEmail(this.db, email);
    return row ? toLoginUser(row) : null;
  }

  /** The enabled users of a customer (notification recipients). */
  async listOfCustomer(customerKey: string): Promise<CurrentUserDto[]> {
    const rows = await this.db.select().from(users)
      .where(and(eq(users.customerKey, customerKey), eq(users.disabled, false)))
      .orderBy(asc(users.id));
    return rows.map(toCurrentUser);
  }

  async recordLogin(id: string, at: Date = new Date()): Promise<void> {
    await this.db.update(users).set({ latestLogin: at }).where(eq(users.id, id));
  }

  /** Creates a user with a hashed password; used by the demo seed and tests. */
  async create(input: NewUser): Promise<CurrentUserDto> {
    const hash = await hashPassword(input.password);
    return await this.db.transaction(async (tx) => {
      const [row] = await tx.insert(users).values({
        id: crypto.randomUUID(),
        customerKey: input.customerKey,
        email: input.email.trim(),
        name: input.name,
        phone: input.phone ?? null,
        role: input.role,
        startPage: input.startPage ?? null,
        language: input.language ?? "en",
        appsRoles: input.appsRoles,
        passwordHash: hash,
        userMetadata: input.userMetadata ??
          { language: input.language ?? "en", notification: { apps: {} } },
        appMetadata: input.appMetadata ?? {},
        disabled: false,
      }).returning();
      await rememberPassword(tx as unknown as Db, row!.id, hash);
      return toCurrentUser(row!);
    });
  }

  /** The customer a caller may manage users of: its own, any for super roles; else 404. */
  async customerScope(caller: Caller, customerKey: string | undefined): Promise<string> {
    const key = customerKey ?? caller.customerKey;
    if (!key || !/^[\w-]{1,64}$/.test(key)) throw new AppError("common.notFound");
    if (key !== caller.customerKey && !isSuperRole(caller.principal.role)) {
      throw new AppError("common.notFound");
    }
    if (!(await this.customerOf(key))) throw new AppError("common.notFound");
    return key;
  }

  /** One page (17 users) of a customer's users, searched by name or e-mail. */
  async list(caller: Caller, query: UserListQuery): Promise<UserPageDto> {
    const customerKey = await this.customerScope(caller, query.customer);
    const page = Math.max(1, query.page ?? 1);
    const term = (query.search ?? "").trim().toLowerCase();
    const where: SQL = term
      ? and(eq(users.customerKey, customerKey), matches(term))!
      : eq(users.customerKey, customerKey);
    const [{ total } = { total: 0 }] = await this.db.select({ total: count() }).from(users)
      .where(where);
    const rows = await this.db.select().from(users).where(where)
      .orderBy(asc(sql`lower(${users.name})`), asc(users.id))
      .limit(USERS_PAGE_SIZE).offset((page - 1) * USERS_PAGE_SIZE);
    return { items: rows.map(toManagedUser), total, page, page_size: USERS_PAGE_SIZE };
  }

  /** One user of a customer the caller manages; anything else is 404. */
  async get(caller: Caller, customerKey: string, id: string): Promise<ManagedUserDto> {
    return toManagedUser(await this.managedRow(caller, customerKey, id));
  }

  /** Creates a user after every rule: fields, rights, e-mail (609) and password policy. */
  async createManaged(
    caller: Caller,
    customerKey: string | undefined,
    fields: UserFields,
    password: PasswordInput,
  ): Promise<ManagedUserDto> {
    const key = await this.customerScope(caller, customerKey);
    const values = await this.checkFields(caller, key, fields, null);
    await assertEmailFree(this.db, values.email);
    const hash = await acceptNewPassword(this.db, {
      password: password.password,
      confirmation: password.password_confirmation,
    }, { name: values.name, email: values.email });
    try {
      return await this.db.transaction(async (tx) => {
        const [row] = await tx.insert(users).values({
          id: crypto.randomUUID(),
          customerKey: key,
          ...values,
          passwordHash: hash,
          userMetadata: { language: values.language, notification: { apps: {}, email: false } },
          disabled: false,
        }).returning();
        await rememberPassword(tx as unknown as Db, row!.id, hash);
        return toManagedUser(row!);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError(609);
      throw error;
    }
  }

  /**
   * Replaces a user's editable fields (and its password when given). A new e-mail address
   * clears its validation and switches e-mail notifications off.
   */
  async update(
    caller: Caller,
    customerKey: string,
    id: string,
    fields: UserFields,
    password?: PasswordInput,
  ): Promise<ManagedUserDto> {
    const row = await this.managedRow(caller, customerKey, id);
    // One's own password changes only with the current one (My Profile & Settings).
    if (password && row.id === caller.principal.userId) {
      throw new AppError("users.ownPasswordInProfile");
    }
    const values = await this.checkFields(caller, row.customerKey, fields, row);
    await assertEmailFree(this.db, values.email, row.id);
    const hash = password
      ? await acceptNewPassword(this.db, {
        password: password.password,
        confirmation: password.password_confirmation,
      }, { name: values.name, email: values.email, userId: row.id })
      : null;
    const emailChanged = values.email.toLowerCase() !== row.email.toLowerCase();
    const change = describeAccessChange(row, { ...values, disabled: row.disabled }, {
      at: new Date(),
      passwordReset: hash !== null,
    });
    try {
      const managed = await this.db.transaction(async (tx) => {
        const [updated] = await tx.update(users).set({
          ...values,
          ...(hash ? { passwordHash: hash } : {}),
          userMetadata: emailChanged ? withoutEmailValidation(row.userMetadata) : row.userMetadata,
        }).where(eq(users.id, row.id)).returning();
        if (hash) await rememberPassword(tx as unknown as Db, row.id, hash);
        if (change) await saveAccessChange(tx as unknown as Db, change);
        return toManagedUser(updated!);
      });
      await this.#announce(change && { ...change, email: managed.email });
      return managed;
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError(609);
      throw error;
    }
  }

  /** Disables or enables a user; disabled users cannot log in. Never oneself. */
  async setDisabled(
    caller: Caller,
    customerKey: string,
    id: string,
    disabled: boolean,
  ): Promise<ManagedUserDto> {
    const row = await this.managedRow(caller, customerKey, id);
    if (row.id === caller.principal.userId) throw new AppError("users.selfLockout");
    const change = describeAccessChange(row, { ...row, disabled }, { at: new Date() });
    const updated = await this.db.transaction(async (tx) => {
      const [updated] = await tx.update(users).set({ disabled }).where(eq(users.id, row.id))
        .returning();
      if (change) await saveAccessChange(tx as unknown as Db, change);
      return updated!;
    });
    await this.#announce(change);
    return toManagedUser(updated);
  }

  /** Deletes a user with its password history and validation links. Never oneself. */
  async remove(caller: Caller, customerKey: string, id: string): Promise<void> {
    const row = await this.managedRow(caller, customerKey, id);
    if (row.id === caller.principal.userId) throw new AppError("users.selfLockout");
    const change = describeAccessChange(row, null, { at: new Date() });
    await this.db.transaction(async (tx) => {
      await tx.delete(users).where(eq(users.id, row.id));
      if (change) await saveAccessChange(tx as unknown as Db, change);
    });
    await this.#announce(change);
  }

  /** Publishes a committed access change (revocation registry, STOMP sessions, identity). */
  async #announce(change: UserAccessChanged | null): Promise<void> {
    if (change) await this.bus?.publish("users.accessChanged", change);
  }

  /** The start pages a user with these apps_roles could open in the customer. */
  async startPagesFor(customerKey: string, appsRoles: readonly string[]): Promise<string[]> {
    const customer = await this.customerOf(customerKey);
    return reachableStartPages(appsRoles, customer?.applications ?? []);
  }

  /** Checks and normalises fields against the customer and the caller's own rights. */
  async checkFields(
    caller: Caller,
    customerKey: string,
    fields: UserFields,
    existing: UserRow | null,
  ) {
    const customer = await this.customerOf(customerKey);
    if (!customer) throw new AppError("common.notFound");
    const phone = fields.phone ? normalizePhone(fields.phone, customer.country) : null;
    if (fields.phone && !phone) throw validationIssue("phone", "validation.phoneInvalid");
    if (
      customer.available_languages.length &&
      !customer.available_languages.includes(fields.language)
    ) {
      throw new AppError("users.languageNotAvailable", {
        languages: customer.available_languages.join(", "),
      });
    }
    const appsRoles = normalizeAppsRoles(fields.apps_roles);
    const { principal } = caller;
    if (!canGrantRole(principal, fields.role)) throw new AppError("users.roleAboveOwn");
    const granted = appsRoles.filter((e) => !existing?.appsRoles.includes(e));
    if (!granted.every((entry) => canGrantAppRole(principal, entry))) {
      throw new AppError("users.roleAboveOwn");
    }
    if (existing?.id === principal.userId) assertNoSelfLockout(existing, fields.role, appsRoles);
    if (
      fields.start_page !== null &&
      !reachableStartPages(appsRoles, customer.applications).includes(fields.start_page)
    ) {
      throw new AppError("users.startPageNotReachable");
    }
    const kiosk = fields.kiosk ?? existing?.appMetadata.kiosk === true;
    if (kiosk && !kioskAllowed(fields.role, appsRoles)) {
      throw validationIssue("kiosk", "validation.kioskRights");
    }
    const { kiosk: _was, ...appMetadata } = existing?.appMetadata ?? {};
    return {
      name: fields.name.trim(),
      email: fields.email.trim(),
      phone,
      role: fields.role,
      startPage: fields.start_page,
      language: fields.language,
      appsRoles,
      appMetadata: kiosk ? { ...appMetadata, kiosk: true } : appMetadata,
    };
  }

  /** A user the caller may manage: in scope, and not ranked above the caller. */
  private async managedRow(caller: Caller, customerKey: string, id: string): Promise<UserRow> {
    const key = await this.customerScope(caller, customerKey);
    const row = await findRow(this.db, id);
    if (!row || row.customerKey !== key) throw new AppError("common.notFound");
    if (roleRank(row.role) > roleRank(caller.principal.role)) {
      throw new AppError("users.roleAboveOwn");
    }
    return row;
  }
}

function matches(term: string): SQL {
  const pattern = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return or(
    sql`lower(${users.name}) LIKE ${pattern}`,
    sql`lower(${users.email}) LIKE ${pattern}`,
  )!;
}

/** Editing oneself may not lower one's role or drop one's user-management admin right. */
function assertNoSelfLockout(row: UserRow, role: Role, appsRoles: readonly string[]): void {
  const losesAdmin = row.appsRoles.includes("hes:um:admin") && !appsRoles.includes("hes:um:admin");
  if (roleRank(role) < roleRank(row.role) || losesAdmin) throw new AppError("users.selfLockout");
}

/** One field error (`common.validation`), e.g. a phone number the customer's country refuses. */
export function validationIssue(path: string, key: string): AppError {
  return validationError([{ path, key, params: {} }]);
}
