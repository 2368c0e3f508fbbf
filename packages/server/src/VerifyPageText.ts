/**
 * What the verification page says, shared by the server's rendering (`VerifyPageHtml`) and the
 * browser bundle (`browser/verify.ts`), so the server's verdict and the browser's read the same.
 * Browser-safe: imports nothing but types.
 *
 * @since 0.1.0
 */
import type { Outcome, Result, StepName } from "@sigil/core/Verifier"

/**
 * A verification step as the page shows it (the core's `Step`; `pending` while the browser
 * has not reached it).
 *
 * @since 0.1.0
 * @category models
 */
export interface PageStep {
  readonly name: StepName
  readonly status: "passed" | "failed" | "skipped" | "pending"
  readonly message: string
}

/**
 * The anchoring record as the page shows it.
 *
 * @since 0.1.0
 * @category models
 */
export interface PageAnchor {
  readonly chainLabel: string
  readonly txHash: string
  readonly explorerUrl: string | undefined
  readonly blockNumber: number | undefined
  /** ISO 8601. */
  readonly blockTimestamp: string | undefined
}

/**
 * A verdict, from the server or the browser.
 *
 * @since 0.1.0
 * @category models
 */
export interface Verdict {
  readonly outcome: Outcome
  readonly failedStep: StepName | undefined
  readonly steps: ReadonlyArray<PageStep>
  readonly revocationReason: string | undefined
  readonly anchor: PageAnchor | undefined
}

/**
 * The verifier's result as the page shows it.
 *
 * @since 0.1.0
 * @category constructors
 */
export const toVerdict = (result: Result): Verdict => ({
  outcome: result.outcome,
  failedStep: result.failedStep,
  steps: result.steps,
  revocationReason: result.revocationReason,
  anchor: result.anchor === undefined ? undefined : {
    chainLabel: result.anchor.chainLabel,
    txHash: result.anchor.txHash,
    explorerUrl: result.anchor.explorerUrl,
    blockNumber: result.anchor.blockNumber,
    blockTimestamp: result.anchor.blockTimestamp?.toISOString()
  }
})

/**
 * The verdict, once the issuer's own record of a revocation is taken into account: an
 * authentic credential the issuer has revoked is shown revoked even if its status list does not
 * say so (e.g. it has no status entry). Only ever makes a verdict stricter.
 *
 * @since 0.1.0
 * @category constructors
 */
export const withRecordedRevocation = (verdict: Verdict, revocation: Revocation | undefined): Verdict =>
  revocation === undefined || verdict.outcome === "failed" || verdict.outcome === "revoked"
    ? verdict
    : { ...verdict, outcome: "revoked", failedStep: undefined }

/**
 * The revocation as the issuer recorded it (the status list says only "revoked").
 *
 * @since 0.1.0
 * @category models
 */
export interface Revocation {
  readonly reason: string
  /** ISO 8601. */
  readonly revokedAt: string
}

/**
 * What the page hands the browser bundle, in a `<script type="application/json"
 * id="sigil-page">` block.
 *
 * @since 0.1.0
 * @category models
 */
export interface PageConfig {
  /** `credential`: re-check the credential at `credentialUrl`; `file`: check what the user drops. */
  readonly mode: "credential" | "file"
  readonly credentialUrl?: string | undefined
  /** Sigil's public base URL: `did:web` DIDs of its host are fetched with its scheme (http in local runs). */
  readonly publicBaseUrl: string
  /** JSON-RPC endpoint per EVM chain id, for reading anchor transactions. */
  readonly rpc: { readonly [chainId: string]: string }
  readonly revocation?: Revocation | undefined
  /** The server's verdict, restored if the browser cannot run its own check. */
  readonly server?: Verdict | undefined
  /** The credential's `validUntil`/`validFrom`, for the expiry wording. */
  readonly validFrom?: string | undefined
  readonly validUntil?: string | undefined
}

/**
 * @since 0.1.0
 * @category constants
 */
export const STEP_LABELS: { readonly [S in StepName]: string } = {
  format: "Credential format",
  documentHash: "Document hash",
  merklePath: "Merkle path",
  anchor: "Blockchain anchor",
  issuerKey: "Issuer's anchoring key",
  eddsaProof: "Issuer's signature",
  status: "Revocation status",
  expiry: "Validity period"
}

