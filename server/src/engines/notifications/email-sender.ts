import nodemailer from 'nodemailer';
import type { SendResult } from './webhook-sender.js';

export interface SmtpSettings {
  /** smtp://host:port or smtps://… (STORE_SMTP_URL). */
  url: string;
  /** The From address (STORE_SMTP_FROM). */
  from: string;
}

export interface EmailMessage {
  eventId: string;
  subject: string;
  text: string;
}

/** Sends through the server-wide SMTP settings, within `timeoutMs` per stage. */
export async function sendEmail(
  smtp: SmtpSettings,
  recipients: readonly string[],
  message: EmailMessage,
  timeoutMs: number,
): Promise<SendResult> {
  const url = new URL(smtp.url);
  const transport = nodemailer.createTransport({
    host: url.hostname,
    port: Number(url.port || (url.protocol === 'smtps:' ? 465 : 25)),
    secure: url.protocol === 'smtps:',
    ...(url.username && {
      auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) },
    }),
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  });
  try {
    const info = await transport.sendMail({
      from: smtp.from,
      to: [...recipients],
      subject: message.subject,
      text: message.text,
      // The event id names the message, so a repeat is recognisable as one.
      messageId: `<${message.eventId}@store-admin>`,
      headers: { 'X-Store-Event-Id': message.eventId },
    });
    const code = Number(/^(\d{3})/.exec(info.response)?.[1] ?? 250);
    return { ok: true, responseCode: code, error: '' };
  } catch (error) {
    const e = error as { responseCode?: number; message?: string };
    return { ok: false, responseCode: e.responseCode ?? 0, error: e.message ?? String(error) };
  } finally {
    transport.close();
  }
}

/** Whether an address looks like one mailbox (nodemailer parses the rest). */
export function isMailbox(address: string): boolean {
  return (
    /^[^\s@<>,;]+@[^\s@<>,;]+\.[^\s@<>,;]+$/.test(address) ||
    /^[^\s@<>,;]+@localhost$/.test(address)
  );
}
