/**
 * Property of the whole issuer API and the administrative channel (issue #18, hardening): for
 * any request (`Requests.anyCase`: every operation, random paths, methods, headers, query
 * strings and bodies),
 *
 * - the status is never 5xx (nor 1xx or 3xx as a final answer);
 * - every answer carries an `X-Request-Id` (`req_` + ULID);
 * - every refusal (4xx) has the contract's error body, exactly, with a code of `ApiErrors.all`
 *   whose status it is and the `X-Request-Id` as `request_id`;
 * - a refusal changes nothing the API can change (`Fixtures.snapshot`); a success may, and the
 *   next case compares against the state after it.
 *
 * Cases run one after another against a pair of servers (fresh ones every `casesPerWorld`): a
 * success (a batch, a webhook, a tenant, a key, a cursor) grows the pools that later cases pick
 * ids from, so revocations, erasures, deletions and replays meet resources in every state. A
 * failure prints the request as sent and the answer; the seed fast-check reports replays the
 * cases, though not always the servers' state (earlier successes shape it).
 */
import fc from "fast-check"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import * as Fixtures from "./fixtures.js"
import type * as Harness from "./harness.js"
import { expectError } from "./issuerApiSuite.js"
import * as Requests from "./requests.js"
import * as Wire from "./wire.js"

const REQUEST_ID = /^req_[0-9A-Z]{26}$/

/** Rate limits that let the runs reach validation, except for the developer plan's small tenant. */
export const rateLimitPolicy = (plan: string) =>
  plan === "developer" ? { limit: 3, windowSeconds: 3_600 } : { limit: 1_000_000_000, windowSeconds: 60 }

type Pools = { -readonly [R in Requests.Resource]: Record<Requests.Owner, Array<string>> }

interface World {
  readonly h: Harness.Harness
  readonly keys: Record<"main" | "live" | "other" | "revoked" | "small" | "admin", string>
  readonly resources: Pools
  readonly tenants: { readonly read: Array<string>; readonly scratch: Array<string> }
  readonly apiKeys: { readonly scratch: Array<string>; readonly revoked: Array<string> }
  readonly cursors: Array<string>
  /** Answers by operation, status and code: what the runs reached (`SIGIL_API_PROPERTY_STATS=1` prints it). */
  readonly stats: Map<string, number>
  /** The store as the last case left it. */
  state: string
}

const fingerprint = Effect.map(Fixtures.snapshot, (s) => JSON.stringify(s))

const expectStatus = (reply: Harness.Reply, status: number, what: string) => {
  if (reply.status !== status) throw new Error(`${what}: ${reply.status} ${reply.text}`)
}

/** Two tenants with resources in both environments, a revoked key, a rate-limited tenant, scratch tenants for the admin channel. */
const setUp = async (h: Harness.Harness, stats: Map<string, number>): Promise<World> => {
  const main = await h.tenant("industry")
  const other = await h.tenant("industry")
  const small = await h.tenant("developer")
  const live = await h.admin("POST", `/admin/tenants/${main.id}/keys`, { environment: "live" })
  expectStatus(live, 201, "live key")
  const revoked = await h.admin("POST", `/admin/tenants/${main.id}/keys`, { environment: "test" })
  expectStatus(revoked, 201, "second key")
  expectStatus(await h.admin("POST", `/admin/keys/${revoked.body.id}/revoke`), 200, "revocation")
  const scratch = [await h.tenant("starter"), await h.tenant("institution")]

  const empty = (): Record<Requests.Owner, Array<string>> => ({ main: [], live: [], other: [] })
  const resources: Pools = { batch: empty(), credential: empty(), webhook: empty() }
  const seed = async (owner: Requests.Owner, key: string, sizes: ReadonlyArray<number>, webhooks: number) => {
    for (const n of sizes) {
      const created = await h.request("POST", "/v1/batches", { key, body: Fixtures.batch(n) })
      expectStatus(created, 202, "batch")
      resources.batch[owner].push(created.body.id)
      resources.credential[owner].push(...await h.run(Fixtures.credentialIds(created.body.id)))
    }
    for (let i = 0; i < webhooks; i++) {
      const created = await h.request("POST", "/v1/webhooks", { key, body: Fixtures.webhook() })
      expectStatus(created, 201, "webhook")
      resources.webhook[owner].push(created.body.id)
    }
  }
  await seed("main", main.key, [10, 3], 6)
  await seed("live", live.body.key, [2], 2)
  await seed("other", other.key, [2], 2)

  return {
    h,
    keys: { main: main.key, live: live.body.key, other: other.key, revoked: revoked.body.key, small: small.key, admin: h.adminToken },
    resources,
    tenants: { read: [main.id, other.id, small.id], scratch: scratch.map((t) => t.id) },
    apiKeys: { scratch: scratch.map((t) => t.keyId), revoked: [revoked.body.id] },
    cursors: [],
    stats,
    state: await h.run(fingerprint)
  }
}

