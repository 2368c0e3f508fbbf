/**
 * Request bodies and store snapshots for the black-box suite.
 */
import * as BatchStore from "@sigil/service/Batches/BatchStore"
import * as EventStore from "@sigil/service/Events/EventStore"
import * as JobQueue from "@sigil/service/Pipeline/JobQueue"
import * as Plans from "@sigil/service/Tenants/Plans"
import * as TenantStore from "@sigil/service/Tenants/TenantStore"
import * as WebhookEndpointStore from "@sigil/service/Webhooks/WebhookEndpointStore"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import type { BatchId } from "@sigil/core/Ids"
import * as ApiErrors from "../../src/ApiErrors.js"

/** Every code of the contract. */
export const CODES: ReadonlySet<string> = new Set(ApiErrors.all.map((c) => ApiErrors.codeOf(c)))

export const recipientId = (): string => `urn:uuid:${randomUUID()}`

export const credential = () => ({
  recipient: { id: recipientId(), name: "Ada Lovelace", email: "ada@example.org" },
  achievement: {
    id: "https://university.example/programs/bsc-cs",
    name: "BSc Computer Science",
    description: "Three years of computer science.",
    criteria: { narrative: "Pass every module." },
    alignment: [{ targetFramework: "ESCO", targetCode: "0613", targetName: "Software and applications development" }]
  },
  issuanceDate: "2025-06-30T12:00:00Z"
})

export const batch = (n = 1) => ({ credentials: Array.from({ length: n }, credential) })

export const revocation = { reason: "Issued with a misspelt name; replaced.", reason_code: "reissued" }

export const erasure = { requester: "recipient", verified_at: "2025-07-01T09:00:00Z" }

export const webhook = (url = "https://hooks.example.org/sigil") => ({
  url,
  events: ["batch.created", "batch.anchored", "webhook.test"],
  description: "Our receiver"
})

export const tenantUpdate = {
  display_name: "University of Example",
  awarding_body: { name: "Faculty of Science", url: "https://science.example.org", logo_url: "https://science.example.org/logo.png" }
}

/** The ids of a batch's credentials, in position order. */
export const credentialIds = (batchId: string) =>
  Effect.map(
    Effect.flatMap(BatchStore.BatchStore, (s) => s.credentialsOf(batchId as BatchId)),
    (credentials) => credentials.map((c) => c.id as string)
  )

/**
 * Everything the API can change, read through the ports (so the snapshot works on any store):
 * tenants and keys, monthly usage, batches, credentials and recipients in both environments,
 * webhook endpoints, events and the job queue. Not the audit log and the rate-limit buckets,
 * which every request changes by design.
 */
export const snapshot = Effect.gen(function*() {
  const tenants = yield* TenantStore.TenantStore
  const batches = yield* BatchStore.BatchStore
  const webhooks = yield* WebhookEndpointStore.WebhookEndpointStore
  const events = yield* EventStore.EventStore
  const jobs = yield* JobQueue.JobQueue
  const month = Plans.monthOf(new Date())
  const out: Array<unknown> = []
  for (const tenant of yield* tenants.list()) {
    out.push(tenant, yield* tenants.apiKeys(tenant.id), yield* tenants.credentialsIssued(tenant.id, month))
    for (const environment of ["test", "live"] as const) {
      for (const b of yield* batches.listBatches(tenant.id, environment, { limit: 100_000 })) {
        out.push(b, yield* batches.credentialsOf(b.id), yield* batches.recipientsOf(b.id))
      }
      out.push(yield* webhooks.list(tenant.id, environment))
      out.push(yield* events.events(tenant.id, environment, { limit: 100_000 }))
    }
  }
  out.push(yield* jobs.counts())
  return JSON.parse(JSON.stringify(out)) as unknown
})
