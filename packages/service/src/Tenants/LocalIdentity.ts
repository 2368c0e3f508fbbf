/**
 * Resolving Sigil's own tenants from the store: their DID documents and Blockcerts profiles
 * (`/tenants/<suffix>/did.json`, `/profile.json`) and their status lists
 * (`/tenants/<suffix>/status/<listId>`), as `DidResolver` and `StatusListReader` layers. The
 * server's verifier uses them for its own credentials; anything else goes to `fallback`.
 *
 * @since 0.1.0
 */
import { Context, Effect, Layer, Option } from "effect"
import type * as Canonicalizer from "@sigil/core/Canonicalizer"
import * as DidResolver from "@sigil/core/DidResolver"
import type { TenantId } from "@sigil/core/Ids"
import * as Issuers from "./Issuers.js"
import type { KeyVault } from "./KeyVault.js"
import type { Settings } from "../Settings.js"
import type { StatusSlotStore } from "../Credentials/StatusSlotStore.js"
import * as StatusListReader from "@sigil/core/StatusListReader"
import * as StatusListPublisher from "../Credentials/StatusListPublisher.js"
import type { TenantStore } from "./TenantStore.js"

/**
 * The tenant suffix of one of Sigil's own identifiers under `publicBaseUrl`: a `did:web` DID of
 * a tenant or a URL of one of its documents.
 *
 * @since 0.1.0
 * @category parsing
 */
export const tenantSuffix = (publicBaseUrl: string, id: string): string | undefined => {
  const base = new URL(publicBaseUrl)
  const didPrefix = `did:web:${encodeURIComponent(base.host)}${base.pathname.replace(/\/+$/, "").replace(/\//g, ":")}:tenants:`
  const urlPrefix = `${base.origin}${base.pathname.replace(/\/+$/, "")}/tenants/`
  const rest = id.startsWith(didPrefix) ? id.slice(didPrefix.length) : id.startsWith(urlPrefix) ? id.slice(urlPrefix.length) : undefined
  const match = rest === undefined ? null : /^([0-9a-z]{26})(?:[/#?]|$)/.exec(rest)
  return match?.[1]
}

/**
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: {
  readonly publicBaseUrl: string
  /** For DIDs, profiles and lists of other issuers; none by default. */
  readonly fallbackDid?: DidResolver.Service | undefined
  readonly fallbackStatus?: StatusListReader.Service | undefined
}): Layer.Layer<
  DidResolver.DidResolver | StatusListReader.StatusListReader,
  never,
  TenantStore | KeyVault | StatusSlotStore | Settings | Canonicalizer.Canonicalizer
> =>
  Layer.effectContext(Effect.gen(function*() {
    const context = yield* Effect.context<TenantStore | KeyVault | StatusSlotStore | Settings | Canonicalizer.Canonicalizer>()
    const none = Effect.succeed(Option.none())
    // A vault that cannot sign makes our own documents unreadable for now: a defect here, as
    // for any store failure; verification then reports the step that could not run.
    const documents = (suffix: string) =>
      Issuers.documents(options.publicBaseUrl, suffix).pipe(Effect.orDie, Effect.provide(context))
    const didResolver: DidResolver.Service = {
      resolveDid: (did) => {
        const suffix = tenantSuffix(options.publicBaseUrl, did)
        if (suffix === undefined) return options.fallbackDid?.resolveDid(did) ?? none
        return Effect.map(documents(suffix), Option.map((d) => d.didDocument))
      },
      resolveProfile: (url) => {
        const suffix = tenantSuffix(options.publicBaseUrl, url)
        if (suffix === undefined || !url.endsWith("/profile.json")) return options.fallbackDid?.resolveProfile(url) ?? none
        return Effect.map(documents(suffix), Option.map((d) => d.profile))
      }
    }
    const statusReader: StatusListReader.Service = {
      read: (url) => {
        const suffix = tenantSuffix(options.publicBaseUrl, url)
        const listId = /\/status\/(\d{1,9})$/.exec(url)?.[1]
        if (suffix === undefined || listId === undefined) return options.fallbackStatus?.read(url) ?? none
        return StatusListPublisher.credential(`tnt_${suffix.toUpperCase()}` as TenantId, Number(listId)).pipe(
          Effect.orDie,
          Effect.provide(context)
        )
      }
    }
    return Context.make(DidResolver.DidResolver, didResolver).pipe(
      Context.add(StatusListReader.StatusListReader, statusReader)
    )
  }))
