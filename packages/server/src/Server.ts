/**
 * The composition root: every port bound to its adapter, by configuration (decisions §7).
 *
 * - Store: Postgres when `DATABASE_URL` is set, else embedded PGlite in the data directory.
 * - Chain: Base Sepolia for the test environment when `BASE_SEPOLIA_RPC_URL` is set, else the
 *   embedded devnet; Base mainnet for live when `BASE_MAINNET_RPC_URL` is set, else live
 *   batches wait (`anchoring_chain_unavailable`).
 * - HTTP: the issuer API with the public documents on `HOST:PORT`; the administrative channel on
 *   `127.0.0.1:ADMIN_PORT`.
 * - E-mail: SMTP when `SMTP_URL` is set, else `.eml` files in `<SIGIL_DATA_DIR>/outbox/`.
 * - Workers in this process unless `SIGIL_WORKERS=false`.
 *
 * @since 0.1.0
 */
import { HttpApiBuilder } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import * as BaseAnchor from "@sigil/anchor-base/BaseAnchor"
import * as ChainConfig from "@sigil/anchor-base/ChainConfig"
import * as Devnet from "@sigil/anchor-base/Devnet"
import * as EvmChainReader from "@sigil/anchor-base/EvmChainReader"
import * as Canonicalizer from "@sigil/core/Canonicalizer"
import type { ChainName } from "@sigil/core/Chains"
import * as Chains from "@sigil/core/Chains"
import * as Claims from "@sigil/service/Email/Claims"
import * as Email from "@sigil/service/Email"
import * as LocalIdentity from "@sigil/service/Tenants/LocalIdentity"
import * as Settings from "@sigil/service/Settings"
import * as WebhookDelivery from "@sigil/service/Webhooks/WebhookDelivery"
import * as AdminHttp from "@sigil/http/AdminHttp"
import * as ClientErrors from "@sigil/http/ClientErrors"
import * as IssuerHttp from "@sigil/http/IssuerHttp"
import * as PgStore from "@sigil/store-pg/PgStore"
import * as PgStores from "@sigil/store-pg/PgStores"
import { Effect, Layer, Option, Redacted } from "effect"
import { createHmac, randomUUID } from "node:crypto"
import * as path from "node:path"
import * as BrowserBundle from "./BrowserBundle.js"
import * as MailerLive from "./MailerLive.js"
import * as NodePrimitives from "@sigil/core/node/NodePrimitives"
import * as PublicCache from "./PublicCache.js"
import * as PublicRoutes from "./PublicRoutes.js"
import * as ApiKeyCache from "@sigil/service/Access/ApiKeyCache"
import * as BatchedAuditLog from "@sigil/service/Access/BatchedAuditLog"
import * as ClientLimiter from "@sigil/service/Access/ClientLimiter"
import * as LocalRateLimiter from "@sigil/service/Access/LocalRateLimiter"
import * as SigningPool from "./SigningPool.js"
import type { ServerConfig } from "./ServerConfig.js"
import { mailFrom } from "./ServerConfig.js"
import * as VerifyPage from "./VerifyPage.js"
import * as WebhookSenderLive from "./WebhookSenderLive.js"
import * as Workers from "./Workers.js"

/**
 * The secrets the server runs with, resolved from the environment or the data directory.
 *
 * @since 0.1.0
 * @category models
 */
export interface Secrets {
  readonly masterKey: Redacted.Redacted<string>
  readonly adminToken: Redacted.Redacted<string>
}

/**
 * Whether the embedded devnet runs: the test environment anchors on it when Base Sepolia is
 * not configured.
 *
 * @since 0.1.0
 * @category configuration
 */
export const usesDevnet = (config: ServerConfig): boolean => Option.isNone(config.baseSepolia)

const chainFor = (config: ServerConfig) => (environment: "test" | "live"): ChainName | undefined =>
  environment === "test"
    ? (usesDevnet(config) ? "devnet" : "base-sepolia")
    : (Option.isSome(config.baseMainnet) ? "base-mainnet" : undefined)

/**
 * Where e-mails are written when no `SMTP_URL` is set.
 *
 * @since 0.1.0
 * @category configuration
 */
export const outboxDir = (config: ServerConfig): string => path.join(config.dataDir, "outbox")

/**
 * The store: Postgres or PGlite, migrated, with every store port.
 *
 * @since 0.1.0
 * @category layers
 */
