/**
 * The verification page's script: the core verifier and its browser ports (`browser/verify.ts`)
 * bundled by esbuild for browsers (ESM, minified), in memory, once per process. The build starts
 * when the layer is built, so it is usually ready before the first page is asked for; pages
 * wait for it otherwise. Served at `/assets/verify.<hash>.js`, the hash of its content, so it can
 * be cached forever.
 *
 * Only browser-safe core modules may be reachable from the entry; the build fails on any Node
 * built-in (`platform: "browser"` leaves none resolvable), so a leak shows at start, not in a
 * visitor's browser.
 *
 * @since 0.1.0
 */
import { Context, Effect, Layer } from "effect"
import * as esbuild from "esbuild"
import { createHash } from "node:crypto"
import { fileURLToPath } from "node:url"
import { gzipSync } from "node:zlib"

/**
 * @since 0.1.0
 * @category models
 */
export interface Bundle {
  /** `/assets/verify.<hash>.js` */
  readonly path: string
  readonly code: Uint8Array
  /** The same, gzipped once here (served to browsers that accept it). */
  readonly gzip: Uint8Array
  readonly bytes: number
  readonly gzipBytes: number
  readonly buildMs: number
}

/**
 * @since 0.1.0
 * @category models
 */
export interface Service {
  /** The bundle; `undefined` when it could not be built (pages then show the server's verdict only). */
  readonly get: Effect.Effect<Bundle | undefined>
}

/**
 * @since 0.1.0
 * @category tags
 */
export class BrowserBundle extends Context.Tag("@sigil/server/BrowserBundle")<BrowserBundle, Service>() {}

/**
 * The entry point of the bundle.
 *
 * @since 0.1.0
 * @category constants
 */
export const ENTRY = fileURLToPath(new URL("./browser/verify.ts", import.meta.url))

/**
 * effect's `Schema` imports its property-testing support (fast-check, ~45 KB minified) for
 * `Arbitrary`, which only runs when a test asks for generated values; the verifier never does,
 * so the bundle gets an empty module in its place.
 */
const withoutFastCheck: esbuild.Plugin = {
  name: "without-fast-check",
  setup: (build) => {
    build.onResolve({ filter: /^fast-check$/ }, () => ({ path: "fast-check", namespace: "sigil-stub" }))
    build.onLoad({ filter: /.*/, namespace: "sigil-stub" }, () => ({ contents: "export {}", loader: "js" }))
  }
}

/**
 * Builds the bundle (a few hundred milliseconds).
 *
 * @since 0.1.0
 * @category constructors
 */
export const build = async (): Promise<Bundle> => {
  const started = performance.now()
  const result = await esbuild.build({
    entryPoints: [ENTRY],
    bundle: true,
    write: false,
    format: "esm",
    platform: "browser",
    target: ["es2022"],
    minify: true,
    legalComments: "none",
    charset: "utf8",
    define: { "process.env.NODE_ENV": "\"production\"" },
    plugins: [withoutFastCheck],
    logLevel: "silent"
  })
  const code = result.outputFiles[0]!.contents
  const hash = createHash("sha256").update(code).digest("hex").slice(0, 16)
  const gzip = new Uint8Array(gzipSync(code, { level: 9 }))
  return {
    path: `/assets/verify.${hash}.js`,
    code,
    gzip,
    bytes: code.byteLength,
    gzipBytes: gzip.byteLength,
    buildMs: Math.round(performance.now() - started)
  }
}

/**
 * Starts the build at once and serves its result to every page.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<BrowserBundle> = Layer.scoped(
  BrowserBundle,
  Effect.gen(function*() {
    const built = yield* Effect.cached(
      Effect.tryPromise(build).pipe(
        Effect.tap((b) => Effect.logDebug(`verification page bundle: ${b.bytes} bytes (${b.gzipBytes} gzipped), built in ${b.buildMs} ms`)),
        Effect.catchAll((error) =>
          Effect.logError("the verification page's browser bundle could not be built; pages show the server's verdict only", error).pipe(
            Effect.as(undefined)
          )
        )
      )
    )
    yield* Effect.forkScoped(built)
    return { get: built }
  })
)
