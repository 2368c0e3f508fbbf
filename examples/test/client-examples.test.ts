/**
 * The client examples, each run against one embedded server (the real `npm start` main on free
 * ports and a temporary data directory): the client issues and awaits a batch; the offline
 * verifier verifies one of its credentials and refuses it altered; the node:http receiver
 * accepts Sigil's signed deliveries and refuses a forged one.
 */
import type { Server } from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as ProcessHelpers from "@sigil/server/testkit/process"
import * as ClientIssue from "../client-issue.js"
import * as VerifyOffline from "../verify-offline.js"
import * as WebhookReceiver from "../webhook-receiver.js"
import { Effect } from "effect"
import type { Webhooks } from "@sigil/client"

let server: ProcessHelpers.Running
let apiKey: string
let credentialIds: Array<string> = []

beforeAll(async () => {
  server = await ProcessHelpers.start({ dataDir: ProcessHelpers.newDataDir() })
  apiKey = ProcessHelpers.demoKey(server)
}, 120_000)

afterAll(async () => {
  if (server !== undefined) await ProcessHelpers.stop(server)
})

describe("examples/client-issue", () => {
  it("issues a batch and awaits its anchoring", async () => {
    const batch = await ClientIssue.main({ baseUrl: server.baseUrl, apiKey })
    expect(batch.status).toBe("anchored")
    expect(batch.credentials).toHaveLength(3)
    credentialIds = batch.credentials!.map((c) => c.id)
  })
})

describe("examples/verify-offline", () => {
  it("verifies an issued credential, and fails it once altered", async () => {
    const id = credentialIds[0]!
    const document = await (await fetch(`${server.baseUrl}/c/${id}.json`)).json() as Record<string, any>
    const devnetRpc = `${server.baseUrl}/devnet/rpc`
    const good = await Effect.runPromise(VerifyOffline.main(document, { devnetRpc }))
    expect(good.outcome, JSON.stringify(good.steps, null, 1)).toBe("verified")
    document.credentialSubject.achievement.description = "Something else."
    const bad = await Effect.runPromise(VerifyOffline.main(document, { devnetRpc }))
    expect(bad.outcome).toBe("failed")
    expect(bad.failedStep).toBe("documentHash")
  })
})

describe("examples/webhook-receiver", () => {
  it("accepts Sigil's signed deliveries and refuses a forged one", async () => {
    const events: Array<Webhooks.Event> = []
    // Register the URL, then run the receiver with the secret the API returned.
    const port = await ProcessHelpers.freePort()
    const created = await server.api("POST", "/v1/webhooks", apiKey, { url: `http://127.0.0.1:${port}/`, events: ["webhook.test", "batch.anchored"] })
    expect(created.status).toBe(201)
    const receiver: Server = await WebhookReceiver.startReceiver({ secret: created.body.signing_secret, port, onEvent: (e) => events.push(e) })
    try {
      const test = await server.api("POST", `/v1/webhooks/${created.body.id}/test`, apiKey)
      expect(test.body).toMatchObject({ delivered: true, status_code: 204 })
      expect(events.map((e) => e.type)).toEqual(["webhook.test"])

      const forged = await fetch(`http://127.0.0.1:${port}/`, {
        method: "POST",
        headers: { "webhook-id": "evt_forged", "webhook-timestamp": String(Math.floor(Date.now() / 1000)), "webhook-signature": "v1,AAAA" },
        body: JSON.stringify({ id: "evt_forged", type: "batch.anchored", data: {} })
      })
      expect(forged.status).toBe(401)
      expect(events).toHaveLength(1)
    } finally {
      await new Promise((resolve) => receiver.close(resolve))
      await server.api("DELETE", `/v1/webhooks/${created.body.id}`, apiKey)
    }
  })
})
