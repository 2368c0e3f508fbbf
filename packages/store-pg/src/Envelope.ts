/**
 * Envelope encryption for secrets at rest (tenant private keys, webhook signing secrets):
 * every record gets its own random 256-bit data key; the record is sealed with AES-256-GCM
 * under that data key, and the data key is sealed (wrapped) with AES-256-GCM under the master
 * key (`SIGIL_MASTER_KEY`). Both seals authenticate a context string naming the record
 * (`tenant-key:<keyId>`), so an envelope copied onto another row does not open.
 *
 * Layout (version 1), one byte string:
 *
 * | bytes | field |
 * |---|---|
 * | 1 | version `0x01` |
 * | 8 | master key id: first 8 bytes of SHA-256("sigil/master-key-id/v1" ‖ master key) |
 * | 12 | IV of the wrapped data key |
 * | 32 | wrapped data key |
 * | 16 | GCM tag of the wrapped data key |
 * | 12 | IV of the record |
 * | 16 | GCM tag of the record |
 * | n | the sealed record |
 *
 * The master key id tells a wrong master key ("this envelope was sealed under another key")
 * from a damaged envelope, and leaves room for rotation. Plaintexts and data keys are zeroed
 * after use. docs/decisions/key-encryption.md gives the reasons.
 *
 * @since 0.1.0
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto"
import { Either, Redacted, Schema } from "effect"

/**
 * The master key cannot be used: not 32 bytes in hex or base64.
 *
 * @since 0.1.0
 * @category errors
 */
export class InvalidMasterKey extends Schema.TaggedError<InvalidMasterKey>()("InvalidMasterKey", {
  message: Schema.String
}) {}

/**
 * An envelope did not open: sealed under another master key, for another record, or damaged.
 *
 * @since 0.1.0
 * @category errors
 */
export class EnvelopeOpenFailed extends Schema.TaggedError<EnvelopeOpenFailed>()("EnvelopeOpenFailed", {
  reason: Schema.Literal("other-master-key", "corrupt", "unsupported-version")
}) {}

/**
 * A parsed master key. The bytes stay redacted: logging a `MasterKey` shows nothing.
 *
 * @since 0.1.0
 * @category models
 */
export interface MasterKey {
  readonly key: Redacted.Redacted<Uint8Array>
  /** 8 bytes, hex: names the key in envelopes and logs without revealing it. */
  readonly id: string
}

const VERSION = 0x01
const ID_BYTES = 8
const IV_BYTES = 12
const TAG_BYTES = 16
const KEY_BYTES = 32
const HEADER_BYTES = 1 + ID_BYTES + IV_BYTES + KEY_BYTES + TAG_BYTES + IV_BYTES + TAG_BYTES

const keyId = (key: Uint8Array): Uint8Array =>
  createHash("sha256").update("sigil/master-key-id/v1").update(key).digest().subarray(0, ID_BYTES)

const decodeKey = (text: string): Uint8Array | undefined => {
  const s = text.trim()
  if (/^[0-9a-fA-F]{64}$/.test(s)) return Buffer.from(s, "hex")
  if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(s)) {
    const bytes = Buffer.from(s.replace(/-/g, "+").replace(/_/g, "/"), "base64")
    if (bytes.length === KEY_BYTES) return bytes
  }
  return undefined
}

/**
 * Reads a master key: 32 raw bytes, or 32 bytes written as 64 hex digits or as base64 /
 * base64url.
 *
 * @since 0.1.0
 * @category constructors
 */
export const masterKey = (input: Redacted.Redacted<Uint8Array | string>): Either.Either<MasterKey, InvalidMasterKey> => {
  const value = Redacted.value(input)
  const bytes = typeof value === "string" ? decodeKey(value) : value.length === KEY_BYTES ? Uint8Array.from(value) : undefined
  if (bytes === undefined) {
    return Either.left(
      new InvalidMasterKey({ message: "the master key must be 32 bytes, written as 64 hex digits or as base64" })
    )
  }
  return Either.right({ key: Redacted.make(Uint8Array.from(bytes)), id: Buffer.from(keyId(bytes)).toString("hex") })
}

/**
 * A fresh random master key, base64url (for a first start without one).
 *
 * @since 0.1.0
 * @category constructors
 */
export const generateMasterKey = (): string => randomBytes(KEY_BYTES).toString("base64url")

const aad = (context: string) => Buffer.from(`sigil-envelope-v1|${context}`, "utf8")

const gcmSeal = (key: Uint8Array, plaintext: Uint8Array, context: string) => {
  const iv = randomBytes(IV_BYTES)
  const cipher = createCipheriv("aes-256-gcm", key, iv)
  cipher.setAAD(aad(context))
  const sealed = Buffer.concat([cipher.update(plaintext), cipher.final()])
  return { iv, sealed, tag: cipher.getAuthTag() }
}

