/**
 * @since 0.1.0
 */
export * as BrowserBundle from "./BrowserBundle.js"
export * as Contrast from "./Contrast.js"
export * as Html from "./Html.js"
export * as NodePrimitives from "./NodePrimitives.js"
export * as PublicRoutes from "./PublicRoutes.js"
export * as Secrets from "./Secrets.js"
export * as Server from "./Server.js"
export * as ServerConfig from "./ServerConfig.js"
export * as SigningPool from "./SigningPool.js"
export * as Startup from "./Startup.js"
export * as VerifyPage from "./VerifyPage.js"
export * as VerifyPageHtml from "./VerifyPageHtml.js"
export * as VerifyPageText from "./VerifyPageText.js"
export * as WebhookTransportLive from "./WebhookTransportLive.js"
export * as Workers from "./Workers.js"
