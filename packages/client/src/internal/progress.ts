/**
 * A progress bar on stderr. On a terminal it redraws one line; elsewhere (a pipe, a log, CI)
 * it prints a plain line only when the message changes, never a bar.
 */

export interface Stream {
  readonly write: (text: string) => unknown
  readonly isTTY?: boolean | undefined
  readonly columns?: number | undefined
}

export interface Progress {
  readonly update: (done: number, total: number, label: string) => void
  /** Prints a line above the bar. */
  readonly log: (line: string) => void
  readonly finish: () => void
}

export const make = (stream: Stream, options: { readonly enabled: boolean }): Progress => {
  const tty = stream.isTTY === true
  let drawn = false
  let last = ""
  let current: { done: number; total: number; label: string } | undefined
  const render = () => {
    if (current === undefined) return
    const { done, total, label } = current
    const width = Math.max(10, Math.min(30, (stream.columns ?? 80) - label.length - 20))
    const filled = total === 0 ? width : Math.round((done / total) * width)
    const bar = `${"█".repeat(filled)}${"░".repeat(width - filled)}`
    stream.write(`\r\x1b[K${bar} ${String(done).padStart(String(total).length)}/${total} ${label}`)
    drawn = true
  }
  const clear = () => {
    if (drawn) stream.write("\r\x1b[K")
    drawn = false
  }
  return {
    update: (done, total, label) => {
      if (!options.enabled) return
      current = { done, total, label }
      if (tty) {
        render()
        return
      }
      const line = `${done}/${total} ${label}`
      if (line !== last) stream.write(`${line}\n`)
      last = line
    },
    log: (line) => {
      if (tty) clear()
      stream.write(`${line}\n`)
      if (tty && options.enabled) render()
    },
    finish: () => {
      if (tty) clear()
      current = undefined
    }
  }
}
