/**
 * `KeyVault` on Postgres: each tenant private key is sealed with its own data key under the
 * master key (`Envelope`, bound to the key's id) and stored in `tenant_keys`; only public keys
 * and signatures leave this module. A key is opened for one signature and zeroed right after.
 *
 * Failures are `SigningKeyUnavailable` (storage down, or a master key that does not open the
 * keys): signing work waits and retries (decisions §4).
 *
 * @since 0.1.0
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { SqlError } from "@effect/sql/SqlError"
import type { TenantId } from "@sigil/core/Ids"
import * as BoundedMap from "@sigil/core/BoundedMap"
import * as Ids from "@sigil/core/Ids"
import {
  fragmentFor,
  generateKeyPair,
  type KeyKind,
  KeyNotFound,
  KeyVault,
  signWithSecret,
  SigningKeyUnavailable,
  type TenantKey,
  wholeSeconds
} from "@sigil/service/Tenants/KeyVault"
import { Effect, Either, Layer, type Redacted } from "effect"
import * as Envelope from "./Envelope.js"
import { bytes, opt } from "./internal/sql.js"

interface Row {
  readonly key_id: string
  readonly tenant_id: string
  readonly kind: KeyKind
  readonly fragment: string
  readonly public_key: Uint8Array
  readonly created_at: Date
  readonly revoked_at: Date | null
}

const toKey = (r: Row): TenantKey => ({
  keyId: r.key_id,
  tenantId: r.tenant_id as TenantId,
  kind: r.kind,
  fragment: r.fragment,
  publicKey: bytes(r.public_key),
  createdAt: r.created_at,
  revokedAt: opt(r.revoked_at)
})

/**
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** The key-encryption key (`SIGIL_MASTER_KEY`): 32 bytes, or their hex / base64. */
  readonly masterKey: Redacted.Redacted<Uint8Array | string>
}

const context = (keyId: string) => `tenant-key:${keyId}`

const storage = (name: string) => <A, E, R>(effect: Effect.Effect<A, E | SqlError, R>) =>
  effect.pipe(
    Effect.catchIf(
      (e): e is SqlError => e instanceof SqlError,
      (e) => Effect.fail(new SigningKeyUnavailable({ message: `key storage unavailable: ${e.message}` }))
    ),
    Effect.withSpan(name)
  )

const COLUMNS = "key_id, tenant_id, kind, fragment, public_key, created_at, revoked_at"

/**
 * @since 0.1.0
 * @category constructors
 */
export const make = (options: Options): Effect.Effect<KeyVault["Type"], Envelope.InvalidMasterKey, SqlClient.SqlClient> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const master = yield* Envelope.masterKey(options.masterKey)
    const columns = sql.literal(COLUMNS)
    // Sealed secrets never change: keep the envelopes read (never the opened keys). 10,000 of
    // them (≈100 bytes each, about 1 MB): two keys per tenant of a large deployment; past it the
    // oldest is read again.
    const envelopes = BoundedMap.make<string, Uint8Array>(10_000)

    const envelope = (keyId: string) =>
      Effect.gen(function*() {
        const cached = envelopes.get(keyId)
        if (cached !== undefined) return cached
        const [row] = yield* sql<{ readonly secret_envelope: Uint8Array }>`SELECT secret_envelope FROM tenant_keys
          WHERE key_id = ${keyId}`
        if (row === undefined) return yield* Effect.fail(new KeyNotFound({ keyId }))
        envelopes.set(keyId, bytes(row.secret_envelope))
        return envelopes.get(keyId)!
      })

    const withSecret = <A>(keyId: string, use: (secret: Uint8Array) => A) =>
      Effect.flatMap(envelope(keyId), (sealed) => {
        const opened = Envelope.open(master, sealed, context(keyId))
        if (Either.isLeft(opened)) {
          return Effect.fail(
            new SigningKeyUnavailable({
              message: opened.left.reason === "other-master-key"
                ? `the key ${keyId} was sealed under another master key (master key ${master.id} configured)`
                : `the key ${keyId} cannot be opened (${opened.left.reason})`
            })
          )
        }
        try {
          return Effect.succeed(use(opened.right))
        } finally {
          opened.right.fill(0)
        }
      })

    return KeyVault.of({
      generate: (tenantId, kind, createdAt) =>
        Effect.gen(function*() {
          const keyId = Ids.unsafeMake("key")
          const pair = generateKeyPair(kind)
          const sealed = Envelope.seal(master, pair.secretKey, context(keyId))
          pair.secretKey.fill(0)
          const prefix = fragmentFor(kind, 1).slice(0, -1)
          // The fragment is the next number of its kind; two concurrent generations for one
          // tenant collide on (tenant_id, fragment) and the loser counts again.
          for (let i = 0; i < 10; i++) {
            const [row] = yield* sql<Row>`INSERT INTO tenant_keys
                (key_id, tenant_id, kind, fragment, public_key, secret_envelope, created_at)
              SELECT ${keyId}, ${tenantId}, ${kind}, ${prefix}::text || (count(*) + 1)::text,
                ${pair.publicKey}::bytea, ${sealed}::bytea, ${wholeSeconds(createdAt)}::timestamptz
              FROM tenant_keys WHERE tenant_id = ${tenantId} AND kind = ${kind}
              ON CONFLICT (tenant_id, fragment) DO NOTHING
              RETURNING ${columns}`
            if (row !== undefined) return toKey(row)
          }
          return yield* Effect.dieMessage("KeyVault.generate: could not find a free fragment")
        }).pipe(storage("PgKeyVault.generate")),
      keys: (tenantId) =>
        sql<Row>`SELECT ${columns} FROM tenant_keys WHERE tenant_id = ${tenantId} ORDER BY seq`.pipe(
          Effect.map((rows) => rows.map(toKey)),
          storage("PgKeyVault.keys")
        ),
      revoke: (keyId, at) =>
        sql`UPDATE tenant_keys SET revoked_at = ${wholeSeconds(at)} WHERE key_id = ${keyId} RETURNING key_id`.pipe(
          Effect.flatMap((rows) => (rows.length > 0 ? Effect.void : Effect.fail(new KeyNotFound({ keyId })))),
          storage("PgKeyVault.revoke")
        ),
      signEd25519: (keyId, message) =>
        withSecret(keyId, (secret) => signWithSecret.ed25519(secret, message)).pipe(storage("PgKeyVault.signEd25519")),
      signSecp256k1: (keyId, digest) =>
        withSecret(keyId, (secret) => signWithSecret.secp256k1(secret, digest)).pipe(
          storage("PgKeyVault.signSecp256k1")
        )
    })
  })

/**
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: Options): Layer.Layer<KeyVault, Envelope.InvalidMasterKey, SqlClient.SqlClient> =>
  Layer.effect(KeyVault, make(options))
