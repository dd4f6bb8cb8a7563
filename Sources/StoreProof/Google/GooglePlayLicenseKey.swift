import Foundation

/// An app's Google Play license key: the RSA public key Play Console shows under Monetize › Licensing, with which
/// Google Play signs the purchases it returns to the app (`Purchase.getOriginalJson()` and `getSignature()`).
///
/// Read from what Play Console shows, base64 of the DER X.509 SubjectPublicKeyInfo on one line, or from a PEM
/// `PUBLIC KEY` block. Kept as its canonical base64 (`base64`); people compare it by its fingerprint (the evidence
/// store's `Campaign.playLicenseKeyFingerprint`, the one home of that rule).
package struct GooglePlayLicenseKey: Sendable, Equatable {
    /// The DER SubjectPublicKeyInfo.
    package let der: [UInt8]

    /// The largest key file accepted, in bytes.
    package static let maximumBytes = 16 * 1024

    /// The key in `contents`: base64 of a DER SubjectPublicKeyInfo (surrounding whitespace ignored), or a PEM
    /// `-----BEGIN PUBLIC KEY-----` block. Throws `StoreProofError.googleLicenseKeyUnreadable` otherwise.
    package init(fileContents contents: Data) throws {
        guard contents.count <= Self.maximumBytes else {
            throw StoreProofError.googleLicenseKeyUnreadable(reason: "the file is \(contents.count) bytes, over the \(Self.maximumBytes)-byte limit")
        }
        guard let text = String(data: contents, encoding: .utf8) else {
            throw StoreProofError.googleLicenseKeyUnreadable(reason: "the file is not UTF-8 text")
        }
        var body = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let begin = "-----BEGIN PUBLIC KEY-----", end = "-----END PUBLIC KEY-----"
        if body.hasPrefix("-----BEGIN") {
            guard body.hasPrefix(begin), body.hasSuffix(end), body.count > begin.count + end.count else {
                throw StoreProofError.googleLicenseKeyUnreadable(reason: "a PEM file must hold one '\(begin)' block")
            }
            body = String(body.dropFirst(begin.count).dropLast(end.count))
            body = String(body.unicodeScalars.filter { !CharacterSet.whitespacesAndNewlines.contains($0) })
        }
        guard !body.isEmpty, let der = StrictBase64.decode(Substring(body).utf8, alphabet: .standard) else {
            throw StoreProofError.googleLicenseKeyUnreadable(reason: "it is not base64 (copy the key from Play Console › Monetize › Licensing as shown)")
        }
        try self.init(der: der)
    }

    /// The key in a DER SubjectPublicKeyInfo; throws when it is not an RSA public key.
    package init(der: [UInt8]) throws {
        guard RSAPublicKey(spki: der) != nil else {
            throw StoreProofError.googleLicenseKeyUnreadable(reason: "it is not an RSA public key (X.509 SubjectPublicKeyInfo) of at least 1024 bits")
        }
        self.der = der
    }

    /// The canonical base64 of the DER, as Play Console shows it: what a campaign records.
    package var base64: String { Data(der).base64EncodedString() }
}
