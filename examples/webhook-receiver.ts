/**
 * A webhook receiver on plain node:http that verifies every delivery's signature before
 * trusting it (Standard Webhooks: webhook-id, webhook-timestamp, webhook-signature).
 *
 * Run it, then register its URL (`POST /v1/webhooks`) and put the returned secret in
 * SIGIL_WEBHOOK_SECRET:
 *   SIGIL_WEBHOOK_SECRET=whsec_… PORT=4000 npx tsx examples/webhook-receiver.ts
 */
import { Webhooks } from "@sigil/client"
import { createServer, type Server } from "node:http"
import { realpathSync } from "node:fs"
import { pathToFileURL } from "node:url"

export const startReceiver = (options: {
  readonly secret: string
  readonly port?: number
  readonly onEvent?: (event: Webhooks.Event) => void
}): Promise<Server> => {
  const server = createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      // Verify the raw bytes as received, before parsing: re-serialized JSON would not match.
      const body = Buffer.concat(chunks)
      if (!Webhooks.verify(options.secret, request.headers, body)) {
        response.writeHead(401).end("invalid signature")
        return
      }
      const event = JSON.parse(body.toString("utf8")) as Webhooks.Event
      // Answer 2xx quickly; do the work afterwards. The same event may arrive twice (retries):
      // deduplicate on event.id (= the webhook-id header).
      response.writeHead(204).end()
      options.onEvent?.(event)
    })
  })
  return new Promise((resolve) => server.listen(options.port ?? 0, "127.0.0.1", () => resolve(server)))
}

// Run directly (also through a symlinked path): the entry module is this file.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  const secret = process.env.SIGIL_WEBHOOK_SECRET
  if (secret === undefined) throw new Error("set SIGIL_WEBHOOK_SECRET to the endpoint's signing secret")
  const server = await startReceiver({
    secret,
    port: Number(process.env.PORT ?? 4000),
    onEvent: (event) => console.log(`${event.created_at} ${event.type} ${JSON.stringify(event.data)}`)
  })
  console.log(`listening on http://127.0.0.1:${(server.address() as { port: number }).port}/`)
}
