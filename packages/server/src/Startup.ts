/**
 * What `npm start` shows: on the first start a demo tenant with a test API key, then a banner
 * with the addresses, the admin token (only one Sigil generated), where e-mails go (SMTP, or
 * the outbox directory and how many messages it holds) and a curl line to try.
 *
 * The demo key is printed once, by the start that created it, and kept nowhere: the data
 * directory's `demo-tenant.json` holds only the tenant's and the key's ids, the store only the
 * key's hash. A later start names the tenant and how to get a new key
 * (`npm run admin -- keys create <tenant> --environment test`).
 *
 * @since 0.1.0
 */
import * as Tenants from "@sigil/service/Tenants"
import { TenantStore } from "@sigil/service/Tenants/TenantStore"
import { Clock, Console, Effect, Layer, Option, Redacted } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import * as MailerLive from "./MailerLive.js"
import type { Secrets } from "./Server.js"
import { outboxDir, usesDevnet } from "./Server.js"
import type { ServerConfig } from "./ServerConfig.js"

const DEMO_FILE = "demo-tenant.json"

/** What the data directory keeps of the demo tenant: ids, never the key. */
interface Kept {
  readonly tenantId: string
  readonly keyId?: string | undefined
}

/**
 * The demo tenant, and its key when this start may show it (the start that created it; or the
 * one that found it in a `demo-tenant.json` of an earlier version, which it then drops).
 *
 * @since 0.1.0
 * @category models
 */
export interface Demo extends Kept {
  readonly apiKey: string | undefined
}

const keep = (file: string, kept: Kept) => {
  // Written aside and renamed, so a crash never leaves the file half-written.
  const temporary = `${file}.${process.pid}.tmp`
  fs.writeFileSync(temporary, `${JSON.stringify(kept, null, 2)}\n`, { mode: 0o600 })
  fs.renameSync(temporary, file)
}

/**
 * Creates the demo tenant when the store has no tenant yet; returns it (from the data directory
 * on later starts, if this data directory's server made it).
 *
 * @since 0.1.0
 * @category startup
 */
export const demoTenant = (config: ServerConfig) =>
  Effect.gen(function*() {
    const file = path.join(config.dataDir, DEMO_FILE)
    if (fs.existsSync(file)) {
      const stored = JSON.parse(fs.readFileSync(file, "utf8")) as Kept & { readonly apiKey?: string }
      if (stored.apiKey === undefined) return Option.some<Demo>({ ...stored, apiKey: undefined })
      // An earlier version kept the key in clear: show it this once more, and keep it no longer.
      keep(file, { tenantId: stored.tenantId, keyId: stored.keyId })
      return Option.some<Demo>({ tenantId: stored.tenantId, keyId: stored.keyId, apiKey: stored.apiKey })
    }
    const existing = yield* Effect.flatMap(TenantStore, (s) => s.list())
    if (existing.length > 0 || !config.demoTenant) return Option.none<Demo>()
    const now = new Date(yield* Clock.currentTimeMillis)
    const tenant = yield* Tenants.create({ name: "Demo University", plan: "developer" }, now)
    const key = yield* Tenants.createKey(tenant.id as never, "test", now)
    keep(file, { tenantId: tenant.id, keyId: key.id })
    return Option.some<Demo>({ tenantId: tenant.id, keyId: key.id, apiKey: key.key })
  })

const sampleBatch = JSON.stringify({
  credentials: [{
    recipient: { id: "urn:uuid:7f1c6a9e-3b0d-4e7f-8a2c-5d9e1b4c3a21", name: "Ada Lovelace" },
    achievement: { name: "Certificate in Analytical Engines", description: "Completed the programme." },
    issuanceDate: "2026-06-30T00:00:00Z"
  }]
})

/**
 * Where the master key and the admin token came from (`Secrets.Loaded["source"]`).
 *
 * @since 0.1.0
 * @category startup
 */
export interface Sources {
  readonly masterKey: string
  readonly adminToken: string
}

/**
 * The banner, printed once the servers listen.
 *
 * @since 0.1.0
 * @category startup
 */
export const banner = (config: ServerConfig, secrets: Secrets, sources: Sources, demo: Option.Option<Demo>) => {
  const api = `${config.publicBaseUrl}/v1`
  const lines = [
    "",
    "Sigil is running.",
    `  Issuer API      ${api}   (reference: ${api}/docs)`,
    // The token only when Sigil made it (now or on an earlier start, in the data directory): one
    // an operator set in ADMIN_TOKEN must not end up in a production log.
    `  Admin channel   http://127.0.0.1:${config.adminPort}/admin   token: ${
      sources.adminToken === "environment" ? "from ADMIN_TOKEN (not shown)" : Redacted.value(secrets.adminToken)
    }`,
    `  Store           ${Option.isSome(config.databaseUrl) ? "PostgreSQL (DATABASE_URL)" : `embedded PGlite in ${path.join(config.dataDir, "pglite")}`}`,
    `  Test chain      ${usesDevnet(config) ? `embedded devnet, JSON-RPC at ${config.publicBaseUrl}/devnet/rpc` : "Base Sepolia"}`,
    `  Live chain      ${Option.isSome(config.baseMainnet) ? "Base mainnet" : "not configured (live batches wait)"}`,
    `  Workers         ${config.workers ? `${config.workerConcurrency} in this process` : "off in this process"}`,
    `  E-mail          ${
      Option.match(config.smtpUrl, {
        onSome: (url) => `SMTP at ${MailerLive.describeSmtp(url)} (SMTP_URL)`,
        onNone: () => {
          const count = MailerLive.outboxCount(outboxDir(config))
          return `no SMTP_URL: messages are written to ${outboxDir(config)} (${count} message${count === 1 ? "" : "s"})`
        }
      })
    }`
  ]
  if (sources.masterKey !== "environment") {
    lines.push("", `  Warning: SIGIL_MASTER_KEY is not set; the key sealing tenant keys is ${sources.masterKey === "generated" ? "newly generated" : "read"} from ${path.join(config.dataDir, "master.key")}. Set it in production.`)
  }
  Option.match(demo, {
    onNone: () => lines.push("", "  Create a tenant and a key: npm run admin -- tenants create --name \"My University\" --plan starter"),
    onSome: (d) => {
      const newKey = `npm run admin -- keys create ${d.tenantId} --environment test`
      if (d.apiKey === undefined) {
        lines.push(
          "",
          `  Demo tenant     ${d.tenantId} (developer plan)`,
          `  Test API key    ${d.keyId ?? "the demo key"}: printed on the first start only (Sigil keeps its hash, never the key)`,
          `                  a new one: ${newKey}`,
          "",
          "Try it:",
          `  curl -s ${api}/batches -H "Authorization: Bearer $KEY"`
        )
        return
      }
      lines.push(
        "",
        `  Demo tenant     ${d.tenantId} (developer plan)`,
        `  Test API key    ${d.apiKey}`,
        `                  shown this once: Sigil keeps its hash, never the key (a new one: ${newKey})`,
        "",
        "Try it:",
        `  curl -s -X POST ${api}/batches -H "Authorization: Bearer ${d.apiKey}" -H "Content-Type: application/json" -d '${sampleBatch}'`,
        `  curl -s ${api}/batches -H "Authorization: Bearer ${d.apiKey}"`
      )
    }
  })
  lines.push("")
  return Console.log(lines.join("\n"))
}

/**
 * Demo tenant and banner, after everything else is up.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (config: ServerConfig, secrets: Secrets, sources: Sources) =>
  Layer.effectDiscard(Effect.flatMap(demoTenant(config), (demo) => banner(config, secrets, sources, demo)))