const pick = (pool: ReadonlyArray<string>, index: number, fallback: string) =>
  pool.length === 0 ? fallback : pool[index % pool.length]!

const resolvePart = (world: World, part: Requests.Part): string => {
  if (typeof part === "string") return part
  if ("resource" in part) return pick(world.resources[part.resource][part.owner], part.index, "missing")
  if ("tenant" in part) return pick(world.tenants[part.tenant], part.index, "tnt_00000000000000000000000000")
  if ("apiKey" in part) return pick(world.apiKeys[part.apiKey], part.index, "ak_00000000000000000000000000")
  return encodeURIComponent(pick(world.cursors, part.cursor, ""))
}

const authLine = (world: World, auth: Requests.Auth): string =>
  "line" in auth ? auth.line : `${auth.scheme} ${world.keys[auth.bearer]}${auth.suffix}`

/** The request a case makes, with its picks resolved against the world as it is now. */
const resolve = (world: World, c: Requests.Case): { readonly baseUrl: string; readonly request: Wire.WireRequest } => {
  const baseUrl = c.channel === "issuer" ? world.h.baseUrl : world.h.adminUrl
  const path = Requests.bend(c.path.map((p) => resolvePart(world, p)).join(""), c.form, baseUrl)
  const query = c.query.map((p) => resolvePart(world, p)).join("")
  return {
    baseUrl,
    request: {
      method: c.method,
      target: query === "" ? path : `${path}?${query}`,
      headers: [...c.auth.map((a): readonly [string, string] => ["Authorization", authLine(world, a)]), ...c.headers],
      body: c.body,
      chunked: c.chunked,
      noHost: c.noHost
    }
  }
}

const preview = (text: string, max = 300) => (text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text)

const show = (request: Wire.WireRequest) =>
  [
    `${request.method} ${preview(request.target, 200)}`,
    ...request.headers.map(([k, v]) => `${k}: ${preview(v, 120)}`),
    ...(request.noHost === true ? ["(no Host)"] : []),
    ...(request.chunked !== undefined ? [`(chunked by ${request.chunked})`] : []),
    ...(request.body === undefined ? [] : ["", preview(Buffer.from(request.body).toString("latin1"))])
  ].join("\n")

/**
 * The entries of two snapshots that differ, shown briefly (a deep diff of whole snapshots by
 * `expect` takes minutes).
 */
const difference = (before: string, after: string): string => {
  const [a, b] = [JSON.parse(before) as Array<unknown>, JSON.parse(after) as Array<unknown>]
  const lines: Array<string> = []
  for (let i = 0; i < Math.max(a.length, b.length) && lines.length < 6; i++) {
    const [x, y] = [JSON.stringify(a[i]), JSON.stringify(b[i])]
    if (x !== y) lines.push(`entry ${i}:\n  before ${preview(x ?? "(none)", 600)}\n  after  ${preview(y ?? "(none)", 600)}`)
  }
  return lines.join("\n")
}

/** What a success adds to the pools: the ids later cases pick. */
const learn = async (world: World, c: Requests.Case, reply: Harness.Reply) => {
  const owner = c.auth.length === 1 && "bearer" in c.auth[0]! ? c.auth[0].bearer : undefined
  const add = (pool: Array<string>, id: unknown) => {
    if (typeof id === "string" && !pool.includes(id)) pool.push(id)
  }
  const body = reply.body
  if (c.operation === "createBatch" && reply.status === 202 && (owner === "main" || owner === "live" || owner === "other")) {
    add(world.resources.batch[owner], body?.id)
    for (const id of await world.h.run(Fixtures.credentialIds(body.id))) add(world.resources.credential[owner], id)
  }
  if (c.operation === "createWebhook" && reply.status === 201 && (owner === "main" || owner === "live" || owner === "other")) {
    add(world.resources.webhook[owner], body?.id)
  }
  if (c.operation === "listBatches" && typeof body?.next_cursor === "string" && world.cursors.length < 50) {
    add(world.cursors, body.next_cursor)
  }
  if (c.operation === "createTenant" && reply.status === 201) add(world.tenants.scratch, body?.id)
  if (c.operation === "createApiKey" && reply.status === 201) add(world.apiKeys.scratch, body?.id)
}

