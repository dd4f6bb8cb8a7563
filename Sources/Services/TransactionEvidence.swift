import Evidence
import StoreProof

/// How a verified store transaction becomes an evidence item, in one place for
/// `evidence add transaction` and `demo`.
public enum TransactionEvidence {
    /// A verified App Store JWS: its summary, the order it paid for, and the raw JWS
    /// (a store-signed payload, not a credential: the secret scan passes over it).
    public static func apple(_ verified: VerifiedAppleTransaction, runId: String, orderId: String?) -> NewEvidence {
        let details = TransactionDetails(summary: verified.summary, store: "apple", source: "jws", transactionId: verified.transactionId,
                                         orderId: orderId, productId: verified.productId, signedPayload: verified.jws, warnings: verified.warnings)
        return NewEvidence(runId: runId, provenance: verified.provenance, details: details)
    }
}
