/**
 * The webhook transport on node:http(s), with the SSRF guard of decisions §5: endpoints must be
 * https and must not resolve to private, loopback, link-local or otherwise internal addresses.
 * The check runs when an endpoint is registered and again at every connection, through the
 * socket's own DNS lookup, so a name that later resolves elsewhere (DNS rebinding) is still
 * refused. `allowPrivate` (SIGIL_ALLOW_PRIVATE_WEBHOOK_URLS, local development) lifts both rules.
 *
 * Deliveries time out after 10 s, follow no redirects, and read at most a little of the answer.
 *
 * @since 0.1.0
 */
import * as Cidr from "@sigil/service/Access/Cidr"
import * as WebhookSender from "@sigil/service/Webhooks/WebhookSender"
import { Effect, Layer } from "effect"
import type { LookupAddress } from "node:dns"
import * as dns from "node:dns"
import * as http from "node:http"
import * as https from "node:https"
import * as net from "node:net"

/**
 * Address blocks no webhook may reach (IANA special-purpose registries, IPv4 and IPv6).
 *
 * @since 0.1.0
 * @category constants
 */
export const BLOCKED = [
  "0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12",
  "192.0.0.0/24", "192.0.2.0/24", "192.88.99.0/24", "192.168.0.0/16", "198.18.0.0/15", "198.51.100.0/24",
  "203.0.113.0/24", "224.0.0.0/4", "240.0.0.0/4",
  "::/128", "::1/128", "64:ff9b::/96", "64:ff9b:1::/48", "100::/64", "2001::/32", "2001:db8::/32", "2002::/16",
  "fc00::/7", "fe80::/10", "fec0::/10", "ff00::/8"
].map((b) => Cidr.parse(b)!)

/**
 * Is this address one a webhook must not reach? (IPv4-mapped IPv6 counts as its IPv4.)
 *
 * @since 0.1.0
 * @category predicates
 */
export const isBlocked = (address: string): boolean => {
  const parsed = Cidr.parseAddress(address)
  return parsed === undefined || BLOCKED.some((block) => Cidr.contains(block, parsed))
}

/**
 * How names resolve: every address of a host name.
 *
 * @since 0.1.0
 * @category models
 */
export type Resolve = (hostname: string) => Promise<ReadonlyArray<LookupAddress>>

const systemResolve: Resolve = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true })

/**
 * @since 0.1.0
 * @category models
 */
export interface Options {
  readonly allowPrivate: boolean
  readonly timeoutMs?: number
  /** Name resolution, replaceable in tests. */
  readonly resolve?: Resolve
}

const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, "")

/**
 * @since 0.1.0
 * @category constructors
 */
export const make = (options: Options): WebhookSender.Service => {
  const resolve = options.resolve ?? systemResolve
  const timeoutMs = options.timeoutMs ?? 10_000
  const refuse = (url: string, message: string) => new WebhookSender.WebhookUrlRefused({ url, message })

  const checkUrl = (raw: string) =>
    Effect.gen(function*() {
      const url = yield* Effect.try({ try: () => new URL(raw), catch: () => refuse(raw, "not a URL") })
      if (url.protocol !== "https:" && !(options.allowPrivate && url.protocol === "http:")) {
        return yield* refuse(raw, "webhook URLs must use https")
      }
      if (options.allowPrivate) return
      const host = hostOf(url)
      const addresses = net.isIP(host) !== 0
        ? [host]
        : yield* Effect.tryPromise({
          try: () => resolve(host),
          catch: () => refuse(raw, `the host ${host} does not resolve`)
        }).pipe(Effect.map((list) => list.map((a) => a.address)))
      if (addresses.length === 0) return yield* refuse(raw, `the host ${host} does not resolve`)
      const blocked = addresses.find(isBlocked)
      if (blocked !== undefined) {
        return yield* refuse(raw, `the host resolves to ${blocked}, a private, loopback or reserved address`)
      }
    })

  // The connection's own lookup: resolves once, refuses internal addresses, and connects to
  // exactly the address it checked.
  const guardedLookup: net.LookupFunction = (hostname, lookupOptions, callback) => {
    resolve(hostname).then(
      (list) => {
        const usable = list.filter((a) => options.allowPrivate || !isBlocked(a.address))
        if (usable.length === 0) {
          callback(Object.assign(new Error(`${hostname} resolves only to refused addresses`), { code: "EREFUSED" }), "", 4)
          return
        }
        if (lookupOptions.all === true) callback(null, usable as Array<LookupAddress>)
        else callback(null, usable[0]!.address, usable[0]!.family)
      },
      (error: NodeJS.ErrnoException) => callback(error, "", 4)
    )
  }

  const post = (raw: string, headers: Readonly<Record<string, string>>, body: string) =>
    Effect.flatMap(checkUrl(raw), () =>
      Effect.async<WebhookSender.Response, WebhookSender.DeliveryFailed>((resume) => {
        const url = new URL(raw)
        const client = url.protocol === "https:" ? https : http
        const literal = net.isIP(hostOf(url)) !== 0
        const request = client.request(url, {
          method: "POST",
          headers: { ...headers, "content-length": String(Buffer.byteLength(body)) },
          timeout: timeoutMs,
          ...(literal ? {} : { lookup: guardedLookup })
        }, (response) => {
          // Only the status matters; drain a little and drop the rest.
          response.resume()
          resume(Effect.succeed({ status: response.statusCode ?? 0 }))
          response.destroy()
        })
        request.on("timeout", () => request.destroy(new Error(`no answer within ${timeoutMs / 1000} s`)))
        request.on("error", (error) => resume(Effect.fail(new WebhookSender.DeliveryFailed({ message: error.message }))))
        request.end(body)
        return Effect.sync(() => request.destroy())
      }))

  return { checkUrl, post }
}

/**
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: Options): Layer.Layer<WebhookSender.WebhookSender> =>
  Layer.succeed(WebhookSender.WebhookSender, make(options))
