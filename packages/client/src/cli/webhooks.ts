/**
 * `sigil webhooks listen | list | test | delete`.
 *
 * @internal
 */
import { WEBHOOK_EVENT_TYPES } from "@sigil/service/Inputs/WebhookInputs"
import * as Args from "../internal/args.js"
import * as PromiseClient from "../PromiseClient.js"
import * as SigilClient from "../SigilClient.js"
import * as WebhookReceiver from "../WebhookReceiver.js"
import type * as Webhooks from "../Webhooks.js"
import { clientOf, describeError, exitUsage, type Io, plural } from "./common.js"

/**
 * One line describing an event.
 *
 * @since 0.1.0
 * @category webhooks
 */
export const describeEvent = (event: Webhooks.Event): string => {
  const d = event.data as { readonly [k: string]: any }
  const what = (() => {
    switch (event.type) {
      case "batch.created":
        return `batch ${d.batch_id}: ${plural(Number(d.credentials_count), "credential")} (${d.environment})`
      case "batch.signed":
        return `batch ${d.batch_id} signed, Merkle root ${d.merkle_root}`
      case "batch.anchored":
        return `batch ${d.batch_id} anchored on ${d.anchor_transaction?.chain} in ${d.anchor_transaction?.hash} (${plural(d.credentials?.length ?? 0, "credential")})`
      case "batch.failed":
        return `batch ${d.batch_id} failed: ${d.error_code}: ${d.error_message}`
      case "credential.revoked":
        return `credential ${d.credential_id} revoked (${d.reason_code}): ${d.reason}`
      case "credential.erased":
        return `credential ${d.credential_id} erased; ${d.verification_status_after_erasure} after erasure`
      case "webhook.test":
        return String(d.note ?? "test event")
    }
  })()
  return `${event.created_at}  ${event.type.padEnd(18)}  ${event.id}  ${what}`
}

