/**
 * The batch every signing benchmark signs: 500 credentials of about 2 KB, issued by one tenant.
 */
import type * as Document from "../../src/Document.js";
import type * as Issuance from "../../src/Issuance.js";
export declare const BATCH = 500;
export declare const settings: Issuance.IssuerSettings;
export declare const content: (i: number) => Document.Content;
export declare const credentials: (n?: number) => ReadonlyArray<Document.Content>;
export declare const anchor: {
    chainId: number;
    txHash: string;
    created: Date;
};
export declare const signedAt: Date;
//# sourceMappingURL=batch.d.ts.map