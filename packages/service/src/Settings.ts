/**
 * The few settings the core's services need, provided by the server (which reads them from
 * its configuration; the core never reads the environment).
 *
 * @since 0.1.0
 */
import { Context, Layer, type Redacted } from "effect"
import type { ChainName } from "@sigil/core/Chains"
import type { Environment } from "./Tenants/Plans.js"

/**
 * @since 0.1.0
 * @category models
 */
export interface Service {
  /** `PUBLIC_BASE_URL`: verify pages, DID documents and status lists live under it. */
  readonly publicBaseUrl: string
  /** Where each environment anchors: test → `base-sepolia` (or `devnet`), live → `base-mainnet`. */
  readonly chainFor: (environment: Environment) => ChainName | undefined
  /** Signs pagination cursors so clients cannot forge them. */
  readonly cursorKey: Redacted.Redacted<Uint8Array>
  /** Webhook URLs may be http and private addresses (local development only). */
  readonly allowPrivateWebhookUrls: boolean
  /**
   * How long the chain may keep rejecting a batch's transaction before the batch fails
   * (decisions §4: "the chain rejects it after retries over 24 h"); 24 h when absent. Until then
   * the rejection is retried, so an operator can fix what made the chain refuse.
   */
  readonly anchorRejectionGraceMs?: number | undefined
}

/**
 * The default of `anchorRejectionGraceMs`.
 *
 * @since 0.1.0
 * @category constants
 */
export const DEFAULT_ANCHOR_REJECTION_GRACE_MS = 24 * 3_600_000

/**
 * @since 0.1.0
 * @category tags
 */
export class Settings extends Context.Tag("@sigil/service/Settings")<Settings, Service>() {}

/**
 * @since 0.1.0
 * @category layers
 */
export const layer = (settings: Service): Layer.Layer<Settings> => Layer.succeed(Settings, settings)

/**
 * The public verification page of a credential.
 *
 * @since 0.1.0
 * @category urls
 */
export const verifyUrl = (publicBaseUrl: string, credentialId: string): string =>
  `${publicBaseUrl.replace(/\/+$/, "")}/c/${credentialId}`
