import Foundation
import StrictJSON

/// A Google Play purchase as Play Billing returns it to the app: `Purchase.getOriginalJson()` (the exact bytes Google
/// signed) and `Purchase.getSignature()` (base64 RSASSA-PKCS1-v1_5 with SHA-1 over those bytes), verified with the
/// app's license key.
///
/// What the signature proves: Google Play issued this purchase of this product for this package, with this order id,
/// token, time and state. What it does not prove: whether it was a test purchase (a license tester's) or real money,
/// and whether the vendor's backend saw it: the signed JSON carries no such field. That is the vendor Sandbox's
/// server-side check's to say (its receipt's `purchaseType` and `storeEnvironment`).
package struct GooglePlaySignedPurchase: Sendable, Equatable {
    /// The exact bytes Google signed, as text.
    package let originalJson: String
    /// The signature as given (base64, canonical).
    package let signature: String
    /// `orderId` (`GPA.…`).
    package let orderId: String
    /// `packageName`: the app id.
    package let packageName: String
    /// `productId` (a one-time product) or the first of `productIds`.
    package let productId: String
    /// `purchaseTime`, milliseconds since 1970 as written.
    package let purchaseTimeMillis: String
    /// `purchaseTime` as RFC 3339 UTC.
    package let purchaseTime: String
    /// `purchased` (0), `canceled` (1) or `pending` (2, 4).
    package let purchaseState: String
    /// The purchase token.
    package let purchaseToken: String
    /// `obfuscatedAccountId`: what the app passed to `BillingFlowParams.setObfuscatedAccountId` (growcert's run nonce).
    package let obfuscatedAccountId: String?
    /// `acknowledged`, when present.
    package let acknowledged: Bool?
    /// The whole signed document, numbers kept as their literal text.
    package let payload: JSONValue

    /// The largest purchase JSON accepted, in bytes.
    package static let maximumBytes = 64 * 1024

    /// Verifies `signatureFile` over exactly `json` with `key`, then reads the purchase and checks it was made for
    /// `expectedPackage` and is purchased. Throws a `StoreProofError` naming the rule that failed.
    package static func verify(json: Data, signatureFile: Data, key: GooglePlayLicenseKey, expectedPackage: String) throws -> GooglePlaySignedPurchase {
        guard json.count <= maximumBytes else { throw StoreProofError.googleDocumentTooLarge(bytes: json.count, limit: maximumBytes) }
        guard let sigText = String(data: signatureFile, encoding: .utf8) else { throw StoreProofError.googleSignatureUnreadable }
        // A signature file may end in a newline; the base64 itself has none.
        let signatureText = sigText.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !signatureText.isEmpty, let signature = StrictBase64.decode(Substring(signatureText).utf8, alphabet: .standard) else {
            throw StoreProofError.googleSignatureUnreadable
        }
        guard let publicKey = RSAPublicKey(spki: key.der) else {
            throw StoreProofError.googleLicenseKeyUnreadable(reason: "it is not an RSA public key")
        }
        let bytes = [UInt8](json)
        if !publicKey.verifySHA1(signature: signature, message: bytes) {
            // Name the one difference people make most: an editor's or a shell's line ending added or taken away.
            var trimmed = bytes
            while let last = trimmed.last, last == 0x0A || last == 0x0D { trimmed.removeLast() }
            if trimmed.count != bytes.count, publicKey.verifySHA1(signature: signature, message: trimmed) {
                throw StoreProofError.googleTrailingNewline(added: true)
            }
            if publicKey.verifySHA1(signature: signature, message: bytes + [0x0A]) {
                throw StoreProofError.googleTrailingNewline(added: false)
            }
            throw StoreProofError.googleSignatureInvalid
        }
        guard let text = String(data: json, encoding: .utf8) else { throw StoreProofError.googleMalformedJSON(detail: "not UTF-8") }
        let document: JSONValue
        do { document = try JSONValue.parse(json) } catch {
            throw StoreProofError.googleMalformedJSON(detail: String(describing: error))
        }
        guard let fields = document.objectValue else { throw StoreProofError.googleMalformedJSON(detail: "the top level is not an object") }
        func string(_ name: String) throws -> String? {
            switch fields[name] {
            case nil, .null?: return nil
            case .string(let s)?: return s
            default: throw StoreProofError.googleInvalidField(name: name, reason: "expected a string")
            }
        }
        func required(_ name: String) throws -> String {
            guard let s = try string(name), !s.isEmpty else { throw StoreProofError.googleMissingField(name) }
            return s
        }
        let orderId = try required("orderId")
        let packageName = try required("packageName")
        let productId: String
        if let single = try string("productId"), !single.isEmpty {
            productId = single
        } else if let first = fields["productIds"]?.arrayValue?.first?.stringValue, !first.isEmpty {
            productId = first
        } else {
            throw StoreProofError.googleMissingField("productId")
        }
        let token = try required("purchaseToken")
        guard let time = fields["purchaseTime"].flatMap(StoreTimestamp.init(json:)) else {
            throw StoreProofError.googleMissingField("purchaseTime")
        }
        guard case .number(let stateText)? = fields["purchaseState"] else { throw StoreProofError.googleMissingField("purchaseState") }
        let states = ["0": "purchased", "1": "canceled", "2": "pending", "4": "pending"]
        guard let state = states[stateText] else {
            throw StoreProofError.googleInvalidField(name: "purchaseState", reason: "expected 0 (purchased), 1 (canceled) or 2 (pending), found \(stateText)")
        }
        let acknowledged: Bool?
        switch fields["acknowledged"] {
        case .bool(let b)?: acknowledged = b
        case nil, .null?: acknowledged = nil
        default: throw StoreProofError.googleInvalidField(name: "acknowledged", reason: "expected true or false")
        }
        guard packageName == expectedPackage else {
            throw StoreProofError.googlePackageMismatch(expected: expectedPackage, found: packageName)
        }
        guard state == "purchased" else { throw StoreProofError.googleNotPurchased(state: state) }
        return GooglePlaySignedPurchase(
            originalJson: text, signature: signatureText, orderId: orderId, packageName: packageName, productId: productId,
            purchaseTimeMillis: time.millisecondsText, purchaseTime: time.rfc3339, purchaseState: state, purchaseToken: token,
            obfuscatedAccountId: try string("obfuscatedAccountId"), acknowledged: acknowledged, payload: document)
    }

    /// The fields a report or `--json` output shows; leaves out the signed bytes, the signature and the token.
    package var summary: JSONValue {
        var fields: [String: JSONValue] = [
            "orderId": .string(orderId), "packageName": .string(packageName), "bundleId": .string(packageName),
            "productId": .string(productId), "purchaseState": .string(purchaseState),
            "purchaseDate": .string(purchaseTime), "purchaseDateMillis": .string(purchaseTimeMillis),
        ]
        if let obfuscatedAccountId { fields["obfuscatedAccountId"] = .string(obfuscatedAccountId) }
        if let acknowledged { fields["acknowledged"] = .bool(acknowledged) }
        // Play's JSON has no environment; the growcert emulator writes `Emulator` into what it signs.
        if let environment = payload["environment"]?.stringValue { fields["environment"] = .string(environment) }
        return .object(fields)
    }
}