export const storeLayer = (config: ServerConfig, secrets: Secrets) => {
  const stores = PgStores.layer({ masterKey: secrets.masterKey, crossProcess: Option.isSome(config.databaseUrl) }).pipe(
    Layer.provideMerge(
      Option.match(config.databaseUrl, {
        onNone: () => PgStore.layerPglite({ dataDir: path.join(config.dataDir, "pglite") }),
        onSome: (url) => PgStore.layerPostgres({ url, applicationName: "sigil", maxConnections: config.dbPoolSize })
      })
    )
  )
  // Authentication reads its key from memory (ApiKeyCache); `SIGIL_AUTH_CACHE_TTL=0` turns it off.
  const authenticated = config.authCacheTtlMs > 0
    ? ApiKeyCache.layer({ ...ApiKeyCache.DEFAULT_OPTIONS, ttlMs: config.authCacheTtlMs }).pipe(Layer.provideMerge(stores))
    : stores
  // Rate limits decided in the process, reconciled with the shared buckets every second; the
  // audit records of reads written together every second.
  return Layer.merge(LocalRateLimiter.layer(), BatchedAuditLog.layer()).pipe(Layer.provideMerge(authenticated))
}

const baseChain = (chain: "base-sepolia" | "base-mainnet", settings: { rpcUrl: Redacted.Redacted<string>; treasuryKey: Option.Option<Redacted.Redacted<string>> }, confirmations: Option.Option<number>) =>
  Option.match(settings.treasuryKey, {
    onNone: () =>
      Effect.dieMessage(
        `${chain === "base-sepolia" ? "ANCHOR_TREASURY_KEY_TEST" : "ANCHOR_TREASURY_KEY_LIVE"} is required with ${
          chain === "base-sepolia" ? "BASE_SEPOLIA_RPC_URL" : "BASE_MAINNET_RPC_URL"
        }: the treasury pays the tenants' gas`
      ),
    onSome: (treasuryKey) =>
      Effect.succeed<ChainConfig.ChainOptions>({
        chain,
        rpc: ChainConfig.rpcUrl(settings.rpcUrl),
        treasuryKey,
        ...Option.match(confirmations, { onNone: () => ({}), onSome: (c) => ({ confirmations: c }) })
      })
  })

/**
 * Anchoring and chain reading on the configured chains (and the devnet when it runs).
 *
 * @since 0.1.0
 * @category layers
 */
export const chainLayer = (config: ServerConfig) =>
  Layer.unwrapEffect(Effect.gen(function*() {
    const chains: Array<ChainConfig.ChainOptions> = []
    if (Option.isSome(config.baseSepolia)) chains.push(yield* baseChain("base-sepolia", config.baseSepolia.value, config.anchorConfirmations))
    if (Option.isSome(config.baseMainnet)) chains.push(yield* baseChain("base-mainnet", config.baseMainnet.value, config.anchorConfirmations))
    const readers = chains.map((c) => ({ chainId: Chains.byName(c.chain).chainId, rpc: c.rpc }))
    if (!usesDevnet(config)) {
      return Layer.merge(BaseAnchor.layer({ chains }), EvmChainReader.layer({ chains: readers }))
    }
    const devnetConfirmations = Option.match(config.anchorConfirmations, { onNone: () => ({}), onSome: (c) => ({ confirmations: c }) })
    return Layer.merge(
      Layer.unwrapEffect(Effect.map(Devnet.chainOptions(devnetConfirmations), (devnet) => BaseAnchor.layer({ chains: [devnet, ...chains] }))),
      EvmChainReader.layerDevnet(readers)
    ).pipe(Layer.provideMerge(Devnet.layer({ dataDir: config.dataDir })))
  }))

/**
 * The settings the core's services read.
 *
 * @since 0.1.0
 * @category layers
 */
export const settingsLayer = (config: ServerConfig, secrets: Secrets) =>
  Settings.layer({
    publicBaseUrl: config.publicBaseUrl,
    chainFor: chainFor(config),
    // A key of its own for cursors, derived from the master key, so neither can stand for the other.
    cursorKey: Redacted.make(new Uint8Array(createHmac("sha256", Redacted.value(secrets.masterKey)).update("sigil/cursor-key/v1").digest())),
    allowPrivateWebhookUrls: config.allowPrivateWebhookUrls,
    anchorRejectionGraceMs: Option.getOrUndefined(config.anchorRejectionGraceMs)
  })

/**
 * The HTTP servers: the issuer API and public documents, and the administrative channel.
 *
 * @since 0.1.0
 * @category layers
 */
