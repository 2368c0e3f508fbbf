/**
 * jsonld 9 (CommonJS, untyped), loaded with `createRequire` and typed locally: src/ has its own
 * ambient `declare module "jsonld"`, and two ambient declarations of one module would collide if
 * both ever became visible to one program.
 */
import { createRequire } from "node:module"

export interface RemoteDocument {
  readonly contextUrl: string | null
  readonly documentUrl: string
  readonly document: unknown
}

export type DocumentLoader = (url: string) => Promise<RemoteDocument>

export interface JsonLd {
  normalize(input: unknown, options: {
    readonly algorithm: "URDNA2015" | "RDFC-1.0"
    readonly format: "application/n-quads"
    readonly safe: boolean
    readonly documentLoader: DocumentLoader
  }): Promise<string>
  expand(input: unknown, options: { readonly safe: boolean; readonly documentLoader: DocumentLoader }): Promise<ReadonlyArray<unknown>>
}

export const jsonld = createRequire(import.meta.url)("jsonld") as JsonLd
