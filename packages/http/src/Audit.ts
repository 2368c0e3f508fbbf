/**
 * The audit log of authenticated calls (issuer-api.md, Authentication §7): request id, tenant,
 * key id (never the key), method, route template, status and time.
 *
 * @since 0.1.0
 */
import type { Principal } from "@sigil/service/Access/Auth"
import { AuditLog } from "@sigil/service/Access/AuditLog"
import { Cause, Chunk, Effect } from "effect"
import * as Errors from "./Errors.js"

/**
 * The status recorded for a call whose client went away before the answer (nginx's 499).
 *
 * @since 0.1.0
 * @category constants
 */
export const CLIENT_CLOSED = 499

/**
 * Records one call. A failure to record is logged and does not change the answer: the
 * operation has happened, and answering 500 would invite a retry of it.
 *
 * @since 0.1.0
 * @category recording
 */
export const record = (entry: {
  readonly requestId: string
  readonly principal: Principal
  readonly method: string
  readonly route: string
  readonly status: number
  readonly at: Date
}): Effect.Effect<void, never, AuditLog> =>
  Effect.flatMap(AuditLog, (log) =>
    log.record({
      requestId: entry.requestId,
      tenantId: entry.principal.tenant.id,
      apiKeyId: entry.principal.apiKey.id,
      method: entry.method,
      route: entry.route,
      status: entry.status,
      at: entry.at
    })).pipe(
      Effect.catchAllCause((cause) =>
        Effect.logError("audit record failed", Chunk.toReadonlyArray(Cause.defects(cause)).map((d) => Errors.describeDefect(d)).join("\n")).pipe(
          Effect.annotateLogs({ request_id: entry.requestId })
        )
      )
    )