const gcmOpen = (key: Uint8Array, iv: Uint8Array, sealed: Uint8Array, tag: Uint8Array, context: string) => {
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, iv)
    decipher.setAAD(aad(context))
    decipher.setAuthTag(tag)
    return Buffer.concat([decipher.update(sealed), decipher.final()])
  } catch {
    return undefined
  }
}

/**
 * Seals `plaintext` for the record named by `context`.
 *
 * @since 0.1.0
 * @category encryption
 */
export const seal = (master: MasterKey, plaintext: Uint8Array, context: string): Uint8Array => {
  const dataKey = randomBytes(KEY_BYTES)
  try {
    const wrapped = gcmSeal(Redacted.value(master.key), dataKey, context)
    const record = gcmSeal(dataKey, plaintext, context)
    return new Uint8Array(Buffer.concat([
      Buffer.of(VERSION),
      Buffer.from(master.id, "hex"),
      wrapped.iv,
      wrapped.sealed,
      wrapped.tag,
      record.iv,
      record.tag,
      record.sealed
    ]))
  } finally {
    dataKey.fill(0)
  }
}

/**
 * Opens an envelope sealed for `context`. The caller zeroes the plaintext after use.
 *
 * @since 0.1.0
 * @category encryption
 */
export const open = (
  master: MasterKey,
  envelope: Uint8Array,
  context: string
): Either.Either<Uint8Array, EnvelopeOpenFailed> => {
  if (envelope.length < HEADER_BYTES) return Either.left(new EnvelopeOpenFailed({ reason: "corrupt" }))
  if (envelope[0] !== VERSION) return Either.left(new EnvelopeOpenFailed({ reason: "unsupported-version" }))
  let at = 1
  const take = (n: number) => envelope.subarray(at, (at += n))
  const id = take(ID_BYTES)
  if (Buffer.from(id).toString("hex") !== master.id) {
    return Either.left(new EnvelopeOpenFailed({ reason: "other-master-key" }))
  }
  const wrapIv = take(IV_BYTES)
  const wrapped = take(KEY_BYTES)
  const wrapTag = take(TAG_BYTES)
  const iv = take(IV_BYTES)
  const tag = take(TAG_BYTES)
  const sealed = envelope.subarray(at)
  const dataKey = gcmOpen(Redacted.value(master.key), wrapIv, wrapped, wrapTag, context)
  if (dataKey === undefined) return Either.left(new EnvelopeOpenFailed({ reason: "corrupt" }))
  try {
    const plaintext = gcmOpen(dataKey, iv, sealed, tag, context)
    return plaintext === undefined
      ? Either.left(new EnvelopeOpenFailed({ reason: "corrupt" }))
      : Either.right(new Uint8Array(plaintext.buffer, plaintext.byteOffset, plaintext.byteLength))
  } finally {
    dataKey.fill(0)
  }
}

/**
 * The envelope re-wrapped under `to`: its data key opened with `from` and sealed again under
 * `to`, the sealed record itself untouched (a master-key rotation rewrites 32 bytes a record).
 * The whole envelope is authenticated first, so a damaged one is refused rather than carried
 * over. An envelope already under `to` (a rotation run again) is checked and returned as it is.
 *
 * @since 0.1.0
 * @category encryption
 */
export const rewrap = (
  from: MasterKey,
  to: MasterKey,
  envelope: Uint8Array,
  context: string
): Either.Either<{ readonly envelope: Uint8Array; readonly changed: boolean }, EnvelopeOpenFailed> => {
  const id = envelope.length >= 1 + ID_BYTES ? Buffer.from(envelope.subarray(1, 1 + ID_BYTES)).toString("hex") : ""
  const current = id === to.id ? to : from
  const opened = open(current, envelope, context)
  if (Either.isLeft(opened)) return Either.left(opened.left)
  opened.right.fill(0)
  if (current === to) return Either.right({ envelope, changed: false })
  const wrapIv = envelope.subarray(1 + ID_BYTES, 1 + ID_BYTES + IV_BYTES)
  const wrapped = envelope.subarray(1 + ID_BYTES + IV_BYTES, 1 + ID_BYTES + IV_BYTES + KEY_BYTES)
  const wrapTag = envelope.subarray(1 + ID_BYTES + IV_BYTES + KEY_BYTES, 1 + ID_BYTES + IV_BYTES + KEY_BYTES + TAG_BYTES)
  const dataKey = gcmOpen(Redacted.value(from.key), wrapIv, wrapped, wrapTag, context)!
  try {
    const rewrapped = gcmSeal(Redacted.value(to.key), dataKey, context)
    return Either.right({
      envelope: new Uint8Array(Buffer.concat([
        Buffer.of(VERSION),
        Buffer.from(to.id, "hex"),
        rewrapped.iv,
        rewrapped.sealed,
        rewrapped.tag,
        envelope.subarray(1 + ID_BYTES + IV_BYTES + KEY_BYTES + TAG_BYTES)
      ])),
      changed: true
    })
  } finally {
    dataKey.fill(0)
  }
}
