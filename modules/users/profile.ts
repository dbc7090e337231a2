/**
 * My Profile & Settings (spec 2.1 /user-settings): the caller's own name, phone, language,
 * start page, notification settings and password, and the e-mail validation flow.
 */
import { and, eq, gt, isNull } from "drizzle-orm";
import {
  AppError,
  type Db,
  type EventBus,
  type Principal,
  verifyPassword,
} from "../../kernel/mod.ts";
import "./events.ts";
import type {
  AppNotification,
  NotificationSettings,
  PasswordChange,
  ProfilePatch,
} from "./contract.ts";
import { normalizePhone, reachableStartPages } from "./rules.ts";
import { emailValidationTokens, type UserRow, users } from "./schema.ts";
import type { CustomerLookup } from "./service.ts";
import { validationIssue } from "./service.ts";
import {
  acceptNewPassword,
  type CurrentUserDto,
  findRow,
  rememberPassword,
  toCurrentUser,
} from "./store.ts";

/** How long an e-mail validation link works. */
export const EMAIL_VALIDATION_TTL_MS = 24 * 3600 * 1000;
/** Where the validation link lands in the web app (the outcome in `?email-validation=`). */
export const EMAIL_VALIDATION_RETURN = "/user-settings";

export type { AppNotification, NotificationSettings, PasswordChange, ProfilePatch };

/** True when the settings ask for e-mail delivery anywhere. */
export function wantsEmail(settings: NotificationSettings): boolean {
  return settings.email ||
    Object.values(settings.apps).some((v) => typeof v === "object" && v.email);
}

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function randomToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_")
    .replace(/=+$/, "");
}

/** The caller's own profile; other users' ids answer 404. */
export class ProfileService {
  constructor(
    private readonly db: Db,
    private readonly deps: { customerOf: CustomerLookup; bus: EventBus; publicUrl: string },
  ) {}

  private async own(principal: Principal, id: string, callerCustomer: string | null) {
    const row = await findRow(this.db, id);
    if (!row || row.id !== principal.userId || row.customerKey !== callerCustomer) {
      throw new AppError("common.notFound");
    }
    return row;
  }

  /** Applies a profile patch after checking each field against the rules of spec 5. */
  async update(
    principal: Principal,
    id: string,
    callerCustomer: string | null,
    patch: ProfilePatch,
  ): Promise<CurrentUserDto> {
    const row = await this.own(principal, id, callerCustomer);
    const customer = await this.deps.customerOf(row.customerKey);
    if (!customer) throw new AppError("common.notFound");
    const set: Partial<UserRow> = {};
    if (patch.name !== undefined) set.name = patch.name.trim();
    if (patch.phone !== undefined) {
      set.phone = patch.phone ? normalizePhone(patch.phone, customer.country) : null;
      if (patch.phone && !set.phone) throw validationIssue("phone", "validation.phoneInvalid");
    }
    if (patch.language !== undefined) {
      const available = customer.available_languages;
      if (available.length && !available.includes(patch.language)) {
        throw new AppError("users.languageNotAvailable", { languages: available.join(", ") });
      }
      set.language = patch.language;
    }
    if (patch.start_page !== undefined) {
      if (
        patch.start_page !== null &&
        !reachableStartPages(row.appsRoles, customer.applications).includes(patch.start_page)
      ) {
        throw new AppError("users.startPageNotReachable");
      }
      set.startPage = patch.start_page;
    }
    const metadata = { ...row.userMetadata };
    if (set.language) metadata.language = set.language;
    if (patch.notification) {
      if (wantsEmail(patch.notification) && metadata.email_validated !== true) {
        throw new AppError("users.emailNotValidated");
      }
      metadata.notification = patch.notification;
    }
    const [updated] = await this.db.update(users).set({ ...set, userMetadata: metadata })
      .where(eq(users.id, row.id)).returning();
    return toCurrentUser(updated!);
  }

  /** Changes the caller's password: the current one must be right, the new one pass the policy. */
  async changePassword(
    principal: Principal,
    id: string,
    callerCustomer: string | null,
    change: PasswordChange,
  ): Promise<void> {
    const row = await this.own(principal, id, callerCustomer);
    if (!(await verifyPassword(change.current_password, row.passwordHash))) {
      throw new AppError("users.currentPasswordWrong");
    }
    const hash = await acceptNewPassword(this.db, {
      password: change.password,
      confirmation: change.password_confirmation,
    }, { name: row.name, email: row.email, userId: row.id });
    await this.db.transaction(async (tx) => {
      await tx.update(users).set({ passwordHash: hash }).where(eq(users.id, row.id));
      await rememberPassword(tx as unknown as Db, row.id, hash);
    });
  }

  /**
   * Creates a single-use validation link (valid 24 h; earlier unused links stop working) and
   * publishes `users.emailValidationRequested`; the notifications module sends the mail.
   */
  async requestEmailValidation(
    principal: Principal,
    id: string,
    callerCustomer: string | null,
  ): Promise<{ email: string; expires_at: string }> {
    const row = await this.own(principal, id, callerCustomer);
    const token = randomToken();
    const expiresAt = new Date(Date.now() + EMAIL_VALIDATION_TTL_MS);
    await this.db.transaction(async (tx) => {
      await tx.delete(emailValidationTokens).where(and(
        eq(emailValidationTokens.userId, row.id),
        isNull(emailValidationTokens.usedAt),
      ));
      await tx.insert(emailValidationTokens).values({
        tokenHash: await sha256(token),
        userId: row.id,
        email: row.email,
        expiresAt,
      });
    });
    await this.deps.bus.publish("users.emailValidationRequested", {
      customerKey: row.customerKey,
      userId: row.id,
      email: row.email,
      language: row.language,
      link: `${this.deps.publicUrl}/usm/email-validation/${token}`,
    });
    return { email: row.email, expires_at: expiresAt.toISOString() };
  }

  /**
   * Consumes a validation link: true when it was unused, unexpired and still names the user's
   * current e-mail, which is then marked validated. A link works once.
   */
  async confirmEmail(token: string, now: Date = new Date()): Promise<boolean> {
    if (!/^[\w-]{20,100}$/.test(token)) return false;
    const tokenHash = await sha256(token);
    return await this.db.transaction(async (tx) => {
      const [used] = await tx.update(emailValidationTokens).set({ usedAt: now }).where(and(
        eq(emailValidationTokens.tokenHash, tokenHash),
        isNull(emailValidationTokens.usedAt),
        gt(emailValidationTokens.expiresAt, now),
      )).returning();
      if (!used) return false;
      const [row] = await tx.select().from(users).where(eq(users.id, used.userId));
      if (!row || row.email.toLowerCase() !== used.email.toLowerCase()) return false;
      await tx.update(users).set({ userMetadata: { ...row.userMetadata, email_validated: true } })
        .where(eq(users.id, row.id));
      return true;
    });
  }
}
