/**
 * Verifying Sigil's webhook deliveries (Standard Webhooks, decisions §5): headers
 * `webhook-id`, `webhook-timestamp` and `webhook-signature: v1,<base64 HMAC-SHA256 of
 * "id.timestamp.body">` under the endpoint's `whsec_…` secret. Delegates to core's
 * `StandardWebhooks`, the code that signs them.
 *
 * Verify the **raw body** exactly as received (bytes decoded as UTF-8), before parsing it: a
 * re-serialized JSON object does not carry the same signature.
 *
 * @since 0.1.0
 */
import type { Envelope } from "@sigil/service/Events"
import * as WebhookSignature from "@sigil/service/Webhooks/WebhookSignature"

/**
 * A delivered event: `{id, type, created_at, tenant_id, data}` (issuer-api.md "Events").
 *
 * @since 0.1.0
 * @category models
 */
export type Event = Envelope

/**
 * Headers as `fetch` (`Headers`), node:http (`IncomingHttpHeaders`) or a plain record give them.
 *
 * @since 0.1.0
 * @category models
 */
export type HeadersInput =
  | { readonly get: (name: string) => string | null }
  | { readonly [name: string]: string | ReadonlyArray<string> | undefined }

/**
 * @since 0.1.0
 * @category models
 */
export interface VerifyOptions {
  /** The time the timestamp is checked against. Default: now. */
  readonly now?: Date | undefined
  /** How far `webhook-timestamp` may be from `now`, in seconds. Default 300. */
  readonly toleranceSeconds?: number | undefined
}

/**
 * The delivery did not verify.
 *
 * @since 0.1.0
 * @category errors
 */
export class WebhookVerificationError extends Error {
  override readonly name = "WebhookVerificationError"
}

const NAMES = ["webhook-id", "webhook-timestamp", "webhook-signature"] as const

const pick = (headers: HeadersInput): Record<(typeof NAMES)[number], string | undefined> => {
  const out: Record<string, string | undefined> = {}
  if (typeof (headers as { get?: unknown }).get === "function") {
    const h = headers as { readonly get: (name: string) => string | null }
    for (const name of NAMES) out[name] = h.get(name) ?? undefined
    return out as Record<(typeof NAMES)[number], string | undefined>
  }
  const record = headers as { readonly [name: string]: string | ReadonlyArray<string> | undefined }
  for (const [name, value] of Object.entries(record)) {
    const lower = name.toLowerCase()
    if ((NAMES as ReadonlyArray<string>).includes(lower)) out[lower] = typeof value === "string" ? value : value?.join(" ")
  }
  return out as Record<(typeof NAMES)[number], string | undefined>
}

const text = (body: string | Uint8Array): string => (typeof body === "string" ? body : new TextDecoder().decode(body))

/**
 * Whether a delivery is authentic and recent: one of its `v1,` signatures matches and its
 * timestamp is within the tolerance (5 minutes by default). Never throws.
 *
 * @since 0.1.0
 * @category verification
 */
export const verify = (
  secret: string,
  headers: HeadersInput,
  body: string | Uint8Array,
  options: VerifyOptions = {}
): boolean =>
  WebhookSignature.verify({
    secret,
    headers: pick(headers),
    body: text(body),
    now: options.now ?? new Date(),
    ...(options.toleranceSeconds === undefined ? {} : { toleranceSeconds: options.toleranceSeconds })
  })

/**
 * Verifies a delivery and parses its event; throws `WebhookVerificationError` when it does not
 * verify or is not an event.
 *
 * @since 0.1.0
 * @category verification
 */
export const parse = (
  secret: string,
  headers: HeadersInput,
  body: string | Uint8Array,
  options: VerifyOptions = {}
): Event => {
  if (!verify(secret, headers, body, options)) {
    throw new WebhookVerificationError("the webhook signature or timestamp does not verify")
  }
  let event: unknown
  try {
    event = JSON.parse(text(body))
  } catch {
    throw new WebhookVerificationError("the webhook body is not JSON")
  }
  const e = event as Partial<Event> | null
  if (
    e === null || typeof e !== "object" || typeof e.id !== "string" || typeof e.type !== "string" ||
    typeof e.data !== "object" || e.data === null
  ) {
    throw new WebhookVerificationError("the webhook body is not an event envelope")
  }
  if (pick(headers)["webhook-id"] !== e.id) throw new WebhookVerificationError("webhook-id is not the event's id")
  return e as Event
}

/**
 * The three headers Sigil sends with a body, for tests and for simulating deliveries.
 *
 * @since 0.1.0
 * @category signing
 */
export const sign = (secret: string, id: string, body: string, timestamp: Date = new Date()): Readonly<Record<string, string>> =>
  WebhookSignature.headers(secret, id, timestamp, body)
