/**
 * `npm run admin -- <command>`: the administrative channel from a shell (decisions §7).
 *
 *   tenants create --name <name> --plan <developer|starter|institution|industry>
 *   tenants get <tenant_id>
 *   tenants update <tenant_id> [--plan <plan>] [--recipient-name-mode <hashed|plain>] [--ip-allowlist <cidr,…|none>]
 *                              [--email-delivery <on|off> [--sender-name <name>] [--reply-to <address>]]
 *   keys create <tenant_id> [--environment <test|live>]
 *   keys revoke <key_id>
 *   audit <tenant_id> [--since <ISO date-time>] [--limit <n>]
 *   master-key generate
 *   master-key rotate            (SIGIL_NEW_MASTER_KEY in the environment; see MasterKeyCommand)
 *
 * It talks to the running server at `SIGIL_ADMIN_URL` (default `http://127.0.0.1:$ADMIN_PORT`)
 * with `ADMIN_TOKEN`, or the token the server generated in `$SIGIL_DATA_DIR/admin.token`; the
 * master-key commands work on the store itself.
 *
 * @since 0.1.0
 */
import { Config, Effect, Option, Redacted } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import * as MasterKeyCommand from "./MasterKeyCommand.js"

const USAGE = `usage: npm run admin -- <command>
  tenants create --name <name> --plan <developer|starter|institution|industry>
  tenants get <tenant_id>
  tenants update <tenant_id> [--plan <plan>] [--recipient-name-mode <hashed|plain>] [--ip-allowlist <cidr,...|none>]
                             [--email-delivery <on|off> [--sender-name <name>] [--reply-to <address>]]
  keys create <tenant_id> [--environment <test|live>]
  keys revoke <key_id>
  audit <tenant_id> [--since <ISO date-time>] [--limit <n>]
  master-key generate
  master-key rotate                (the new key in SIGIL_NEW_MASTER_KEY)`

/**
 * A parsed command line: positional words and `--flag value` pairs.
 *
 * @since 0.1.0
 * @category parsing
 */
export const parseArgs = (argv: ReadonlyArray<string>) => {
  const words: Array<string> = []
  const flags = new Map<string, string>()
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (arg.startsWith("--")) {
      const [name, inline] = arg.slice(2).split("=", 2) as [string, string | undefined]
      flags.set(name, inline ?? argv[++i] ?? "")
    } else words.push(arg)
  }
  return { words, flags }
}

/**
 * The HTTP request a command stands for, or a usage error.
 *
 * @since 0.1.0
 * @category parsing
 */
export const requestFor = (argv: ReadonlyArray<string>): { readonly method: string; readonly path: string; readonly body?: unknown } | string => {
  const { flags, words } = parseArgs(argv)
  const [group, action, id] = words
  const need = (value: string | undefined, what: string) => value === undefined || value === "" ? `missing ${what}` : undefined
  const enc = encodeURIComponent
  if (group === "tenants" && action === "create") {
    return need(flags.get("name"), "--name") ?? need(flags.get("plan"), "--plan") ??
      { method: "POST", path: "/admin/tenants", body: { name: flags.get("name"), plan: flags.get("plan") } }
  }
  if (group === "tenants" && action === "get") return need(id, "<tenant_id>") ?? { method: "GET", path: `/admin/tenants/${enc(id!)}` }
  if (group === "tenants" && action === "update") {
    const allowlist = flags.get("ip-allowlist")
    const email = flags.get("email-delivery")
    if (email === undefined && (flags.has("sender-name") || flags.has("reply-to"))) {
      return "--sender-name and --reply-to go with --email-delivery on (the setting is replaced as a whole)"
    }
    if (email !== undefined && email !== "on" && email !== "off") return "--email-delivery takes on or off"
    return need(id, "<tenant_id>") ?? {
      method: "PATCH",
      path: `/admin/tenants/${enc(id!)}`,
      body: {
        ...(flags.has("plan") ? { plan: flags.get("plan") } : {}),
        ...(flags.has("recipient-name-mode") ? { recipient_name_mode: flags.get("recipient-name-mode") } : {}),
        ...(allowlist === undefined ? {} : { ip_allowlist: allowlist === "none" ? [] : allowlist.split(",").map((s) => s.trim()) }),
        ...(email === undefined ? {} : {
          email_delivery: {
            enabled: email === "on",
            ...(flags.has("sender-name") ? { sender_name: flags.get("sender-name") } : {}),
            ...(flags.has("reply-to") ? { reply_to: flags.get("reply-to") } : {})
          }
        })
      }
    }
  }
  if (group === "keys" && action === "create") {
    return need(id, "<tenant_id>") ??
      { method: "POST", path: `/admin/tenants/${enc(id!)}/keys`, body: { environment: flags.get("environment") ?? "test" } }
  }
  if (group === "keys" && action === "revoke") return need(id, "<key_id>") ?? { method: "POST", path: `/admin/keys/${enc(id!)}/revoke` }
  if (group === "audit") {
    const tenant = action
    const query = new URLSearchParams()
    if (flags.has("since")) query.set("since", flags.get("since")!)
    if (flags.has("limit")) query.set("limit", flags.get("limit")!)
    const suffix = query.size > 0 ? `?${query}` : ""
    return need(tenant, "<tenant_id>") ?? { method: "GET", path: `/admin/tenants/${enc(tenant!)}/audit${suffix}` }
  }
  return "unknown command"
}

const settings = Config.all({
  url: Config.option(Config.string("SIGIL_ADMIN_URL")),
  port: Config.port("ADMIN_PORT").pipe(Config.withDefault(8081)),
  token: Config.option(Config.redacted("ADMIN_TOKEN")),
  dataDir: Config.string("SIGIL_DATA_DIR").pipe(Config.withDefault("./.sigil"))
})

const program = Effect.gen(function*() {
  const { words } = parseArgs(process.argv.slice(2))
  if (words[0] === "master-key") return yield* MasterKeyCommand.run(words[1])
  const request = requestFor(process.argv.slice(2))
  if (typeof request === "string") {
    yield* Effect.sync(() => console.error(`${request}\n${USAGE}`))
    return 2
  }
  const config = yield* settings
  const tokenFile = path.join(config.dataDir, "admin.token")
  const token = Option.isSome(config.token)
    ? Redacted.value(config.token.value)
    : fs.existsSync(tokenFile) ? fs.readFileSync(tokenFile, "utf8").trim() : undefined
  if (token === undefined) {
    yield* Effect.sync(() => console.error(`no admin token: set ADMIN_TOKEN (the server prints it) or run from the server's directory (${tokenFile})`))
    return 2
  }
  const base = Option.getOrElse(config.url, () => `http://127.0.0.1:${config.port}`)
  const response = yield* Effect.tryPromise(() =>
    fetch(`${base}${request.path}`, {
      method: request.method,
      headers: { authorization: `Bearer ${token}`, ...(request.body === undefined ? {} : { "content-type": "application/json" }) },
      ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) })
    })
  )
  const text = yield* Effect.tryPromise(() => response.text())
  yield* Effect.sync(() => {
    let pretty = text
    try {
      pretty = JSON.stringify(JSON.parse(text), null, 2)
    } catch {
      // not JSON: print as is
    }
    ;(response.ok ? console.log : console.error)(pretty)
  })
  return response.ok ? 0 : 1
}).pipe(
  Effect.catchAll((error) => Effect.as(Effect.sync(() => console.error(`admin: ${String(error)}`)), 1))
)

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith("admin.ts")) {
  Effect.runPromise(program).then((code) => {
    process.exitCode = code
  })
}
