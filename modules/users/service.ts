/** User reads for the shell and the identity provider. */
import { eq, sql } from "drizzle-orm";
import {
  AppError,
  type Db,
  hashPassword,
  isSuperRole,
  type Principal,
  type Role,
} from "../kernel/mod.ts";
import { type UserRow, users } from "./schema.ts";

/** The current user as GET /usm/users/current/{id} returns it. */
export interface CurrentUserDto {
  user_id: string;
  name: string;
  email: string;
  phone: string | null;
  role: Role;
  start_page: string | null;
  language: string;
  apps_roles: string[];
  customer_key: string;
  user_metadata: Record<string, unknown>;
  app_metadata: Record<string, unknown>;
  latest_login: string | null;
}

/** What the identity provider needs to log a user in and build the token claims. */
export interface LoginUser extends CurrentUserDto {
  password_hash: string;
  disabled: boolean;
}

/** Input of {@link UsersService.create}. */
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

function toDto(row: UserRow): LoginUser {
  return {
    user_id: row.id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    role: row.role,
    start_page: row.startPage,
    language: row.language,
    apps_roles: row.appsRoles,
    customer_key: row.customerKey,
    user_metadata: row.userMetadata,
    app_metadata: row.appMetadata,
    latest_login: row.latestLogin?.toISOString() ?? null,
    password_hash: row.passwordHash,
    disabled: row.disabled,
  };
}

function publicView(user: LoginUser): CurrentUserDto {
  const { password_hash: _hash, disabled: _disabled, ...rest } = user;
  return rest;
}

/** Users of every customer; access rules are applied per call. */
export class UsersService {
  constructor(private readonly db: Db) {}

  /**
   * The current user's data. Only the caller itself reads it, or a super role; `customerKeyOf`
   * tells the caller's customer key so tenant isolation can be checked. Anything else is 404.
   */
  async current(
    principal: Principal,
    id: string,
    callerCustomerKey: string | null,
  ): Promise<CurrentUserDto> {
    const user = await this.getById(id);
    const own = user?.user_id === principal.userId && user.customer_key === callerCustomerKey;
    if (!user || (!own && !isSuperRole(principal.role))) throw new AppError("common.notFound");
    return publicView(user);
  }

  /** Changes the caller's own interface language (other users' ids answer 404). */
  async updateOwnLanguage(
    principal: Principal,
    id: string,
    callerCustomerKey: string | null,
    language: string,
  ): Promise<CurrentUserDto> {
    await this.current(principal, id, callerCustomerKey);
    if (id !== principal.userId) throw new AppError("common.notFound");
    const [row] = await this.db.update(users).set({
      language,
      userMetadata:
        sql`jsonb_set(${users.userMetadata}, '{language}', to_jsonb(${language}::text))`,
    }).where(eq(users.id, id)).returning();
    return publicView(toDto(row!));
  }

  async getById(id: string): Promise<LoginUser | null> {
    if (!/^[\w-]{1,64}$/.test(id)) return null;
    const [row] = await this.db.select().from(users).where(eq(users.id, id));
    return row ? toDto(row) : null;
  }

  async findByEmail(email: string): Promise<LoginUser | null> {
    const [row] = await this.db.select().from(users)
      .where(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`);
    return row ? toDto(row) : null;
  }

  async recordLogin(id: string, at: Date = new Date()): Promise<void> {
    await this.db.update(users).set({ latestLogin: at }).where(eq(users.id, id));
  }

  /** Creates a user with a hashed password; used by the demo seed and tests. */
  async create(input: NewUser): Promise<CurrentUserDto> {
    const [row] = await this.db.insert(users).values({
      id: crypto.randomUUID(),
      customerKey: input.customerKey,
      email: input.email.trim(),
      name: input.name,
      phone: input.phone ?? null,
      role: input.role,
      startPage: input.startPage ?? null,
      language: input.language ?? "en",
      appsRoles: input.appsRoles,
      passwordHash: await hashPassword(input.password),
      userMetadata: input.userMetadata ??
        { language: input.language ?? "en", notification: { apps: {} } },
      appMetadata: input.appMetadata ?? {},
      disabled: false,
    }).returning();
    return publicView(toDto(row!));
  }
}
