import { getDb } from "../../db/client";
import { mailOutbox } from "../../db/schema";

type Mail = { projectCode: string; to: string; subject: string; body: string };

/**
 * Production sends through the `MAIL` send_email binding when configured; everywhere else mail lands in
 * the `mail_outbox` table so development and tests can read it (README: "Reading mail locally").
 */
export async function sendMail(env: Env, mail: Mail) {
  const binding = env.MAIL;
  if (env.APP_ENV === "production" && binding) {
    const { EmailMessage } = await import("cloudflare:email");
    const raw = [
      `From: Velvet <${env.MAIL_FROM}>`,
      `To: ${mail.to}`,
      `Subject: ${mail.subject}`,
      `Message-ID: <${crypto.randomUUID()}@velvet>`,
      "Content-Type: text/plain; charset=utf-8",
      "",
      mail.body,
    ].join("\r\n");
    await binding.send(new EmailMessage(env.MAIL_FROM, mail.to, raw));
    return;
  }
  await getDb(env).insert(mailOutbox).values({ ...mail, toEmail: mail.to, createdAt: Date.now() });
}
