/**
 * @module
 * Users (usm): the people who log in, their roles, module access and preferences; user
 * management and My Profile & Settings.
 */
import type { Db, EventBus, PlatformModule } from "../../kernel/mod.ts";
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
export type { EmailValidationRequested } from "./events.ts";

/** What the users module needs from the composition root. */
export interface UsersModuleDeps {
  db: Db;
  bus: EventBus;
  /** The customer of a key (the customers module). */
  customerOf: CustomerLookup;
  /** The address users open (links in validation e-mails). */
  publicUrl: string;
}

/** The users module: its facades and the /usm routes (the e-mail link without login). */
export interface UsersModule extends PlatformModule {
  service: UsersService;
  profiles: ProfileService;
}

/** Builds the users module. */
export function usersModule(deps: UsersModuleDeps): UsersModule {
  const service = new UsersService(deps.db, deps.customerOf);
  const profiles = new ProfileService(deps.db, {
    customerOf: deps.customerOf,
    bus: deps.bus,
    publicUrl: deps.publicUrl,
  });
  return {
    name: "users",
    service,
    profiles,
    public: [{ prefix: "/usm", routes: emailValidationRoutes(profiles) }],
    api: [{ prefix: "/usm", routes: userRoutes(service, profiles) }],
  };
}
