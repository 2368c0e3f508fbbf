/**
 * How the core benchmarks time an effect: wall time and this process's CPU time (all its
 * threads, V8's GC helpers included) per round, after warm-up rounds (contexts, JIT).
 */
import { Effect } from "effect"
import { performance } from "node:perf_hooks"

export interface Timing {
  readonly wall: ReadonlyArray<number>
  readonly cpu: ReadonlyArray<number>
}

export const cpuMs = (): number => {
  const { system, user } = process.cpuUsage()
  return (system + user) / 1000
}

export const measure = async (effect: Effect.Effect<unknown, unknown>, rounds: number, warmUps = 2): Promise<Timing> => {
  for (let w = 0; w < warmUps; w++) await Effect.runPromise(effect)
  const wall: Array<number> = []
  const cpu: Array<number> = []
  for (let r = 0; r < rounds; r++) {
    const c = cpuMs()
    const start = performance.now()
    await Effect.runPromise(effect)
    wall.push(performance.now() - start)
    cpu.push(cpuMs() - c)
  }
  return { wall, cpu }
}

export const median = (xs: ReadonlyArray<number>): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

export const best = (xs: ReadonlyArray<number>): number => Math.min(...xs)
