/**
 * The HTML body of the magic-link e-mail (issue #10), built with the one escaping template
 * (`Html`): every issuer- and recipient-supplied string is escaped, and only http(s) URLs
 * become links or images. The plain-text body and the subject are core's
 * (`Email.text`, `Email.subject`); both bodies say the same.
 *
 * The tenant's accent colour and logo appear only when its plan includes branding (core puts
 * `branding` in the letter then); the accent is darkened to WCAG AA on white when needed.
 *
 * @since 0.1.0
 */
import type { Letter } from "@sigil/service/Email"
import * as Contrast from "./Contrast.js"
import { html, safeUrl } from "./Html.js"

const day = (date: Date) => date.toISOString().slice(0, 10)

/**
 * @since 0.1.0
 * @category rendering
 */
export const render = (letter: Letter): string => {
  const accent = Contrast.readableAccent(letter.branding?.accentColor)
  const logo = safeUrl(letter.branding?.logoUrl ?? letter.awardingBody.logoUrl)
  const bodyUrl = safeUrl(letter.awardingBody.url)
  const claimUrl = safeUrl(letter.claimUrl)
  const verifyUrl = safeUrl(letter.verifyUrl)
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${letter.achievement.name}</title>
</head>
<body style="margin:0;padding:0;background:#f4f5f7;font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;color:#1d2330">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f4f5f7;padding:24px 0">
<tr><td align="center">
<table role="presentation" width="560" cellpadding="0" cellspacing="0" style="max-width:560px;width:100%;background:#ffffff;border-radius:8px;overflow:hidden;border-top:6px solid ${accent}">
<tr><td style="padding:28px 32px 8px">
${logo === undefined ? "" : html`<img src="${logo}" alt="${letter.awardingBody.name}" height="48" style="height:48px;max-width:200px;display:block;margin-bottom:16px">`}
<p style="margin:0 0 16px;font-size:16px">Dear ${letter.recipientName},</p>
<p style="margin:0 0 8px;font-size:16px">${letter.awardingBody.name} has awarded you</p>
<h1 style="margin:0 0 12px;font-size:22px;line-height:1.3;color:${accent}">${letter.achievement.name}</h1>
${letter.achievement.description === undefined ? "" : html`<p style="margin:0 0 20px;font-size:15px;color:#4a5160">${letter.achievement.description}</p>`}
</td></tr>
<tr><td style="padding:0 32px 24px">
${
    claimUrl === undefined
      ? ""
      : html`<a href="${claimUrl}" style="display:inline-block;background:${accent};color:#ffffff;text-decoration:none;font-weight:600;padding:12px 22px;border-radius:6px;font-size:16px">View and download your credential</a>
<p style="margin:16px 0 0;font-size:13px;color:#4a5160">Or open this link: <a href="${claimUrl}" style="color:${accent};word-break:break-all">${claimUrl}</a></p>`
  }
<p style="margin:16px 0 0;font-size:13px;color:#4a5160">This link is yours alone: it shows the credential with your name and lets you download the signed file. It works until ${
    day(letter.expiresAt)
  }.${
    verifyUrl === undefined ? "" : html` The credential's public page stays at <a href="${verifyUrl}" style="color:${accent}">${verifyUrl}</a>.`
  }</p>
</td></tr>
<tr><td style="padding:16px 32px 24px;border-top:1px solid #e6e8ec;font-size:12px;color:#6b7280">
If you did not expect this message, you can ignore it.${
    bodyUrl === undefined ? "" : html`<br><a href="${bodyUrl}" style="color:#6b7280">${letter.awardingBody.name}</a>`
  }
</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`.value
}
