/**
 * Every setting of the server, from the environment (decisions §7). This is the only place that
 * knows the variables' names; everything else gets typed options.
 *
 * @since 0.1.0
 */
import * as ClientLimiter from "@sigil/service/Access/ClientLimiter"
import * as HttpCaching from "./HttpCaching.js"
import { Config, ConfigError, type Effect, Either, Option, Redacted } from "effect"

/**
 * @since 0.1.0
 * @category models
 */
export interface ChainSettings {
  readonly rpcUrl: Redacted.Redacted<string>
  readonly treasuryKey: Option.Option<Redacted.Redacted<string>>
}

/**
 * @since 0.1.0
 * @category models
 */
export interface ServerConfig {
  readonly port: number
  readonly host: string
  readonly publicBaseUrl: string
  readonly dataDir: string
  readonly databaseUrl: Option.Option<Redacted.Redacted<string>>
  /** Connections this process keeps to Postgres (`SIGIL_DB_POOL_SIZE`, default 10; the embedded store uses one). */
  readonly dbPoolSize: number
  readonly masterKey: Option.Option<Redacted.Redacted<string>>
  readonly adminPort: number
  readonly adminToken: Option.Option<Redacted.Redacted<string>>
  /** Base Sepolia; when absent the test environment anchors on the embedded devnet. */
  readonly baseSepolia: Option.Option<ChainSettings>
  /** Base mainnet; when absent the live environment cannot anchor (batches wait). */
  readonly baseMainnet: Option.Option<ChainSettings>
  readonly anchorConfirmations: Option.Option<number>
  readonly allowPrivateWebhookUrls: boolean
  /** Delays before each webhook retry, in milliseconds (`WEBHOOK_RETRY_SCHEDULE`, e.g. `5s,5m,30m`). */
  readonly webhookRetrySchedule: Option.Option<ReadonlyArray<number>>
  readonly workerConcurrency: number
  /**
   * The longest an idle worker sleeps without a wake-up (`SIGIL_WORKER_IDLE_POLL`, default `15s`,
   * 1s to 1h): the safety net should a wake-up be lost, and what an idle server costs its store.
   */
  readonly workerIdlePollMs: Option.Option<number>
  /** Whether this process runs workers at all (several API-only processes may share a database). */
  readonly workers: boolean
  /** Creates a demo tenant and prints its key on the first start. */
  readonly demoTenant: boolean
  /** How long the chain may refuse a batch's transaction before the batch fails (`SIGIL_ANCHOR_REJECTION_GRACE`, default 24h). */
  readonly anchorRejectionGraceMs: Option.Option<number>
  /** Replaces every plan's requests-per-minute (load tests, private deployments). */
  readonly rateLimitPerMinute: Option.Option<number>
  /**
   * Public JSON-RPC endpoints that visitors' browsers read Base from when the verification page
   * re-checks a credential (never the server's own, possibly keyed, RPC URLs). Base's public
   * endpoints by default; an empty value turns one off.
   */
  readonly browserRpc: { readonly baseSepolia: Option.Option<string>; readonly baseMainnet: Option.Option<string> }
  /** `SMTP_URL`: where magic-link e-mails go; unset → `.eml` files in `<dataDir>/outbox/`. */
  readonly smtpUrl: Option.Option<Redacted.Redacted<string>>
  /** `SIGIL_MAIL_FROM`: the From address; `no-reply@<host of PUBLIC_BASE_URL>` when unset (see `mailFrom`). */
  readonly mailFrom: Option.Option<string>
  /** Delays before each retry of an e-mail, in milliseconds (`SIGIL_MAIL_RETRY_SCHEDULE`, e.g. `1m,5m,30m`). */
  readonly mailRetrySchedule: Option.Option<ReadonlyArray<number>>
  /** How long a claim link works (`SIGIL_CLAIM_LINK_TTL`, default `30d`; shorter only for tests). */
  readonly claimLinkTtlMs: Option.Option<number>
  /**
   * How long third parties may cache the public documents (`SIGIL_STATUS_LIST_MAX_AGE`, default
   * `5m`: the longest a caching verifier may miss a revocation; `SIGIL_IDENTITY_MAX_AGE`, `5m`;
   * `SIGIL_CREDENTIAL_MAX_AGE`, `1m`), in seconds.
   */
  readonly freshness: HttpCaching.Freshness
  /**
   * How long a process remembers an API key's lookup (`SIGIL_AUTH_CACHE_TTL`, default `5s`; `0`
   * turns it off): the longest a key revoked, or a plan or allowlist changed, through another
   * process goes unseen here. Changes made through this process apply to its next request.
   */
  readonly authCacheTtlMs: number
  /**
   * Requests per minute one client address may make without a key (`SIGIL_PUBLIC_RATE_LIMIT`,
   * default 1200; `0` turns the limit off): pages, public documents, the devnet's JSON-RPC.
   */
  readonly publicRateLimitPerMinute: number
  /** A reverse proxy in front sets `X-Forwarded-For` (`SIGIL_TRUST_PROXY`, default false). */
  readonly trustProxy: boolean
}

