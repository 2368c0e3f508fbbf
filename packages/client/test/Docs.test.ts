/**
 * The documentation is runnable: every `sh runnable` block of README.md, docs/getting-started.md,
 * the guides and docs/operations.md runs, in order, one bash session per page, against a real
 * server (`npm start`'s main on free ports and a temporary data directory). The conventions are
 * in docs/README.md ("How these pages are tested"). The Python guide's receiver runs with
 * python3 against the same server.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as ProcessHelpers from "@sigil/server/testkit/process"
import * as Webhooks from "../src/Webhooks.js"
import { repoRoot, workDir } from "./helpers/cli.js"

const PAGES = [
  "README.md",
  "docs/getting-started.md",
  "docs/guides/issue-from-csv.md",
  "docs/guides/verify-offline.md",
  "docs/guides/webhooks-node.md",
  "docs/guides/webhooks-python.md",
  "docs/guides/postgres-and-base.md",
  "docs/operations.md"
] as const

// Commands that `server` and `ci` blocks may hold (comments aside): the test starts the server
// itself, and CI runs the rest.
const NOT_RUN = [
  /^npm ci$/,
  /^npm ci && npm start$/,
  /^npm start$/,
  /^npm test$/,
  /^npm run bench$/
]

interface Block {
  readonly page: string
  readonly line: number
  readonly lang: string
  readonly marks: ReadonlySet<string>
  readonly attrs: ReadonlyMap<string, string>
  readonly body: string
}

/** The fenced blocks of a Markdown page, with their info strings parsed. */
const blocksOf = (page: string): Array<Block> => {
  const lines = readFileSync(path.join(repoRoot, page), "utf8").split("\n")
  const blocks: Array<Block> = []
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)\s*(.*)$/.exec(lines[i]!)
    if (open === null) continue
    const start = i
    const body: Array<string> = []
    for (i++; i < lines.length && !/^```\s*$/.test(lines[i]!); i++) body.push(lines[i]!)
    const marks = new Set<string>()
    const attrs = new Map<string, string>()
    for (const m of open[2]!.matchAll(/(\w[\w-]*)(?:=(?:"([^"]*)"|'([^']*)'|(\S+)))?/g)) {
      if (m[2] === undefined && m[3] === undefined && m[4] === undefined) marks.add(m[1]!)
      else attrs.set(m[1]!, m[2] ?? m[3] ?? m[4]!)
    }
    blocks.push({ page, line: start + 1, lang: open[1]!, marks, attrs, body: body.join("\n") })
  }
  return blocks
}

let server: ProcessHelpers.Running
let replacements: ReadonlyArray<readonly [string, string]>

beforeAll(async () => {
  server = await ProcessHelpers.start({ dataDir: ProcessHelpers.newDataDir() })
  // A tenant and a key for the pages' admin commands (`tnt_…`, `ak_…`), apart from the demo tenant.
  const tenant = await ProcessHelpers.admin(server, "POST", "/admin/tenants", { name: "Docs Admin University", plan: "starter" })
  const key = await ProcessHelpers.admin(server, "POST", `/admin/tenants/${tenant.body.id}/keys`, { environment: "test" })
  replacements = [
    ["http://localhost:8080", server.baseUrl],
    ["sigil_test_…", ProcessHelpers.demoKey(server)],
    ["tnt_…", tenant.body.id],
    ["ak_…", key.body.id]
  ]
}, 180_000)

afterAll(async () => {
  if (server !== undefined) await ProcessHelpers.stop(server)
})

const substitute = (text: string) => replacements.reduce((t, [from, to]) => t.replaceAll(from, to), text)

/** A scratch directory that looks like the repository root to npm, npx and tsx. */
const scratch = () => {
  const dir = workDir("sigil-docs-")
  for (const entry of ["package.json", "node_modules", "packages", "examples", "scripts"]) {
    symlinkSync(path.join(repoRoot, entry), path.join(dir, entry))
  }
  return dir
}

const quote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`

/** The page's runnable blocks as one bash script, with a marker before each block's output. */
const scriptOf = (blocks: ReadonlyArray<Block>) => {
  // Job control: each background block gets its own process group, so stopping it reaches the
  // command itself and not only `npx` (which does not pass SIGTERM on).
  const lines = ["set -euo pipefail", "set -m"]
  const backgrounds: Array<{ readonly n: number; readonly block: Block }> = []
  blocks.forEach((block, n) => {
    lines.push(`echo "::block ${n}::"`)
    const body = substitute(block.body)
    if (block.marks.has("background")) {
      const ready = block.attrs.get("ready")
      if (ready === undefined) throw new Error(`${block.page}:${block.line}: a background block needs ready="…"`)
      lines.push(
        `${body} > bg-${n}.log 2>&1 &`,
        `BG_${n}=$!`,
        `for _ in $(seq 1 600); do grep -qF -- ${quote(ready)} bg-${n}.log && break; kill -0 $BG_${n} 2>/dev/null || break; sleep 0.1; done`,
        `grep -qF -- ${quote(ready)} bg-${n}.log || { echo "background block never ready:"; cat bg-${n}.log; exit 1; }`
      )
      backgrounds.push({ n, block })
    } else {
      lines.push(body)
    }
  })
  for (const { n, block } of backgrounds) {
    const expected = block.attrs.get("expect")
    if (expected !== undefined) {
      lines.push(`for _ in $(seq 1 300); do grep -qF -- ${quote(expected)} bg-${n}.log && break; sleep 0.1; done`)
    }
    lines.push(
      `kill -TERM -- -$BG_${n} 2>/dev/null || true`,
      `wait $BG_${n} || true`,
      `for _ in $(seq 1 300); do kill -0 -- -$BG_${n} 2>/dev/null || break; sleep 0.1; done`,
      `echo "::background ${n}::"`,
      `cat bg-${n}.log`
    )
  }
  lines.push(`echo "::end::"`)
  return lines.join("\n")
}

const run = (script: string, cwd: string): Promise<{ code: number | null; output: string }> =>
  new Promise((resolve, reject) => {
    const env: Record<string, string | undefined> = {
      ...process.env,
      ADMIN_PORT: String(server.adminPort),
      SIGIL_DATA_DIR: server.dataDir,
      npm_config_offline: "true", // npx must never fetch a package: `sigil` is the workspace's
      npm_config_update_notifier: "false",
      NO_COLOR: "1"
    }
    for (const name of ["SIGIL_API_KEY", "SIGIL_BASE_URL", "SIGIL_WEBHOOK_SECRET", "ADMIN_TOKEN"]) delete env[name]
    const child: ChildProcess = spawn("bash", ["-c", script], { cwd, env, stdio: ["ignore", "pipe", "pipe"] })
    let output = ""
    child.stdout!.on("data", (c) => (output += c))
    child.stderr!.on("data", (c) => (output += c))
    child.on("error", reject)
    child.on("exit", (code) => resolve({ code, output }))
  })

describe("the documentation", () => {
  it("every sh block of the tested pages is marked, and unexecuted ones hold only allowed commands", () => {
    for (const page of PAGES) {
      for (const block of blocksOf(page).filter((b) => b.lang === "sh")) {
        const where = `${page}:${block.line}`
        const kinds = ["runnable", "server", "ci"].filter((m) => block.marks.has(m))
        expect(kinds, `${where}: an sh block must be marked runnable, server or ci`).toHaveLength(1)
        if (kinds[0] !== "runnable") {
          for (const line of block.body.split("\n")) {
            const command = line.replace(/\s+#.*$/, "").trim()
            if (command === "" || command.startsWith("#")) continue
            expect(NOT_RUN.some((re) => re.test(command)), `${where}: "${command}" must be runnable`).toBe(true)
          }
        }
      }
    }
  })

  it("the getting-started server block starts what the test starts", () => {
    const [block] = blocksOf("docs/getting-started.md").filter((b) => b.marks.has("server"))
    expect(block!.body.trim().split("\n")).toEqual(["npm ci", "npm start"])
    // helpers/process.ts runs packages/server/src/main.ts, which is `npm start`; wholly embedded,
    // it allows private webhook URLs, as the guide's local receiver needs.
    const root = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8"))
    expect(root.scripts.start).toBe("tsx packages/server/src/main.ts")
  })

  it("every ts excerpt appears, line for line and in order, in the file it quotes", () => {
    for (const page of PAGES) {
      for (const block of blocksOf(page).filter((b) => b.attrs.has("excerpt"))) {
        const file = readFileSync(path.join(repoRoot, block.attrs.get("excerpt")!), "utf8").split("\n").map((l) => l.trim())
        let at = 0
        for (const line of block.body.split("\n").map((l) => l.trim()).filter((l) => l !== "")) {
          const found = file.indexOf(line, at)
          expect(found, `${page}:${block.line}: "${line}" is not in ${block.attrs.get("excerpt")} (after line ${at})`).toBeGreaterThanOrEqual(0)
          at = found + 1
        }
      }
    }
  })

  for (const page of PAGES) {
    const runnable = blocksOf(page).filter((b) => b.lang === "sh" && b.marks.has("runnable"))
    if (runnable.length === 0) continue
    it(`${page}: its ${runnable.length} runnable blocks run`, async () => {
      const dir = scratch()
      try {
        const script = scriptOf(runnable)
        expect(script, "a placeholder the test does not fill").not.toMatch(/…/)
        const { code, output } = await run(script, dir)
        expect(code, `${page} failed:\n${output}`).toBe(0)
        expect(output).toContain("::end::")
        const outputOf = (marker: string, next: RegExp) => {
          const start = output.indexOf(marker)
          const rest = output.slice(start + marker.length)
          const end = rest.search(next)
          return end < 0 ? rest : rest.slice(0, end)
        }
        runnable.forEach((block, n) => {
          const expected = block.attrs.get("expect")
          if (block.marks.has("background")) {
            const log = outputOf(`::background ${n}::`, /::(background \d+|end)::/)
            if (expected !== undefined) expect(log, `${page}:${block.line} (background)`).toContain(expected)
            // Stopped cleanly: the listener deleted what it registered.
            if (block.body.includes("--register")) expect(log).toMatch(/deleted webhook whk_/)
          } else if (expected !== undefined) {
            expect(outputOf(`::block ${n}::`, /::(block \d+|background \d+|end)::/), `${page}:${block.line}`).toContain(expected)
          }
        })
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    }, 300_000)
  }

  it("docs/guides/webhooks-python.md: the receiver verifies Sigil's deliveries with python3", async () => {
    const [block] = blocksOf("docs/guides/webhooks-python.md").filter((b) => b.lang === "python" && b.attrs.get("file") === "webhook_receiver.py")
    expect(block).toBeDefined()
    const dir = workDir("sigil-python-")
    const key = ProcessHelpers.demoKey(server)
    let receiver: ChildProcess | undefined
    let created: { id: string; signing_secret: string } | undefined
    try {
      mkdirSync(dir, { recursive: true })
      writeFileSync(path.join(dir, "webhook_receiver.py"), block!.body)
      // 1. Vectors signed by Sigil's signer, checked by the guide's verify().
      const vectorSecret = `whsec_${Buffer.from("0123456789abcdef0123456789abcdef").toString("base64")}`
      const body = JSON.stringify({ id: "evt_1", type: "webhook.test", data: { note: "é ✓" } })
      const good = Webhooks.sign(vectorSecret, "evt_1", body)
      const old = Webhooks.sign(vectorSecret, "evt_1", body, new Date(Date.now() - 10 * 60_000))
      const vectors = [
        { headers: good, body, expected: true },
        { headers: { ...good, "webhook-signature": `v1,bm9wZQ== ${good["webhook-signature"]}` }, body, expected: true },
        { headers: good, body: body.replace("test", "tset"), expected: false },
        { headers: old, body, expected: false },
        { headers: { ...good, "webhook-signature": good["webhook-signature"]!.replace("v1,", "v2,") }, body, expected: false },
        { headers: { "webhook-id": "evt_1", "webhook-timestamp": good["webhook-timestamp"]! }, body, expected: false }
      ]
      writeFileSync(path.join(dir, "vectors.json"), JSON.stringify({ secret: vectorSecret, vectors }))
      const driver = [
        "import json, webhook_receiver",
        "data = json.load(open('vectors.json'))",
        "print(json.dumps([webhook_receiver.verify(data['secret'], v['headers'], v['body'].encode()) for v in data['vectors']]))"
      ].join("\n")
      const checked = await new Promise<string>((resolve, reject) => {
        const py = spawn("python3", ["-c", driver], { cwd: dir })
        let out = ""
        let err = ""
        py.stdout.on("data", (c) => (out += c))
        py.stderr.on("data", (c) => (err += c))
        py.on("exit", (code) => (code === 0 ? resolve(out) : reject(new Error(err))))
      })
      expect(JSON.parse(checked)).toEqual(vectors.map((v) => v.expected))

      // 2. The receiver itself, registered with the real server.
      const port = await ProcessHelpers.freePort()
      const registered = await server.api("POST", "/v1/webhooks", key, { url: `http://127.0.0.1:${port}/`, events: ["webhook.test"] })
      expect(registered.status).toBe(201)
      created = registered.body
      let log = ""
      receiver = spawn("python3", ["webhook_receiver.py"], {
        cwd: dir,
        env: { ...process.env, SIGIL_WEBHOOK_SECRET: created!.signing_secret, PORT: String(port) }
      })
      receiver.stdout!.on("data", (c) => (log += c))
      receiver.stderr!.on("data", (c) => (log += c))
      await ProcessHelpers.eventually(async () => (log.includes("listening on") ? true : undefined), 20_000, "the Python receiver")

      const test = await server.api("POST", `/v1/webhooks/${created!.id}/test`, key)
      expect(test.body, log).toMatchObject({ delivered: true, status_code: 204 })
      await ProcessHelpers.eventually(async () => (/webhook\.test evt_/.test(log) ? true : undefined), 10_000, "the printed event")

      const post = (headers: Record<string, string>, text: string) =>
        fetch(`http://127.0.0.1:${port}/`, { method: "POST", headers, body: text })
      const text = JSON.stringify({ id: "evt_forged", type: "batch.anchored", data: {} })
      expect((await post({ "webhook-id": "evt_forged", "webhook-timestamp": String(Math.floor(Date.now() / 1000)), "webhook-signature": "v1,AAAA" }, text)).status).toBe(401)
      expect((await post(Webhooks.sign(created!.signing_secret, "evt_forged", text, new Date(Date.now() - 600_000)), text)).status).toBe(401)
      expect((await post(Webhooks.sign(created!.signing_secret, "evt_forged", text), text)).status).toBe(204)
    } finally {
      receiver?.kill("SIGTERM")
      if (created !== undefined) await server.api("DELETE", `/v1/webhooks/${created.id}`, key)
      rmSync(dir, { recursive: true, force: true })
    }
  }, 120_000)
})
