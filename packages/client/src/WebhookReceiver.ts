/**
 * A webhook receiver on node:http, for development and for `waitFor` with webhooks: every POST
 * is verified (`Webhooks.parse`) before anything else; a valid delivery answers 204 and is
 * handed to the listeners once (a redelivery of an event id already seen answers 204 and is
 * not handed over again), an invalid one answers 401 and is reported to `onRejected`.
 *
 * @since 0.1.0
 */
import { createServer, type IncomingMessage, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import * as Webhooks from "./Webhooks.js"

/**
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** The endpoint's `whsec_…` signing secret (a function: read at each delivery). */
  readonly secret: string | (() => string)
  /** Default 0 (a free port). */
  readonly port?: number | undefined
  /** Default 127.0.0.1. */
  readonly host?: string | undefined
  /** Largest body accepted, in bytes. Default 1 MiB. */
  readonly maxBodyBytes?: number | undefined
  readonly toleranceSeconds?: number | undefined
  /** Called for each delivery that does not verify. */
  readonly onRejected?: ((reason: string, request: IncomingMessage) => void) | undefined
}

/**
 * @since 0.1.0
 * @category models
 */
export interface Receiver {
  /** `http://host:port/`: the URL to register. */
  readonly url: string
  readonly port: number
  readonly server: Server
  /** Adds a listener; returns its removal. */
  readonly onEvent: (listener: (event: Webhooks.Event) => void) => () => void
  /** Resolves with the first event (from now on) that satisfies `predicate`. */
  readonly next: (predicate?: (event: Webhooks.Event) => boolean, timeoutMs?: number) => Promise<Webhooks.Event>
  /** Every verified event received so far, in order. */
  readonly events: ReadonlyArray<Webhooks.Event>
  readonly close: () => Promise<void>
}

const readBody = (request: IncomingMessage, limit: number): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Array<Buffer> = []
    let size = 0
    request.on("data", (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) {
        reject(new Error("body too large"))
        request.destroy()
      } else {
        chunks.push(chunk)
      }
    })
    request.on("end", () => resolve(Buffer.concat(chunks)))
    request.on("error", reject)
  })

/**
 * Starts a receiver.
 *
 * @since 0.1.0
 * @category constructors
 */
export const start = async (options: Options): Promise<Receiver> => {
  const listeners = new Set<(event: Webhooks.Event) => void>()
  const events: Array<Webhooks.Event> = []
  const seen = new Set<string>()
  const server = createServer((request, response) => {
    if (request.method !== "POST") {
      response.writeHead(405, { allow: "POST" }).end()
      return
    }
    readBody(request, options.maxBodyBytes ?? 1024 * 1024).then(
      (body) => {
        let event: Webhooks.Event
        try {
          const secret = typeof options.secret === "function" ? options.secret() : options.secret
          event = Webhooks.parse(secret, request.headers, body, { toleranceSeconds: options.toleranceSeconds })
        } catch (error) {
          options.onRejected?.((error as Error).message, request)
          response.writeHead(401, { "content-type": "text/plain" }).end("invalid signature\n")
          return
        }
        response.writeHead(204).end()
        if (seen.has(event.id)) return
        seen.add(event.id)
        events.push(event)
        for (const listener of listeners) listener(event)
      },
      () => {
        if (!response.headersSent) response.writeHead(413).end()
      }
    )
  })
  const host = options.host ?? "127.0.0.1"
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(options.port ?? 0, host, () => resolve())
  })
  const port = (server.address() as AddressInfo).port
  const onEvent = (listener: (event: Webhooks.Event) => void) => {
    listeners.add(listener)
    return () => void listeners.delete(listener)
  }
  const next = (predicate: (event: Webhooks.Event) => boolean = () => true, timeoutMs?: number) =>
    new Promise<Webhooks.Event>((resolve, reject) => {
      const timer = timeoutMs === undefined ? undefined : setTimeout(() => {
        remove()
        reject(new Error(`no matching webhook event within ${timeoutMs} ms`))
      }, timeoutMs)
      const remove = onEvent((event) => {
        if (!predicate(event)) return
        remove()
        if (timer !== undefined) clearTimeout(timer)
        resolve(event)
      })
    })
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    })
  return { url: `http://${host.includes(":") ? `[${host}]` : host}:${port}/`, port, server, onEvent, next, events, close }
}