/**
 * The From address of e-mails: `SIGIL_MAIL_FROM`, else `no-reply@` the host of
 * `PUBLIC_BASE_URL`.
 *
 * @since 0.1.0
 * @category config
 */
export const mailFrom = (config: Pick<ServerConfig, "mailFrom" | "publicBaseUrl">): string =>
  Option.getOrElse(config.mailFrom, () => `no-reply@${new URL(config.publicBaseUrl).hostname}`)

const durationMs = (text: string): number | undefined => {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/.exec(text.trim())
  if (match === null) return undefined
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[match[2] ?? "ms"]!
  return Math.round(Number(match[1]) * unit)
}

const scheduleOf = (name: string): Config.Config<ReadonlyArray<number>> =>
  Config.string(name).pipe(
    Config.mapOrFail((text) => {
      const delays = text.split(",").map(durationMs)
      return delays.every((d): d is number => d !== undefined)
        ? Either.right(delays)
        : Either.left(ConfigError.InvalidData([name], "expected a comma-separated list such as 1s,2s,5s"))
    })
  )

const schedule = scheduleOf("WEBHOOK_RETRY_SCHEDULE")

const duration = (name: string, example: string): Config.Config<number> =>
  Config.string(name).pipe(
    Config.mapOrFail((text) => {
      const ms = durationMs(text)
      return ms === undefined ? Either.left(ConfigError.InvalidData([name], `expected a duration such as ${example}`)) : Either.right(ms)
    })
  )

// A cache lifetime: a duration (`5m`, `0` to make every cache ask again each time), in whole seconds.
const seconds = (name: string, fallbackSeconds: number): Config.Config<number> =>
  Config.string(name).pipe(
    Config.mapOrFail((text) => {
      const ms = text.trim() === "0" ? 0 : durationMs(text)
      return ms === undefined || ms > 7 * 86_400_000
        ? Either.left(ConfigError.InvalidData([name], "expected a duration of at most 7d such as 5m, or 0"))
        : Either.right(Math.floor(ms / 1000))
    }),
    Config.withDefault(fallbackSeconds)
  )

// local@domain, nothing that needs quoting: the address goes into the From header as it is.
const EMAIL_ADDRESS = /^[^\s@"(),:;<>[\]\\]{1,64}@[^\s@"(),:;<>[\]\\]+$/

const chain = (rpc: string, treasury: string): Config.Config<Option.Option<ChainSettings>> =>
  Config.option(Config.redacted(rpc)).pipe(
    Config.zipWith(Config.option(Config.redacted(treasury)), (rpcUrl, treasuryKey) =>
      Option.map(rpcUrl, (url) => ({ rpcUrl: url, treasuryKey })))
  )

const publicRpc = (name: string, fallback: string): Config.Config<Option.Option<string>> =>
  Config.string(name).pipe(
    Config.withDefault(fallback),
    Config.mapOrFail((text) => {
      if (text.trim() === "") return Either.right(Option.none())
      try {
        const url = new URL(text)
        return url.protocol === "https:" || url.protocol === "http:"
          ? Either.right(Option.some(url.toString()))
          : Either.left(ConfigError.InvalidData([name], "expected an http(s) URL, or empty to turn it off"))
      } catch {
        return Either.left(ConfigError.InvalidData([name], "expected an http(s) URL, or empty to turn it off"))
      }
    })
  )

/**
 * @since 0.1.0
 * @category config
 */