export const httpLayer = (config: ServerConfig, secrets: Secrets) => {
  // Mounted when the embedded devnet runs (chainLayer provides it then).
  const devnetRoute = Layer.unwrapEffect(Effect.map(Effect.serviceOption(Devnet.Devnet), Option.match({
    onNone: () => Layer.empty,
    onSome: (devnet) => PublicRoutes.devnetRpc(devnet.handleJsonRpc)
  })))
  const issuer = HttpApiBuilder.serve().pipe(
    Layer.provide(Layer.mergeAll(
      IssuerHttp.api({
        ...Option.match(config.rateLimitPerMinute, {
          onNone: () => ({}),
          onSome: (limit) => ({ rateLimitPolicy: () => ({ limit, windowSeconds: 60 }) })
        }),
        // A request target in absolute form must name one of these (else: an unknown route).
        hosts: [new URL(config.publicBaseUrl).hostname, "localhost", "127.0.0.1", "[::1]"],
        publicLimit: config.publicRateLimitPerMinute > 0
          ? ClientLimiter.make({ ...ClientLimiter.DEFAULT_OPTIONS, perMinute: config.publicRateLimitPerMinute })
          : undefined,
        trustProxy: config.trustProxy
      }),
      PublicRoutes.identity(config.freshness),
      devnetRoute,
      VerifyPage.layer({
        publicBaseUrl: config.publicBaseUrl,
        credentialMaxAgeSeconds: config.freshness.credentialSeconds,
        rpc: VerifyPage.browserRpc({ publicBaseUrl: config.publicBaseUrl, devnet: usesDevnet(config), ...config.browserRpc })
      }).pipe(Layer.provide(BrowserBundle.layer))
    ).pipe(Layer.provide(PublicCache.layer()))),
    // Requests the parser refuses (a URL over 16 KB…) get the contract's error body too.
    Layer.provide(NodeHttpServer.layer(() => ClientErrors.createServer(), { port: config.port, host: config.host }))
  )
  const admin = AdminHttp.layer({ token: secrets.adminToken }).pipe(
    Layer.provide(NodeHttpServer.layer(() => ClientErrors.createServer(), { port: config.adminPort, host: "127.0.0.1" }))
  )
  return Layer.merge(issuer, admin)
}

/**
 * The workers, forked for the life of the layer (their jobs are released when it closes).
 *
 * @since 0.1.0
 * @category layers
 */
export const workersLayer = (config: ServerConfig) =>
  config.workers
    ? Layer.scopedDiscard(Effect.forkScoped(Workers.run({
      workerId: `sigil-${process.pid}-${randomUUID().slice(0, 8)}`,
      concurrency: config.workerConcurrency,
      idle: Option.getOrUndefined(config.workerIdlePollMs),
      confirmEvery: usesDevnet(config) ? "500 millis" : "5 seconds",
      webhookSchedule: Option.getOrElse(config.webhookRetrySchedule, () => WebhookDelivery.DEFAULT_SCHEDULE_MS),
      mail: {
        schedule: Option.getOrElse(config.mailRetrySchedule, () => Email.DEFAULT_SCHEDULE_MS),
        tokenTtlMs: Option.getOrElse(config.claimLinkTtlMs, () => Claims.DEFAULT_TTL_MS)
      }
    }))).pipe(
      // Signing hashes its documents on worker threads (the keys stay in this thread's vault).
      Layer.provide(SigningPool.layer())
    )
    : Layer.empty

/**
 * Everything but the HTTP servers: what the workers, the admin CLI's direct mode and tests need.
 *
 * @since 0.1.0
 * @category layers
 */
export const servicesLayer = (config: ServerConfig, secrets: Secrets) =>
  Layer.mergeAll(
    chainLayer(config),
    LocalIdentity.layer({ publicBaseUrl: config.publicBaseUrl }),
    WebhookSenderLive.layer({ allowPrivate: config.allowPrivateWebhookUrls }),
    MailerLive.layer({ smtpUrl: config.smtpUrl, from: mailFrom(config), outboxDir: outboxDir(config) })
  ).pipe(
    Layer.provideMerge(Layer.mergeAll(
      storeLayer(config, secrets),
      settingsLayer(config, secrets),
      // Sigil's documents on the fast path, anything else through jsonld.js.
      Canonicalizer.layerFast,
      NodePrimitives.layer
    ))
  )

/**
 * The whole service.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (config: ServerConfig, secrets: Secrets) =>
  Layer.mergeAll(httpLayer(config, secrets), workersLayer(config)).pipe(
    Layer.provideMerge(servicesLayer(config, secrets))
  )
