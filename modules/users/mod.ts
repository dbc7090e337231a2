/**
 * @module
 * Users (usm): the people who log in, their roles, module access and preferences.
 */
export { type CurrentUserDto, type LoginUser, type NewUser, UsersService } from "./service.ts";
export { type CustomerKeyOf, userRoutes } from "./routes.ts";
export type { EmailValidationRequested } from "./events.ts";
