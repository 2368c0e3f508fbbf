/**
 * `JobQueue` in memory, with the claim order and lease rules of the Postgres queue.
 *
 * @internal
 */
import { Effect, Option } from "effect"
import type { JobId } from "@sigil/core/Ids"
import * as Ids from "@sigil/core/Ids"
import type { Job, JobStatus, Service } from "../../Pipeline/JobQueue.js"
import { afterCommit, MemoryStore } from "../../Transactor.js"
import * as Wakeups from "../../Pipeline/Wakeups.js"
import { ascending, copy, json, locked, tables } from "./store.js"

// One wake-up per memory store (kept outside the tables, which transactions copy).
const signals = new WeakMap<object, Wakeups.WakeSignal>()
const signalOf = (store: object) => {
  const existing = signals.get(store)
  if (existing !== undefined) return existing
  const signal = Wakeups.make()
  signals.set(store, signal)
  return signal
}

/** @internal */
export const LEASE_EXPIRED_ON_LAST_ATTEMPT = "lease expired on the last attempt"

/** @internal */
export const make = (defaultMaxAttempts: number): Effect.Effect<Service, never, MemoryStore> =>
  Effect.map(MemoryStore, (store) => {
    const jobs = store.table(tables.jobs, () => new Map<JobId, Job>())
    const byAge = (a: Job, b: Job) => {
      const d = a.runAt.getTime() - b.runAt.getTime()
      return d !== 0 ? d : ascending<Job>((j) => j.createdAt, (j) => j.id)(a, b)
    }
    const held = (id: JobId, workerId: string) => {
      const job = jobs.get(id)
      return job !== undefined && job.status === "running" && job.lockedBy === workerId ? job : undefined
    }
    const settle = (job: Job, patch: Partial<Job>) => {
      jobs.set(job.id, { ...job, leaseUntil: undefined, lockedBy: undefined, ...patch })
      return true
    }

    const signal = signalOf(store)
    return {
      enqueue: (kind, payload, now, options) =>
        Effect.tap(locked(store, () => {
          const dedupeKey = options?.dedupeKey
          if (dedupeKey !== undefined) {
            for (const job of jobs.values()) {
              if (job.dedupeKey === dedupeKey && (job.status === "queued" || job.status === "running")) return job.id
            }
          }
          const job: Job = {
            id: Ids.unsafeMake("job"),
            kind,
            payload: json(payload),
            status: "queued",
            attempts: 0,
            maxAttempts: options?.maxAttempts ?? defaultMaxAttempts,
            runAt: options?.runAt ?? now,
            leaseUntil: undefined,
            lockedBy: undefined,
            lastError: undefined,
            dedupeKey,
            createdAt: now
          }
          jobs.set(job.id, job)
          return job.id
        }), () => afterCommit(signal.notify)),
      claim: (kinds, workerId, now, leaseMs) =>
        locked(store, () => {
          const t = now.getTime()
          for (;;) {
            const next = [...jobs.values()]
              .filter((j) =>
                kinds.includes(j.kind) &&
                ((j.status === "queued" && j.runAt.getTime() <= t) ||
                  (j.status === "running" && j.leaseUntil !== undefined && j.leaseUntil.getTime() <= t))
              )
              .sort(byAge)[0]
            if (next === undefined) return Option.none<Job>()
            if (next.status === "running" && next.attempts >= next.maxAttempts) {
              // Its worker died on the last attempt: no attempt is left to take it over with.
              settle(next, { status: "dead", lastError: LEASE_EXPIRED_ON_LAST_ATTEMPT })
              continue
            }
            const claimed: Job = {
              ...next,
              status: "running",
              attempts: next.attempts + 1,
              leaseUntil: new Date(t + leaseMs),
              lockedBy: workerId
            }
            jobs.set(claimed.id, claimed)
            return Option.some(copy(claimed))
          }
        }),
      heartbeat: (id, workerId, now, leaseMs) =>
        locked(store, () => {
          const job = held(id, workerId)
          if (job === undefined) return false
          jobs.set(id, { ...job, leaseUntil: new Date(now.getTime() + leaseMs) })
          return true
        }),
      complete: (id, workerId) =>
        locked(store, () => {
          const job = held(id, workerId)
          return job !== undefined && settle(job, { status: "done" })
        }),
      retry: (id, workerId, error, runAt) =>
        locked(store, () => {
          const job = held(id, workerId)
          if (job === undefined) return false
          return job.attempts >= job.maxAttempts
            ? settle(job, { status: "dead", lastError: error })
            : settle(job, { status: "queued", lastError: error, runAt })
        }),
      kill: (id, workerId, error) =>
        locked(store, () => {
          const job = held(id, workerId)
          return job !== undefined && settle(job, { status: "dead", lastError: error })
        }),
      release: (id, workerId) =>
        Effect.tap(locked(store, () => {
          const job = held(id, workerId)
          return job !== undefined && settle(job, { status: "queued", attempts: Math.max(0, job.attempts - 1) })
        }), (released) => (released ? afterCommit(signal.notify) : Effect.void)),
      nextDueAt: (kinds) =>
        locked(store, () => {
          let next: number | undefined
          for (const job of jobs.values()) {
            if (!kinds.includes(job.kind)) continue
            const at = job.status === "queued" ? job.runAt : job.status === "running" ? job.leaseUntil : undefined
            if (at !== undefined && (next === undefined || at.getTime() < next)) next = at.getTime()
          }
          return next === undefined ? Option.none() : Option.some(new Date(next))
        }),
      wakeup: signal.ticket,
      get: (id) => locked(store, () => Option.map(Option.fromNullable(jobs.get(id)), copy)),
      counts: () =>
        locked(store, () => {
          const counts: Record<JobStatus, number> = { queued: 0, running: 0, done: 0, dead: 0 }
          for (const job of jobs.values()) counts[job.status]++
          return counts
        }),
      purgeFinished: (doneBefore, deadBefore) =>
        locked(store, () => {
          let n = 0
          for (const [id, job] of jobs) {
            const before = job.status === "done" ? doneBefore : job.status === "dead" ? deadBefore : undefined
            if (before !== undefined && job.runAt.getTime() < before.getTime()) {
              jobs.delete(id)
              n++
            }
          }
          return n
        })
    }
  })
