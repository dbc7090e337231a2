/**
 * @module
 * Users (usm): the people who log in, their roles, module access and preferences; user
 * management and My Profile & Settings.
 */
import type { Db, EventBus, Logger, PlatformModule } from "../../kernel/mod.ts";
import { AccessRegistry } from "./access_registry.ts";
import { loadAccessChanges } from "./access_store.ts";
import { ProfileService } from "./profile.ts";
import { emailValidationRoutes, userRoutes } from "./routes.ts";
import { type CustomerLookup, UsersService } from "./service.ts";

export {
  type Caller,
  type CurrentUserDto,
  type CustomerFacts,
  type CustomerLookup,
  type LoginUser,
  type ManagedUserDto,
  type NewUser,
  UsersService,
} from "./service.ts";
export { type NotificationSettings, ProfileService } from "./profile.ts";
export { checkPassword, type PasswordCheck } from "./password_policy.ts";
export { reachableStartPages, USERS_PAGE_SIZE } from "./rules.ts";
export type { EmailValidationRequested, UserAccessChanged } from "./events.ts";
export { AccessRegistry } from "./access_registry.ts";

/** What the users module needs from the composition root. */
export interface UsersModuleDeps {
  db: Db;
  bus: EventBus;
  /** The customer of a key (the customers module). */
  customerOf: CustomerLookup;
  /** The address users open (links in validation e-mails). */
  publicUrl: string;
  /**
   * The longest lifetime of an access token in seconds: access changes are kept (in memory and
   * in `users.access_changes`) this long plus five minutes of clock skew.
   */
  tokenLifetimeSeconds: number;
  logger?: Logger;
}

/** The users module: its facades and the /usm routes (the e-mail link without login). */
export interface UsersModule extends PlatformModule {
  service: UsersService;
  profiles: ProfileService;
  /**
   * The revocation registry: main.ts hands it to the token verifier (kernel `checkedVerifier`)
   * so that every request applies the users' access changes without a database round trip.
   */
  access: AccessRegistry;
}

/** Clock skew tolerated on top of a token's lifetime. */
const SKEW_MS = 5 * 60_000;

/** Builds the users module. */
export function usersModule(deps: UsersModuleDeps): UsersModule {
  const service = new UsersService(deps.db, deps.customerOf, deps.bus);
  const horizonMs = deps.tokenLifetimeSeconds * 1000 + SKEW_MS;
  const access = new AccessRegistry({ horizonMs });
  // Subscribed at once: changes made before start() (none in practice) are not lost.
  const unsubscribe = deps.bus.subscribe("users.accessChanged", (change) => {
    access.record(change);
  });
  const profiles = new ProfileService(deps.db, {
    customerOf: deps.customerOf,
    bus: deps.bus,
    publicUrl: deps.publicUrl,
  });
  return {
    name: "users",
    service,
    profiles,
    access,
    async start() {
      const loaded = await loadAccessChanges(deps.db, access, horizonMs);
      if (loaded) deps.logger?.info("Access changes loaded", { users: loaded });
    },
    close() {
      unsubscribe();
      return Promise.resolve();
    },
    public: [{ prefix: "/usm", routes: emailValidationRoutes(profiles) }],
    api: [{ prefix: "/usm", routes: userRoutes(service, profiles) }],
  };
}
