/**
 * A real local webhook receiver: node:http on 127.0.0.1 that records every delivery (raw body,
 * headers, arrival time) and answers what the test tells it to, per path. Deliveries are
 * verified with the npm `standardwebhooks` package, exactly as an integrator would.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { Webhook } from "standardwebhooks"

export interface Delivery {
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly body: string
  /** Arrival time (ms since the epoch). */
  readonly at: number
  /** The status this receiver answered (0 while it has not answered yet). */
  readonly status: number
}

export interface Envelope {
  readonly id: string
  readonly type: string
  readonly created_at: string
  readonly tenant_id: string
  readonly data: any
}

/** What to answer to the n-th (0-based) request on a path (a promise: answer later, like a slow receiver). */
export type Responder = (n: number, delivery: Omit<Delivery, "status">) => number | Promise<number>

export interface Receiver {
  readonly url: (path: string) => string
  readonly deliveries: () => ReadonlyArray<Delivery>
  /** Deliveries on one path. */
  readonly on: (path: string) => ReadonlyArray<Delivery>
  readonly respond: (path: string, responder: Responder) => void
  readonly close: () => Promise<void>
}

/** Answers `status` to the first `k` attempts of each event (by `webhook-id`), then 204. */
export const failFirst = (k: number, status = 500): Responder => {
  const seen = new Map<string, number>()
  return (_n, delivery) => {
    const id = String(delivery.headers["webhook-id"])
    const attempt = seen.get(id) ?? 0
    seen.set(id, attempt + 1)
    return attempt < k ? status : 204
  }
}

/** Starts a receiver; every path answers 204 unless told otherwise. */
export const startReceiver = (): Promise<Receiver> =>
  new Promise((resolve, reject) => {
    const deliveries: Array<Delivery> = []
    const responders = new Map<string, Responder>()
    const counts = new Map<string, number>()
    const server: Server = createServer((req, res) => {
      const chunks: Array<Buffer> = []
      req.on("data", (c: Buffer) => chunks.push(c))
      req.on("end", () => {
        const path = (req.url ?? "/").split("?")[0]!
        const n = counts.get(path) ?? 0
        counts.set(path, n + 1)
        const partial = { path, headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() }
        // Recorded on arrival: a sender killed before the answer still delivered it.
        const delivery: { -readonly [K in keyof Delivery]: Delivery[K] } = { ...partial, status: 0 }
        deliveries.push(delivery)
        void Promise.resolve((responders.get(path) ?? (() => 204))(n, partial)).then((status) => {
          delivery.status = status
          if (!res.destroyed) res.writeHead(status).end()
        })
      })
    })
    server.on("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const port = (server.address() as AddressInfo).port
      resolve({
        url: (path) => `http://127.0.0.1:${port}${path}`,
        deliveries: () => [...deliveries],
        on: (path) => deliveries.filter((d) => d.path === path),
        respond: (path, responder) => void responders.set(path, responder),
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections()
            server.close(() => done())
          })
      })
    })
  })

/**
 * Verifies a delivery with `standardwebhooks` (signature and a 5-minute timestamp tolerance)
 * and returns its envelope; throws when it does not verify.
 */
export const verifyDelivery = (secret: string, delivery: Delivery): Envelope => {
  const headers = {
    "webhook-id": String(delivery.headers["webhook-id"]),
    "webhook-timestamp": String(delivery.headers["webhook-timestamp"]),
    "webhook-signature": String(delivery.headers["webhook-signature"])
  }
  const payload = new Webhook(secret).verify(delivery.body, headers) as Envelope
  if (payload.id !== headers["webhook-id"]) throw new Error(`webhook-id ${headers["webhook-id"]} is not the envelope's id ${payload.id}`)
  return payload
}
