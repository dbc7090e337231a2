/**
 * @module
 * Users (usm): the people who log in, their roles, module access and preferences; user
 * management and My Profile & Settings.
 */
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
export { type CustomerKeyOf, emailValidationRoutes, userRoutes } from "./routes.ts";
export { checkPassword, type PasswordCheck } from "./password_policy.ts";
export { reachableStartPages, USERS_PAGE_SIZE } from "./rules.ts";
export type { EmailValidationRequested } from "./events.ts";
