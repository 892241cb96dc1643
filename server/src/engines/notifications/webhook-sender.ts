import http from 'node:http';
import https from 'node:https';
import ipaddr from 'ipaddr.js';
import { Webhook } from 'standardwebhooks';
import { guardedLookup, refusedAddressReason } from './address-guard.js';

/** How one attempt ended: a receiver's answer (or none), and whether to try again. */
export interface SendResult {
  ok: boolean;
  /** HTTP status or SMTP reply code; 0 when none came. */
  responseCode: number;
  error: string;
  /** A destination that will never be accepted (refused address): no retry. */
  permanent?: boolean;
}

export interface WebhookMessage {
  eventId: string;
  timestamp: Date;
  body: string;
}

/** A new signing secret in the Standard Webhooks form: "whsec_" + base64 of 32 random bytes. */
export function newSigningSecret(random: (n: number) => Buffer): string {
  return `whsec_${random(32).toString('base64')}`;
}

/**
 * POSTs a Standard Webhooks message (webhook-id = the event id, the same on every attempt, so a
 * receiver drops a repeat), connecting only to allowed addresses, within `timeoutMs`.
 */
export async function sendWebhook(
  url: string,
  secret: string,
  message: WebhookMessage,
  options: { allowPrivate: boolean; timeoutMs: number },
): Promise<SendResult> {
  const target = new URL(url);
  const host = target.hostname.replace(/^\[|\]$/g, '');
  // An address literal is connected without a lookup: judge it here.
  if (!options.allowPrivate && ipaddr.isValid(host)) {
    const reason = refusedAddressReason(host);
    if (reason) {
      return {
        ok: false,
        responseCode: 0,
        error: `refused destination: ${reason}`,
        permanent: true,
      };
    }
  }
  const signature = new Webhook(secret).sign(message.eventId, message.timestamp, message.body);
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'store-admin-notifications',
    'webhook-id': message.eventId,
    'webhook-timestamp': String(Math.floor(message.timestamp.getTime() / 1000)),
    'webhook-signature': signature,
  };
  const lookup = guardedLookup(options.allowPrivate);
  const module = target.protocol === 'https:' ? https : http;
  return new Promise<SendResult>((resolve) => {
    const request = module.request(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': Buffer.byteLength(message.body) },
        lookup,
        // Never follow anything: a redirect could point anywhere; a 3xx counts as a failure.
        agent: false,
        timeout: options.timeoutMs,
      },
      (response) => {
        const code = response.statusCode ?? 0;
        // Drain a bounded amount: the receiver's body is not ours to keep.
        response.resume();
        response.on('end', () =>
          resolve(
            code >= 200 && code < 300
              ? { ok: true, responseCode: code, error: '' }
              : { ok: false, responseCode: code, error: `HTTP ${code}` },
          ),
        );
        response.on('error', (error) =>
          resolve({ ok: false, responseCode: code, error: error.message }),
        );
      },
    );
    request.setTimeout(options.timeoutMs, () => {
      request.destroy(new Error(`no answer within ${options.timeoutMs} ms`));
    });
    request.on('error', (error: NodeJS.ErrnoException) =>
      resolve({
        ok: false,
        responseCode: 0,
        error: error.message,
        permanent: error.code === 'EREFUSEDTARGET',
      }),
    );
    request.end(message.body);
  });
}
