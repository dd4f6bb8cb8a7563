import Foundation
import StrictJSON

/// Verifies StoreKit 2 signed transactions (compact JWS, ES256, `x5c` chain) and says what signed them (`AppleSigner`).
///
/// A transaction claiming `Sandbox` or `Production` must carry the chain
/// leaf ← intermediate ← root where the root is byte-for-byte the trusted
/// root given here (Apple Root CA - G3 by default), each certificate valid at
/// the payload's `signedDate`, and Apple's marker extensions on the leaf and
/// intermediate. A single self-signed certificate is accepted only as the
/// StoreKit Testing in Xcode certificate with `environment: "Xcode"`, or the
/// growcert emulator's certificate with `environment: "Emulator"`; neither
/// certifies. Everything else is refused with a `StoreProofError` naming the
/// rule. The verifier never reads the system trust store or today's date.
package struct JWSVerifier: Sendable {
    /// The largest token accepted, in bytes; real StoreKit transactions are 3 to 6 KiB.
    package static let maximumTokenBytes = 64 * 1024
    /// The most `x5c` certificates accepted before any is parsed.
    package static let maximumCertificates = 5

    /// The DER certificate every store chain must end at.
    package let trustedRootDER: Data

    /// A verifier anchored at `trustedRootDER`, by default Apple Root CA - G3.
    ///
    /// Tests pass their own root; production code should keep the default.
    package init(trustedRootDER: Data = AppleRootCA.g3DER) {
        self.trustedRootDER = trustedRootDER
    }

    /// The token in a file's contents: UTF-8 text, surrounding white space (a trailing newline) removed.
    ///
    /// `verify` itself accepts no white space, so a token is verified exactly
    /// as it was exported; use this to read `--jws-file` or standard input.
    package static func token(fromFileContents data: Data) throws -> String {
        guard data.count <= maximumTokenBytes + 4096 else {
            throw StoreProofError.tokenTooLarge(bytes: data.count, limit: maximumTokenBytes)
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw StoreProofError.malformedToken(reason: "the file is not UTF-8 text")
        }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw StoreProofError.malformedToken(reason: "the file is empty") }
        return trimmed
    }

    /// Verifies `jws` and returns what it proves, or throws the `StoreProofError` for the first rule that fails.
    ///
    /// - Parameter expectedBundleId: the app under test; when given, a transaction for another app is refused.
    package func verify(_ jws: String, expectedBundleId: String?) throws -> VerifiedAppleTransaction {
        let envelope = try verifiedEnvelope(jws) { try Self.string($0, "environment") }
        var warnings: [String] = []
        switch envelope.signer {
        case .appStoreProduction:
            warnings.append("environment Production: a real Production purchase in a sandbox campaign; it is recorded but never certifies")
        case .xcode:
            warnings.append("signed by StoreKit Testing in Xcode on a developer's machine; recorded as a fixture, never certifies")
        case .emulator:
            warnings.append("signed by the growcert emulator's own key; recorded as a fixture, never certifies")
        case .appStoreSandbox:
            break
        }
        return try transaction(envelope, warnings: warnings, jws: jws, expectedBundleId: expectedBundleId)
    }

    /// A signed App Store object whose signature, chain and dates verified: its payload's fields, its signer, its
    /// environment and its `signedDate`.
    struct Envelope {
        var fields: [String: JSONValue]
        var signer: AppleSigner
        var environment: AppleEnvironment
        var signedDate: StoreTimestamp
        var chainSubjects: [String]
        var payload: JSONValue
    }

    /// Verifies the JWS itself (shape, ES256 over the leaf's key, the chain to the trusted root with Apple's markers,
    /// validity at the payload's `signedDate`), reading the environment the signer vouches for with `environmentOf`
    /// (a transaction's own `environment`, a notification's `data.environment`). The one home of those rules, for
    /// transactions, renewal infos and App Store Server Notifications alike.
    func verifiedEnvelope(_ jws: String, environmentOf: ([String: JSONValue]) throws -> String?) throws -> Envelope {
        let byteCount = jws.utf8.count
        guard byteCount <= Self.maximumTokenBytes else {
            throw StoreProofError.tokenTooLarge(bytes: byteCount, limit: Self.maximumTokenBytes)
        }
        let segments = jws.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3 else {
            throw StoreProofError.malformedToken(
                reason: segments.count < 3
                    ? "found \(segments.count) of 3 segments; the token looks truncated"
                    : "found \(segments.count) segments, expected 3")
        }
        guard !segments[0].isEmpty else { throw StoreProofError.malformedToken(reason: "the header is empty; the token looks truncated") }
        guard let headerBytes = StrictBase64.decode(segments[0].utf8, alphabet: .url) else {
            throw StoreProofError.malformedBase64(part: "header")
        }
        // The algorithm is judged before anything else, so `alg: none` tokens (empty signature) are named as such.
        let header = try Self.jsonObject(headerBytes, part: "header")
        guard let alg = header["alg"]?.stringValue else {
            throw StoreProofError.unsupportedAlgorithm(header["alg"].map { $0.canonicalText } ?? "")
        }
        guard alg == "ES256" else { throw StoreProofError.unsupportedAlgorithm(alg) }
        guard header["crit"] == nil else { throw StoreProofError.unsupportedCriticalHeader }
        for (index, name) in [(1, "payload"), (2, "signature")] where segments[index].isEmpty {
            throw StoreProofError.malformedToken(reason: "the \(name) is empty; the token looks truncated")
        }
        guard let payloadBytes = StrictBase64.decode(segments[1].utf8, alphabet: .url) else {
            throw StoreProofError.malformedBase64(part: "payload")
        }
        guard let signature = StrictBase64.decode(segments[2].utf8, alphabet: .url) else {
            throw StoreProofError.malformedBase64(part: "signature")
        }
        let certificates = try Self.certificates(header["x5c"])

        let leaf = certificates[0]
        guard leaf.hasP256Key, let leafKey = leaf.publicKey else {
            throw StoreProofError.malformedSignature(reason: "the leaf certificate's key is not an EC P-256 key, so it cannot verify ES256")
        }
        guard signature.count == ES256.signatureLength else {
            throw StoreProofError.malformedSignature(reason: "ES256 signatures are 64 bytes (r‖s); this one is \(signature.count), so the token was truncated or altered")
        }
        let signingInput = Array(segments[0].utf8) + [UInt8(ascii: ".")] + Array(segments[1].utf8)
        guard ES256.verify(signature: signature, message: signingInput, publicKey: leafKey) else {
            throw StoreProofError.signatureInvalid
        }

        let payload = try Self.jsonObject(payloadBytes, part: "payload")
        guard let fields = payload.objectValue else { throw StoreProofError.malformedJSON(part: "payload", detail: "not an object") }
        guard let environmentText = try environmentOf(fields) else { throw StoreProofError.missingField("environment") }
        guard let environment = AppleEnvironment(rawValue: environmentText) else {
            throw StoreProofError.unknownEnvironment(environmentText)
        }
        guard let signedDate = try Self.timestamp(fields, "signedDate") else { throw StoreProofError.missingField("signedDate") }

        let signer: AppleSigner
        if certificates.count == 1 {
            signer = try Self.classifyLocal(certificate: leaf, environment: environment, signedDate: signedDate)
        } else {
            signer = try classifyStoreChain(certificates, environment: environment, signedDate: signedDate)
        }
        return Envelope(fields: fields, signer: signer, environment: environment, signedDate: signedDate,
                        chainSubjects: certificates.map(\.subjectLine), payload: payload)
    }

    /// The transaction in a verified payload's `fields`.
    func transaction(_ envelope: Envelope, warnings: [String], jws: String, expectedBundleId: String?) throws -> VerifiedAppleTransaction {
        var warnings = warnings
        let (fields, signer, environment, signedDate, payload) = (envelope.fields, envelope.signer, envelope.environment, envelope.signedDate, envelope.payload)

        let transactionId = try Self.required(Self.identifier(fields, "transactionId"), "transactionId")
        let bundleId = try Self.required(Self.string(fields, "bundleId"), "bundleId")
        let productId = try Self.required(Self.string(fields, "productId"), "productId")
        if let expectedBundleId, bundleId != expectedBundleId {
            throw StoreProofError.bundleIdMismatch(expected: expectedBundleId, found: bundleId)
        }
        let revocationDate = try Self.timestamp(fields, "revocationDate")
        if let revocationDate {
            warnings.append("the transaction was revoked (refunded) at \(revocationDate.rfc3339)")
        }

        return VerifiedAppleTransaction(
            signer: signer,
            environment: environment,
            transactionId: transactionId,
            originalTransactionId: try Self.identifier(fields, "originalTransactionId"),
            bundleId: bundleId,
            productId: productId,
            type: try Self.string(fields, "type"),
            purchaseDate: try Self.timestamp(fields, "purchaseDate"),
            expiresDate: try Self.timestamp(fields, "expiresDate"),
            signedDate: signedDate,
            storefront: try Self.string(fields, "storefront"),
            price: try Self.number(fields, "price"),
            currency: try Self.string(fields, "currency"),
            revocationDate: revocationDate,
            revocationReason: try Self.number(fields, "revocationReason"),
            appAccountToken: try Self.string(fields, "appAccountToken"),
            chainSubjects: envelope.chainSubjects,
            warnings: warnings,
            jws: jws,
            payload: payload)
    }

    // MARK: Classification

    /// A single self-signed certificate: StoreKit Testing in Xcode or the growcert emulator, never a store.
    private static func classifyLocal(certificate: X509Certificate, environment: AppleEnvironment, signedDate: StoreTimestamp) throws -> AppleSigner {
        guard !environment.requiresStoreChain else {
            throw StoreProofError.selfSignedStoreClaim(environment: environment.rawValue)
        }
        let expected = environment == .xcode ? StoreProofNames.xcodeCommonName : StoreProofNames.emulatorCommonName
        guard certificate.isIssued(by: certificate) else {
            throw StoreProofError.unrecognisedLocalCertificate(
                subject: certificate.subjectLine, environment: environment.rawValue, reason: "it is not self-signed")
        }
        guard certificate.commonName == expected else {
            throw StoreProofError.unrecognisedLocalCertificate(
                subject: certificate.subjectLine, environment: environment.rawValue,
                reason: "environment \(environment.rawValue) must be signed by a certificate named '\(expected)'")
        }
        try checkValidity(certificate, role: "self-signed", at: signedDate)
        return environment == .xcode ? .xcode : .emulator
    }

    /// leaf ← intermediate ← trusted root, marker extensions, validity at `signedDate`, then OpenSSL's path check.
    func classifyStoreChain(_ chain: [X509Certificate], environment: AppleEnvironment, signedDate: StoreTimestamp) throws -> AppleSigner {
        guard environment.requiresStoreChain else {
            throw StoreProofError.localEnvironmentWithStoreChain(environment: environment.rawValue)
        }
        guard chain.count == 3 else { throw StoreProofError.chainLength(count: chain.count) }
        guard let trusted = X509Certificate(der: [UInt8](trustedRootDER)) else { throw StoreProofError.trustedRootUnreadable }
        let (leaf, intermediate, root) = (chain[0], chain[1], chain[2])
        guard root.der == trusted.der else {
            let found = root.subjectLine == trusted.subjectLine
                ? root.subjectLine + " (a different certificate with the same name)" : root.subjectLine
            throw StoreProofError.untrustedRoot(found: found, trusted: trusted.subjectLine)
        }
        guard leaf.isIssued(by: intermediate) else {
            throw StoreProofError.chainBroken(reason: "the leaf \(quoted(leaf.subjectLine)) is not signed by the intermediate \(quoted(intermediate.subjectLine))")
        }
        guard intermediate.isIssued(by: trusted) else {
            throw StoreProofError.chainBroken(reason: "the intermediate \(quoted(intermediate.subjectLine)) is not signed by the root \(quoted(trusted.subjectLine))")
        }
        guard leaf.hasExtension(oid: StoreProofNames.appleLeafMarkerOID) else {
            throw StoreProofError.missingMarkerExtension(certificate: "leaf", oid: StoreProofNames.appleLeafMarkerOID)
        }
        guard intermediate.hasExtension(oid: StoreProofNames.appleIntermediateMarkerOID) else {
            throw StoreProofError.missingMarkerExtension(certificate: "intermediate", oid: StoreProofNames.appleIntermediateMarkerOID)
        }
        try Self.checkValidity(leaf, role: "leaf", at: signedDate)
        try Self.checkValidity(intermediate, role: "intermediate", at: signedDate)
        try Self.checkValidity(trusted, role: "root", at: signedDate)
        if let reason = CertificatePath.validate(leaf: leaf, intermediates: [intermediate], root: trusted, atEpochSeconds: signedDate.epochSeconds) {
            throw StoreProofError.chainValidationFailed(reason: reason)
        }
        return environment == .sandbox ? .appStoreSandbox : .appStoreProduction
    }

    private static func checkValidity(_ certificate: X509Certificate, role: String, at signedDate: StoreTimestamp) throws {
        guard certificate.isValid(atEpochSeconds: signedDate.epochSeconds) else {
            throw StoreProofError.certificateNotValidAtSignedDate(
                certificate: role, subject: certificate.subjectLine, signedDate: signedDate.rfc3339,
                notBefore: certificate.notBeforeText, notAfter: certificate.notAfterText)
        }
    }

    // MARK: Decoding

    static func jsonObject(_ bytes: [UInt8], part: String) throws -> JSONValue {
        let value: JSONValue
        do {
            value = try JSONValue.parse(Data(bytes))
        } catch {
            throw StoreProofError.malformedJSON(part: part, detail: String(describing: error))
        }
        guard value.objectValue != nil else { throw StoreProofError.malformedJSON(part: part, detail: "not an object") }
        return value
    }

    static func certificates(_ x5c: JSONValue?) throws -> [X509Certificate] {
        guard let x5c, !x5c.isNull else { throw StoreProofError.missingCertificateChain }
        guard let entries = x5c.arrayValue else {
            throw StoreProofError.malformedCertificate(index: 0, reason: "x5c is not an array of base64 strings")
        }
        guard !entries.isEmpty else { throw StoreProofError.missingCertificateChain }
        guard entries.count <= maximumCertificates else {
            throw StoreProofError.tooManyCertificates(count: entries.count, limit: maximumCertificates)
        }
        return try entries.enumerated().map { index, entry in
            guard let text = entry.stringValue else {
                throw StoreProofError.malformedCertificate(index: index, reason: "not a base64 string")
            }
            guard let der = StrictBase64.decode(text, alphabet: .standard) else {
                throw StoreProofError.malformedCertificate(index: index, reason: "not valid standard base64")
            }
            guard let certificate = X509Certificate(der: der) else {
                throw StoreProofError.malformedCertificate(index: index, reason: "not a DER X.509 certificate")
            }
            return certificate
        }
    }

    private static func required(_ value: String?, _ name: String) throws -> String {
        guard let value else { throw StoreProofError.missingField(name) }
        guard !value.isEmpty else { throw StoreProofError.invalidField(name: name, reason: "it is empty") }
        return value
    }

    private static func string(_ fields: [String: JSONValue], _ name: String) throws -> String? {
        switch fields[name] {
        case nil, .null?: return nil
        case .string(let s)?: return s
        default: throw StoreProofError.invalidField(name: name, reason: "expected a string")
        }
    }

    /// Identifiers may be written as strings or numbers; a number keeps its literal text.
    private static func identifier(_ fields: [String: JSONValue], _ name: String) throws -> String? {
        switch fields[name] {
        case nil, .null?: return nil
        case .string(let s)?: return s
        case .number(let n)?: return n
        default: throw StoreProofError.invalidField(name: name, reason: "expected a string or a number")
        }
    }

    private static func number(_ fields: [String: JSONValue], _ name: String) throws -> String? {
        switch fields[name] {
        case nil, .null?: return nil
        case .number(let n)?: return n
        default: throw StoreProofError.invalidField(name: name, reason: "expected a number")
        }
    }

    private static func timestamp(_ fields: [String: JSONValue], _ name: String) throws -> StoreTimestamp? {
        guard let value = fields[name], !value.isNull else { return nil }
        guard let timestamp = StoreTimestamp(json: value) else {
            throw StoreProofError.invalidField(name: name, reason: "expected milliseconds since 1970 such as 1697679936049.7297")
        }
        return timestamp
    }
}
