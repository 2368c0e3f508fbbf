/**
 * `PATCH /tenants/me`: the tenant's display name, awarding body and branding.
 *
 * @since 0.1.0
 */
import { Effect, Schema } from "effect"
import * as S from "../internal/inputSchemas.js"
import { decodeUnknown, type InvalidInput } from "./InputErrors.js"
import { HttpUrl } from "./InputFormats.js"

const HexColor = Schema.String.pipe(Schema.pattern(/^#[0-9A-Fa-f]{6}$/)).annotations({
  ...S.rule({ expected: "a hex color #RRGGBB" }),
  examples: ["#1a4d8f"]
})

/**
 * `PATCH /tenants/me`: only members present are changed; `{}` changes nothing.
 *
 * @since 0.1.0
 * @category requests
 */
export const TenantUpdate = S.object(
  Schema.Struct({
    display_name: S.optional(S.text(200).annotations({ description: "The tenant's display name." })),
    awarding_body: S.optional(S.object(
      Schema.Struct({
        name: S.text(1000).annotations({ description: "Name of the awarding body; the credential's issuer name." }),
        url: S.optional(HttpUrl.annotations({ description: "The awarding body's website." })),
        logo_url: S.optional(HttpUrl.annotations({ description: "The awarding body's logo." }))
      }).annotations({ identifier: "AwardingBody" })
    )),
    verify_page_branding: S.optional(S.object(
      Schema.Struct({
        accent_color: S.optional(HexColor.annotations({ description: "Accent color of the verification page." })),
        logo_url: S.optional(HttpUrl.annotations({ description: "Logo shown on the verification page." }))
      }).annotations({ identifier: "VerifyPageBranding" })
    ))
  })
).annotations({ identifier: "TenantUpdate", parseOptions: { errors: "all" } })
/**
 * @since 0.1.0
 * @category requests
 */
export type TenantUpdate = typeof TenantUpdate.Type


/**
 * @since 0.1.0
 * @category decoding
 */
export const decodeTenantUpdate: (u: unknown) => Effect.Effect<TenantUpdate, InvalidInput> = decodeUnknown(
  TenantUpdate
)
