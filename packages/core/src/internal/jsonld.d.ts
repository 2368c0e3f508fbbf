// jsonld 9 ships no types, and @types/jsonld describes an older API: declare only what Sigil calls.
declare module "jsonld" {
  interface Options {
    readonly algorithm?: "RDFC-1.0" | "URDNA2015"
    readonly format?: "application/n-quads"
    readonly safe?: boolean
    readonly documentLoader?: (url: string) => Promise<unknown>
    readonly base?: string | null
  }
  const jsonld: {
    canonize(input: unknown, options: Options): Promise<string>
    expand(input: unknown, options: Options): Promise<ReadonlyArray<unknown>>
  }
  export default jsonld
}
