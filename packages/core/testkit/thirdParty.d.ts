/**
 * Minimal ambient types for the untyped third-party JS packages the test harness drives.
 * Only what the harness calls is declared; everything the libraries return that we do not read
 * stays `unknown`.
 *
 * (`@blockcerts/cert-verifier-js` and `jsonld` are loaded through `createRequire` and typed in
 * cvjsModule.ts and jsonldLib.ts; `@digitalcredentials/verifier-core`, `ajv` and `ajv-formats` ship
 * their own types.)
 */

declare module "@digitalbazaar/ed25519-multikey" {
  export interface Ed25519KeyPair {
    id?: string
    controller?: string
    readonly publicKeyMultibase: string
    readonly publicKey: Uint8Array
    signer(): { readonly algorithm: string; id: string; sign(args: { data: Uint8Array }): Promise<Uint8Array> }
    export(options?: { publicKey?: boolean; secretKey?: boolean; includeContext?: boolean }): Promise<Record<string, unknown>>
  }
  export function generate(options?: { id?: string; controller?: string; seed?: Uint8Array }): Promise<Ed25519KeyPair>
  export function from(key: unknown): Promise<Ed25519KeyPair>
  export function toJwk(options: { keyPair: { publicKey: Uint8Array } }): Promise<{ kty: "OKP"; crv: "Ed25519"; x: string }>
}

declare module "@digitalbazaar/eddsa-rdfc-2022-cryptosuite" {
  export const cryptosuite: { readonly name: string }
}

declare module "@digitalbazaar/data-integrity" {
  export class DataIntegrityProof {
    constructor(options: { cryptosuite: unknown; signer?: unknown; date?: string | Date })
  }
}

declare module "@digitalbazaar/vc" {
  type DocumentLoader = (url: string) => Promise<{ contextUrl: string | null; documentUrl: string; document: unknown }>
  export interface VerifyCredentialResult {
    readonly verified: boolean
    readonly results?: ReadonlyArray<{
      readonly verified: boolean
      readonly error?: unknown
      readonly proof?: unknown
      readonly verificationMethod?: unknown
    }>
    readonly error?: unknown
  }
  export function verifyCredential(options: {
    credential: unknown
    suite: unknown
    documentLoader: DocumentLoader
    checkStatus?: (options: unknown) => Promise<{ verified: boolean }>
    now?: string | Date
  }): Promise<VerifyCredentialResult>
  export function issue(options: {
    credential: unknown
    suite: unknown
    documentLoader: DocumentLoader
    now?: string | Date
  }): Promise<Record<string, unknown>>
}
