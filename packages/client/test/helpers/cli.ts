/**
 * Runs the `sigil` command (bin/sigil.js, as `npx sigil` does) in a child process.
 */
import { spawn } from "node:child_process"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"

export const clientRoot = path.resolve(new URL("../..", import.meta.url).pathname)
export const repoRoot = path.resolve(clientRoot, "../..")
export const bin = path.join(clientRoot, "bin/sigil.js")

export interface Ran {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

export const workDir = (prefix = "sigil-cli-") => mkdtempSync(path.join(tmpdir(), prefix))

export const sigil = (
  args: ReadonlyArray<string>,
  options: { readonly cwd: string; readonly env: Record<string, string | undefined> }
): Promise<Ran> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (c) => (stdout += c))
    child.stderr.on("data", (c) => (stderr += c))
    child.on("error", reject)
    child.on("exit", (code) => resolve({ code, stdout, stderr }))
  })