/**
 * The mark of each step's status.
 *
 * @since 0.1.0
 * @category constants
 */
export const ICONS: { readonly [S in PageStep["status"]]: string } = { passed: "✓", failed: "✕", skipped: "–", pending: "…" }

/**
 * The banner's colour family.
 *
 * @since 0.1.0
 * @category models
 */
export type Tone = "ok" | "warn" | "bad" | "info"

/**
 * @since 0.1.0
 * @category constants
 */
export const TITLES: { readonly [O in Outcome]: string } = {
  verified: "Verified",
  not_anchored: "Not yet anchored",
  revoked: "Revoked",
  suspended: "Suspended",
  expired: "Expired",
  not_yet_valid: "Not yet valid",
  failed: "Verification failed"
}

const TONES: { readonly [O in Outcome]: Tone } = {
  verified: "ok",
  not_anchored: "warn",
  revoked: "bad",
  suspended: "bad",
  expired: "warn",
  not_yet_valid: "warn",
  failed: "bad"
}

const dateFormat = new Intl.DateTimeFormat("en-GB", { dateStyle: "long", timeZone: "UTC" })
const timeFormat = new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit", second: "2-digit", hour12: false, timeZone: "UTC" })

const parse = (iso: string | undefined): Date | undefined => {
  if (iso === undefined) return undefined
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? undefined : date
}

/**
 * `30 June 2026` (UTC); the input itself when it is not a date.
 *
 * @since 0.1.0
 * @category formatting
 */
export const formatDate = (iso: string | undefined): string => {
  const date = parse(iso)
  return date === undefined ? (iso ?? "") : dateFormat.format(date)
}

/**
 * `30 June 2026, 12:00:03 UTC`.
 *
 * @since 0.1.0
 * @category formatting
 */
export const formatDateTime = (iso: string | undefined): string => {
  const date = parse(iso)
  return date === undefined ? (iso ?? "") : `${dateFormat.format(date)}, ${timeFormat.format(date)} UTC`
}

/**
 * The banner for a verdict: tone, title (`Verified`, `Revoked`…) and one sentence of detail.
 *
 * @since 0.1.0
 * @category text
 */
export const banner = (
  verdict: Verdict,
  context: { readonly revocation?: Revocation | undefined; readonly validFrom?: string | undefined; readonly validUntil?: string | undefined } = {}
): { readonly tone: Tone; readonly title: string; readonly detail: string } => {
  const tone = TONES[verdict.outcome]
  const title = TITLES[verdict.outcome]
  const step = (name: StepName) => verdict.steps.find((s) => s.name === name)
  switch (verdict.outcome) {
    case "verified":
      return {
        tone,
        title,
        detail: verdict.anchor === undefined
          ? "Authentic, unaltered, issued by the named issuer and valid."
          : `Authentic, unaltered, issued by the named issuer, recorded on ${verdict.anchor.chainLabel} and valid.`
      }
    case "not_anchored":
      return { tone, title, detail: "Signed by the issuer; its blockchain record is not there yet. Check again in a minute." }
    case "revoked": {
      const reason = context.revocation?.reason ?? verdict.revocationReason
      const when = context.revocation === undefined ? "" : ` on ${formatDate(context.revocation.revokedAt)}`
      return { tone, title, detail: `Revoked by the issuer${when}.${reason === undefined ? "" : ` Reason: ${reason}`}` }
    }
    case "suspended":
      return { tone, title, detail: "Suspended by the issuer: not valid while the suspension lasts." }
    case "expired":
      return {
        tone,
        title,
        detail: context.validUntil === undefined
          ? "Authentic, but no longer valid."
          : `Authentic, but valid only until ${formatDate(context.validUntil)}.`
      }
    case "not_yet_valid":
      return {
        tone,
        title,
        detail: context.validFrom === undefined
          ? "Authentic, but not valid yet."
          : `Authentic, but valid only from ${formatDate(context.validFrom)}.`
      }
    case "failed": {
      const failed = verdict.failedStep === undefined ? undefined : step(verdict.failedStep)
      return {
        tone,
        title,
        detail: verdict.failedStep === undefined
          ? "The credential could not be verified."
          : `Failed at the step “${STEP_LABELS[verdict.failedStep]}”: ${failed?.message ?? "see below"}.`.replace(/\.\.$/, ".")
      }
    }
  }
}