export const config: Config.Config<ServerConfig> = Config.map(Config.all({
  port: Config.port("PORT").pipe(Config.withDefault(8080)),
  host: Config.string("HOST").pipe(Config.withDefault("127.0.0.1")),
  publicBaseUrl: Config.url("PUBLIC_BASE_URL").pipe(
    Config.map((url) => url.toString().replace(/\/+$/, "")),
    Config.withDefault("http://localhost:8080")
  ),
  dataDir: Config.string("SIGIL_DATA_DIR").pipe(Config.withDefault("./.sigil")),
  databaseUrl: Config.option(Config.redacted("DATABASE_URL")),
  dbPoolSize: Config.integer("SIGIL_DB_POOL_SIZE").pipe(
    Config.validate({ message: "expected a whole number of connections from 1 to 1000", validation: (n) => n >= 1 && n <= 1000 }),
    Config.withDefault(10)
  ),
  masterKey: Config.option(Config.redacted("SIGIL_MASTER_KEY")),
  adminPort: Config.port("ADMIN_PORT").pipe(Config.withDefault(8081)),
  adminToken: Config.option(Config.redacted("ADMIN_TOKEN")),
  baseSepolia: chain("BASE_SEPOLIA_RPC_URL", "ANCHOR_TREASURY_KEY_TEST"),
  baseMainnet: chain("BASE_MAINNET_RPC_URL", "ANCHOR_TREASURY_KEY_LIVE"),
  anchorConfirmations: Config.option(Config.integer("ANCHOR_CONFIRMATIONS")),
  allowPrivateWebhookUrls: Config.option(Config.boolean("SIGIL_ALLOW_PRIVATE_WEBHOOK_URLS")),
  webhookRetrySchedule: Config.option(schedule),
  workerConcurrency: Config.integer("SIGIL_WORKER_CONCURRENCY").pipe(Config.withDefault(4)),
  workerIdlePollMs: Config.option(duration("SIGIL_WORKER_IDLE_POLL", "15s").pipe(
    Config.validate({ message: "expected a duration from 1s to 1h such as 15s", validation: (ms) => ms >= 1000 && ms <= 3_600_000 })
  )),
  workers: Config.boolean("SIGIL_WORKERS").pipe(Config.withDefault(true)),
  demoTenant: Config.boolean("SIGIL_DEMO_TENANT").pipe(Config.withDefault(true)),
  rateLimitPerMinute: Config.option(Config.integer("SIGIL_RATE_LIMIT_PER_MINUTE")),
  anchorRejectionGraceMs: Config.option(Config.string("SIGIL_ANCHOR_REJECTION_GRACE").pipe(
    Config.mapOrFail((text) => {
      const ms = durationMs(text)
      return ms === undefined
        ? Either.left(ConfigError.InvalidData(["SIGIL_ANCHOR_REJECTION_GRACE"], "expected a duration such as 24h or 0s"))
        : Either.right(ms)
    })
  )),
  browserRpc: Config.all({
    baseSepolia: publicRpc("BASE_SEPOLIA_PUBLIC_RPC_URL", "https://sepolia.base.org"),
    baseMainnet: publicRpc("BASE_MAINNET_PUBLIC_RPC_URL", "https://mainnet.base.org")
  }),
  smtpUrl: Config.option(Config.redacted("SMTP_URL").pipe(
    Config.validate({
      message: "expected an smtp:// or smtps:// URL such as smtp://user:password@mail.example.org:587",
      validation: (url) => /^smtps?:\/\/[^/]/.test(Redacted.value(url))
    })
  )),
  mailFrom: Config.option(Config.string("SIGIL_MAIL_FROM").pipe(
    Config.validate({ message: "expected an e-mail address such as no-reply@sigil.example", validation: (s) => EMAIL_ADDRESS.test(s) })
  )),
  mailRetrySchedule: Config.option(scheduleOf("SIGIL_MAIL_RETRY_SCHEDULE")),
  claimLinkTtlMs: Config.option(duration("SIGIL_CLAIM_LINK_TTL", "30d")),
  authCacheTtlMs: Config.map(seconds("SIGIL_AUTH_CACHE_TTL", 5), (s) => s * 1000),
  publicRateLimitPerMinute: Config.integer("SIGIL_PUBLIC_RATE_LIMIT").pipe(
    Config.withDefault(ClientLimiter.DEFAULT_OPTIONS.perMinute),
    Config.validate({ message: "expected a whole number of requests per minute (0: no limit)", validation: (n) => n >= 0 })
  ),
  trustProxy: Config.boolean("SIGIL_TRUST_PROXY").pipe(Config.withDefault(false)),
  freshness: Config.all({
    statusListSeconds: seconds("SIGIL_STATUS_LIST_MAX_AGE", HttpCaching.DEFAULT_FRESHNESS.statusListSeconds),
    identitySeconds: seconds("SIGIL_IDENTITY_MAX_AGE", HttpCaching.DEFAULT_FRESHNESS.identitySeconds),
    credentialSeconds: seconds("SIGIL_CREDENTIAL_MAX_AGE", HttpCaching.DEFAULT_FRESHNESS.credentialSeconds)
  })
}), (settings) => ({
  ...settings,
  // decisions §5: the development start allows private webhook URLs. A run that is wholly
  // embedded (no DATABASE_URL, the devnet for the test environment) is a development start;
  // anything else refuses them unless SIGIL_ALLOW_PRIVATE_WEBHOOK_URLS says otherwise.
  allowPrivateWebhookUrls: Option.getOrElse(
    settings.allowPrivateWebhookUrls,
    () => Option.isNone(settings.databaseUrl) && Option.isNone(settings.baseSepolia)
  )
}))

/**
 * @since 0.1.0
 * @category config
 */
export const load: Effect.Effect<ServerConfig, ConfigError.ConfigError> = config