export const webhooksListen = async (argv: ReadonlyArray<string>, io: Io): Promise<number> => {
  const args = Args.parse(argv, {
    strings: ["secret", "port", "host", "events", "count", "public-url"],
    booleans: ["register", "json", "help"]
  })
  if (Args.flag(args, "help")) {
    io.stdout.write(
      "Usage: sigil webhooks listen [--register [--events <t1,t2>] [--public-url <url>]] [--secret <whsec_…>] [--port <n>] [--host <h>] [--count <n>] [--json]\n\n" +
        "A local receiver for development: verifies each delivery's Standard Webhooks signature and prints\n" +
        "the event (401 for a bad signature). --register creates an endpoint for this receiver with your\n" +
        "API key (the server must allow private URLs: SIGIL_ALLOW_PRIVATE_WEBHOOK_URLS=true) and deletes it\n" +
        "when you stop (Ctrl-C). Without --register, pass the endpoint's secret (--secret or\n" +
        "SIGIL_WEBHOOK_SECRET). --count exits after that many events.\n"
    )
    return 0
  }
  if (args.positionals.length > 0) return exitUsage(io, `unexpected argument ${args.positionals[0]}`)
  const register = Args.flag(args, "register")
  const port = Args.integer(args, "port", { min: 0, max: 65_535 }) ?? 0
  const count = Args.integer(args, "count", { min: 1, max: 1_000_000 })
  const json = Args.flag(args, "json")
  const events = Args.string(args, "events")?.split(",").map((e) => e.trim()).filter((e) => e !== "") ?? [...WEBHOOK_EVENT_TYPES]
  let secret = Args.string(args, "secret") ?? io.env.SIGIL_WEBHOOK_SECRET
  if (!register && secret === undefined) {
    return exitUsage(io, "webhooks listen needs --register, or the endpoint's secret in --secret or SIGIL_WEBHOOK_SECRET")
  }
  // The secret is only known after registering, which needs the receiver's URL: start first,
  // verify with whatever secret is set by then.
  let current = secret ?? ""
  let seen = 0
  let done: () => void = () => {}
  const finished = new Promise<void>((resolve) => (done = resolve))
  const receiver = await WebhookReceiver.start({
    secret: () => current,
    port,
    host: Args.string(args, "host"),
    onRejected: (reason) => io.stderr.write(`sigil: rejected a delivery: ${reason}\n`)
  })
  receiver.onEvent((event) => {
    io.stdout.write(json ? `${JSON.stringify(event)}\n` : `${describeEvent(event)}\n`)
    seen += 1
    if (count !== undefined && seen >= count) done()
  })
  const url = Args.string(args, "public-url") ?? receiver.url
  let registered: SigilClient.CreatedWebhookEndpoint | undefined
  let client: PromiseClient.Client | undefined
  try {
    if (register) {
      client = clientOf(io)
      registered = await client.webhooks.create({
        url,
        events: events as Array<(typeof WEBHOOK_EVENT_TYPES)[number]>,
        description: "sigil webhooks listen"
      })
      current = registered.signing_secret
      secret = current
      io.stderr.write(`sigil: registered webhook ${registered.id} for ${url} (${events.join(", ")}); it is deleted when you stop\n`)
    }
    io.stderr.write(`sigil: listening on ${receiver.url}; verifying signatures. Ctrl-C to stop.\n`)
    await Promise.race([finished, io.interrupted()])
  } catch (error) {
    io.stderr.write(`sigil: ${describeError(error)}\n`)
    if (error instanceof PromiseClient.SigilError && error.code === "invalid_field_format" && register) {
      io.stderr.write("sigil: a local URL needs SIGIL_ALLOW_PRIVATE_WEBHOOK_URLS=true on the server (or use --public-url)\n")
    }
    await receiver.close()
    return 1
  } finally {
    if (registered !== undefined && client !== undefined) {
      try {
        await client.webhooks.delete(registered.id)
        io.stderr.write(`sigil: deleted webhook ${registered.id}\n`)
      } catch (error) {
        io.stderr.write(`sigil: could not delete webhook ${registered.id}: ${describeError(error)}\n`)
      }
    }
  }
  await receiver.close()
  return 0
}

export const webhooksList = async (argv: ReadonlyArray<string>, io: Io): Promise<number> => {
  const args = Args.parse(argv, { booleans: ["json", "help"] })
  if (Args.flag(args, "help")) {
    io.stdout.write("Usage: sigil webhooks list [--json]\n")
    return 0
  }
  const list = await clientOf(io).webhooks.list()
  if (Args.flag(args, "json")) {
    io.stdout.write(`${JSON.stringify({ data: list }, null, 2)}\n`)
    return 0
  }
  for (const w of list) io.stdout.write(`${w.id}  ${w.active ? "active  " : "inactive"}  ${w.url}  ${w.events.join(",")}\n`)
  if (list.length === 0) io.stdout.write("(no webhook endpoints)\n")
  return 0
}

export const webhooksTest = async (argv: ReadonlyArray<string>, io: Io): Promise<number> => {
  const [id, ...rest] = Args.parse(argv, {}).positionals
  if (id === undefined || rest.length > 0) return exitUsage(io, "webhooks test needs one webhook id")
  const result = await clientOf(io).webhooks.test(id)
  io.stdout.write(
    result.delivered
      ? `Delivered a webhook.test event (HTTP ${result.status_code}).\n`
      : `Not delivered (${result.status_code === null ? "no HTTP answer" : `HTTP ${result.status_code}`}).\n`
  )
  return result.delivered ? 0 : 1
}

export const webhooksDelete = async (argv: ReadonlyArray<string>, io: Io): Promise<number> => {
  const [id, ...rest] = Args.parse(argv, {}).positionals
  if (id === undefined || rest.length > 0) return exitUsage(io, "webhooks delete needs one webhook id")
  await clientOf(io).webhooks.delete(id)
  io.stdout.write(`Deleted ${id}.\n`)
  return 0
}
