/** Integration events of the users module (consumed by notifications, which sends mail). */

/** A user asked to validate their e-mail address; `link` is the absolute validation URL. */
export interface EmailValidationRequested {
  customerKey: string;
  userId: string;
  email: string;
  language: string;
  link: string;
}

declare module "../../kernel/events.ts" {
  interface EventMap {
    "users.emailValidationRequested": EmailValidationRequested;
  }
}
