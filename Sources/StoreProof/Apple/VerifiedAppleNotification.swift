import StrictJSON

/// An App Store Server Notification V2 (`responseBodyV2DecodedPayload`) whose JWS, and nested signed transaction and
/// renewal info, verified like a transaction: ES256, the x5c chain to the trusted root with Apple's markers, each
/// valid at its own `signedDate`.
package struct VerifiedAppleNotification: Sendable, Equatable {
    /// What signed the notification (`appStoreSandbox` for a Sandbox notification signed by Apple).
    package let signer: AppleSigner
    /// `data.environment`.
    package let environment: AppleEnvironment
    /// `notificationType`: `REFUND`, `TEST`, `DID_RENEW`, ….
    package let notificationType: String
    /// `subtype`, when present.
    package let subtype: String?
    /// `notificationUUID`.
    package let notificationUUID: String
    /// `data.bundleId`.
    package let bundleId: String
    /// The notification's `signedDate`.
    package let signedDate: StoreTimestamp
    /// `data.signedTransactionInfo`, verified; nil for a notification without one (`TEST`).
    package let transaction: VerifiedAppleTransaction?
    /// Whether `data.signedRenewalInfo` was present (and verified).
    package let hasRenewalInfo: Bool
    /// The token exactly as verified.
    package let jws: String

    /// The notification type of a refund Apple granted.
    package static let refundType = "REFUND"
    /// The notification type Apple sends when asked to test the notification URL.
    package static let testType = "TEST"

    /// The fields a report or `--json` output shows: the notification's own, and its transaction's, prefixed
    /// nowhere (the transaction's keys are a transaction's), so that the recorded item reads like a transaction.
    package var summary: JSONValue {
        var fields = transaction?.summary.objectValue ?? [:]
        fields["environment"] = .string(environment.rawValue)
        fields["bundleId"] = .string(bundleId)
        fields["notificationType"] = .string(notificationType)
        fields["notificationUUID"] = .string(notificationUUID)
        fields["notificationSignedDate"] = .string(signedDate.rfc3339)
        if let subtype { fields["subtype"] = .string(subtype) }
        if hasRenewalInfo { fields["renewalInfoVerified"] = .bool(true) }
        return .object(fields)
    }
}

extension JWSVerifier {
    /// Verifies an App Store Server Notification V2 `signedPayload` and its nested `signedTransactionInfo` and
    /// `signedRenewalInfo`; the notification's and its transaction's bundle id must be `expectedBundleId`, and the
    /// nested objects' environment the notification's. Throws the `StoreProofError` of the first rule that fails.
    package func verifyNotification(_ jws: String, expectedBundleId: String) throws -> VerifiedAppleNotification {
        let envelope = try verifiedEnvelope(jws) { fields in
            guard let data = fields["data"] else { return nil }
            guard let environment = data["environment"] else { return nil }
            guard let text = environment.stringValue else { throw StoreProofError.invalidField(name: "data.environment", reason: "expected a string") }
            return text
        }
        let fields = envelope.fields
        func string(_ value: JSONValue?, _ name: String) throws -> String? {
            guard let value, !value.isNull else { return nil }
            guard let text = value.stringValue else { throw StoreProofError.invalidField(name: name, reason: "expected a string") }
            return text
        }
        guard let type = try string(fields["notificationType"], "notificationType"), !type.isEmpty else {
            throw StoreProofError.missingField("notificationType")
        }
        guard let uuid = try string(fields["notificationUUID"], "notificationUUID"), !uuid.isEmpty else {
            throw StoreProofError.missingField("notificationUUID")
        }
        let data = fields["data"]
        guard let bundleId = try string(data?["bundleId"], "data.bundleId") else { throw StoreProofError.missingField("data.bundleId") }
        guard bundleId == expectedBundleId else { throw StoreProofError.bundleIdMismatch(expected: expectedBundleId, found: bundleId) }
        var transaction: VerifiedAppleTransaction?
        if let signed = try string(data?["signedTransactionInfo"], "data.signedTransactionInfo") {
            let verified = try verify(signed, expectedBundleId: expectedBundleId)
            guard verified.environment == envelope.environment else {
                throw StoreProofError.invalidField(name: "data.signedTransactionInfo",
                                                   reason: "its environment \(verified.environment.rawValue) is not the notification's \(envelope.environment.rawValue)")
            }
            transaction = verified
        }
        var hasRenewalInfo = false
        if let renewal = try string(data?["signedRenewalInfo"], "data.signedRenewalInfo") {
            let verified = try verifiedEnvelope(renewal) { try string($0["environment"], "environment") }
            guard verified.environment == envelope.environment else {
                throw StoreProofError.invalidField(name: "data.signedRenewalInfo",
                                                   reason: "its environment \(verified.environment.rawValue) is not the notification's \(envelope.environment.rawValue)")
            }
            hasRenewalInfo = true
        }
        return VerifiedAppleNotification(
            signer: envelope.signer, environment: envelope.environment, notificationType: type, subtype: try string(fields["subtype"], "subtype"),
            notificationUUID: uuid, bundleId: bundleId, signedDate: envelope.signedDate, transaction: transaction,
            hasRenewalInfo: hasRenewalInfo, jws: jws)
    }
}
