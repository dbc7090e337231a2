/**
 * E-mail delivery: SMTP through nodemailer when SMTP_URL is configured; otherwise every mail is
 * kept in the outbox table, which an administrator reads at GET /nsm/outbox.
 */
import nodemailer from "nodemailer";
import type { Logger } from "../../kernel/mod.ts";
import type { NotificationsService, OutboxDto } from "./service.ts";

/** One mail to send. */
export interface MailMessage {
  customerKey: string;
  userId: string | null;
  to: string;
  subject: string;
  text: string;
  kind: OutboxDto["kind"];
}

/** Sends or keeps mails; `delivery` tells which. */
export interface Mailer {
  readonly delivery: "smtp" | "outbox";
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/** The mailer for the configuration: SMTP when `smtpUrl` is set, else the outbox. */
export function createMailer(opts: {
  smtpUrl: string | undefined;
  from: string;
  service: NotificationsService;
  logger: Logger;
}): Mailer {
  if (!opts.smtpUrl) {
    return {
      delivery: "outbox",
      async send(m) {
        await opts.service.keepMail({
          customerKey: m.customerKey,
          user_id: m.userId,
          recipient: m.to,
          subject: m.subject,
          body: m.text,
          kind: m.kind,
        });
      },
      close() {},
    };
  }
  const transport = nodemailer.createTransport(opts.smtpUrl);
  return {
    delivery: "smtp",
    async send(m) {
      await transport.sendMail({ from: opts.from, to: m.to, subject: m.subject, text: m.text });
      opts.logger.info("Mail sent", { kind: m.kind, userId: m.userId });
    },
    close() {
      transport.close();
    },
  };
}