/** One case: its request, the answer's checks, the store's. */
const check = async (world: World, c: Requests.Case) => {
  const { baseUrl, request } = resolve(world, c)
  const reply = await Wire.send(baseUrl, request)
  const seen = `${c.channel} ${c.operation} ${reply.status} ${reply.body?.error?.code ?? ""}`
  world.stats.set(seen, (world.stats.get(seen) ?? 0) + 1)
  try {
    expect(reply.status).toBeLessThan(500)
    expect(reply.status >= 200 && reply.status < 300 || reply.status >= 400, "a final status of 2xx or 4xx").toBe(true)
    expect(reply.headers.get("x-request-id")).toMatch(REQUEST_ID)
    if (reply.status >= 400) {
      // A HEAD answer has no body to check.
      if (request.method !== "HEAD") {
        expect(Fixtures.CODES.has(reply.body?.error?.code), "a code of the contract").toBe(true)
        // A replay is the first answer, its `request_id` included (api-contract-deviations.md);
        // `X-Request-Id` names this request.
        const replayed = reply.headers.get("idempotent-replayed") === "true"
        const headers = new Headers(reply.headers)
        if (replayed) headers.set("x-request-id", String(reply.body.error.request_id))
        expectError({ ...reply, headers }, reply.status, reply.body.error.code)
      }
      const after = await world.h.run(fingerprint)
      if (after !== world.state) throw new Error(`a refused request changed the store:\n${difference(world.state, after)}`)
    } else {
      world.state = await world.h.run(fingerprint)
      await learn(world, c, reply)
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    throw new Error(`${message}\n--- request (${c.channel} ${c.operation})\n${show(request)}\n--- answer\n${reply.status} ${preview(reply.text, 1_000)}`)
  }
}

export interface Options {
  /** Cases in all (every operation of both channels and unknown routes, mixed). */
  readonly numRuns: number
  /** Per-test timeout, ms. */
  readonly timeout: number
  /**
   * Cases per pair of servers: past it, the next case starts on fresh ones (default 1,000). The
   * snapshot after every case reads the whole store, which successes grow: fresh stores keep
   * each case's cost flat.
   */
  readonly casesPerWorld?: number | undefined
}

/**
 * The suite. `start` starts servers over fresh stores, with `{ issuer: { rateLimitPolicy } }`
 * (so that rate limits refuse only the small tenant's requests and the rest reach validation).
 */
export const apiPropertySuite = (start: () => Promise<Harness.Harness>, options: Options) =>
  describe("the whole API (property)", () => {
    it(`${options.numRuns} random requests: never 5xx, refusals in the error shape, refusals change nothing`, { timeout: options.timeout }, async () => {
      const perWorld = options.casesPerWorld ?? 1_000
      const stats = new Map<string, number>()
      let world = await setUp(await start(), stats)
      let cases = 0
      try {
        await fc.assert(
          fc.asyncProperty(Requests.anyCase, async (c) => {
            if (cases++ === perWorld) {
              cases = 1
              await world.h.close()
              world = await setUp(await start(), stats)
            }
            await check(world, c)
          }),
          {
            numRuns: options.numRuns,
            // To replay a reported failure: the seed fast-check printed.
            ...(process.env.SIGIL_API_PROPERTY_SEED === undefined ? {} : { seed: Number(process.env.SIGIL_API_PROPERTY_SEED) })
          }
        )
      } finally {
        await world.h.close()
      }
      if (process.env.SIGIL_API_PROPERTY_STATS === "1") {
        console.log([...stats].sort(([a], [b]) => a.localeCompare(b)).map(([k, n]) => `${String(n).padStart(6)} ${k}`).join("\n"))
      }
    })
  })
