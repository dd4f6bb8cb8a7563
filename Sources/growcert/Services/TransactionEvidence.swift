import Evidence
import StoreProof

/// How a verified store transaction becomes an evidence item, in one place for
/// `evidence add transaction` and `demo`.
enum TransactionEvidence {
    /// A verified App Store JWS: its summary, the order it paid for, and the raw JWS
    /// (a store-signed payload, not a credential: the secret scan passes over it).
    static func apple(_ verified: VerifiedAppleTransaction, runId: String, orderId: String?) -> NewEvidence {
        var details = verified.summary.objectValue ?? [:]
        details["store"] = "apple"
        details["source"] = "jws"
        details["orderId"] = .optional(orderId)
        details["signedPayload"] = .string(verified.jws)
        return NewEvidence(runId: runId, type: .transaction, provenance: verified.provenance, details: .object(details),
                           signedPayloadKeys: ["signedPayload"])
    }
}
