/// Why a store transaction or purchase document was refused.
///
/// Every message names the rule that failed and what to do about it. Messages
/// quote identifiers (bundle ids, product ids, environments) but never purchase
/// tokens or whole payloads.
package enum StoreProofError: Error, CustomStringConvertible, Equatable, Sendable {
    // MARK: Apple JWS shape
    /// The token is larger than the verifier accepts.
    case tokenTooLarge(bytes: Int, limit: Int)
    /// The token is not `header.payload.signature`.
    case malformedToken(reason: String)
    /// A segment is not canonical unpadded base64url; `part` is header, payload or signature.
    case malformedBase64(part: String)
    /// The header or payload is not a JSON object.
    case malformedJSON(part: String, detail: String)
    /// The header's `alg` is not `ES256`.
    case unsupportedAlgorithm(String)
    /// The header names critical extensions growcert does not implement.
    case unsupportedCriticalHeader
    /// The header has no `x5c` certificate chain.
    case missingCertificateChain
    /// The `x5c` chain has more certificates than the verifier accepts.
    case tooManyCertificates(count: Int, limit: Int)
    /// An `x5c` entry is not standard base64 of a DER X.509 certificate.
    case malformedCertificate(index: Int, reason: String)
    /// The signature segment is not a 64-byte ES256 signature or the leaf key is not P-256.
    case malformedSignature(reason: String)

    // MARK: Apple JWS trust
    /// The ES256 signature does not verify with the leaf certificate's public key.
    case signatureInvalid
    /// The chain has the wrong length for a store-signed transaction.
    case chainLength(count: Int)
    /// A certificate in the chain is not issued and signed by the next one.
    case chainBroken(reason: String)
    /// The chain's root is not the trusted root given to the verifier.
    case untrustedRoot(found: String, trusted: String)
    /// A certificate lacks Apple's marker extension.
    case missingMarkerExtension(certificate: String, oid: String)
    /// A certificate was not valid at the transaction's `signedDate`.
    case certificateNotValidAtSignedDate(certificate: String, subject: String, signedDate: String, notBefore: String, notAfter: String)
    /// OpenSSL's path validation refused the chain after the explicit checks passed.
    case chainValidationFailed(reason: String)
    /// The trusted root given to the verifier is not a DER certificate.
    case trustedRootUnreadable
    /// A self-signed certificate claims a store environment.
    case selfSignedStoreClaim(environment: String)
    /// A single certificate is not the expected self-signed Xcode or emulator certificate.
    case unrecognisedLocalCertificate(subject: String, environment: String, reason: String)
    /// A store chain signs a transaction whose environment is a local one.
    case localEnvironmentWithStoreChain(environment: String)

    // MARK: Apple payload
    /// The payload's `environment` is not one of Sandbox, Production, Xcode, Emulator.
    case unknownEnvironment(String)
    /// A required payload field is absent.
    case missingField(String)
    /// A payload field has the wrong type or shape.
    case invalidField(name: String, reason: String)
    /// The payload's `bundleId` differs from the app under test.
    case bundleIdMismatch(expected: String, found: String)

    // MARK: Google Play
    /// The Google Play document is larger than accepted.
    case googleDocumentTooLarge(bytes: Int, limit: Int)
    /// The Google Play document is not JSON.
    case googleMalformedJSON(detail: String)
    /// The Google Play document is not a purchase, subscription or voided purchase.
    case googleUnrecognisedDocument(kind: String?)
    /// A required Google Play field is absent.
    case googleMissingField(String)
    /// A Google Play field has the wrong type or value.
    case googleInvalidField(name: String, reason: String)
    /// The document's product id differs from `--product-id`.
    case googleProductMismatch(expected: String, found: [String])
    /// A voided purchases list with no entries.
    case googleEmptyVoidedList
    /// The license key file is not an RSA public key as Play Console shows it.
    case googleLicenseKeyUnreadable(reason: String)
    /// The signature file is not base64.
    case googleSignatureUnreadable
    /// The signature does not verify over the purchase JSON with the license key.
    case googleSignatureInvalid
    /// The signature verifies only with a line ending added to (`added` false) or taken from (`added` true) the JSON.
    case googleTrailingNewline(added: Bool)
    /// The signed purchase's `packageName` is not the campaign's app id.
    case googlePackageMismatch(expected: String, found: String)
    /// The signed purchase's `purchaseState` is not purchased.
    case googleNotPurchased(state: String)

    /// A one-line English message naming the rule that failed and what to do.
    package var description: String {
        switch self {
        case .tokenTooLarge(let bytes, let limit):
            return "the JWS is \(bytes) bytes, over the \(limit)-byte limit; export only the transaction's jwsRepresentation"
        case .malformedToken(let reason):
            return "the JWS is not a compact token header.payload.signature (\(reason)); export the transaction's jwsRepresentation unchanged"
        case .malformedBase64(let part):
            return "the JWS \(part) is not valid unpadded base64url; the token was altered or truncated"
        case .malformedJSON(let part, let detail):
            return "the JWS \(part) is not a valid JSON object (\(oneLine(detail))); the token was altered or is not a StoreKit transaction"
        case .unsupportedAlgorithm(let alg) where alg.isEmpty:
            return "the JWS header has no alg; only ES256 is accepted, so this token cannot be a store-signed transaction"
        case .unsupportedAlgorithm(let alg):
            return "the JWS header's alg is \(quoted(alg)); only ES256 is accepted, so this token cannot be a store-signed transaction"
        case .unsupportedCriticalHeader:
            return "the JWS header lists critical extensions ('crit') that growcert does not implement; the token is refused"
        case .missingCertificateChain:
            return "the JWS header has no x5c certificate chain; store-signed transactions always carry one"
        case .tooManyCertificates(let count, let limit):
            return "the JWS x5c chain has \(count) certificates, over the limit of \(limit)"
        case .malformedCertificate(let index, let reason):
            return "x5c certificate \(index) is unreadable: \(reason)"
        case .malformedSignature(let reason):
            return "the JWS signature is malformed: \(reason)"
        case .signatureInvalid:
            return "signature does not verify with the leaf certificate's key; the token was altered after signing"
        case .chainLength(let count):
            return "a store-signed chain must be leaf, intermediate, root (3 certificates); this x5c has \(count)"
        case .chainBroken(let reason):
            return "the certificate chain is broken: \(reason)"
        case .untrustedRoot(let found, let trusted):
            return "the certificate chain does not end at the trusted root \(quoted(trusted)); it ends at \(quoted(found))"
        case .missingMarkerExtension(let certificate, let oid):
            return "the \(certificate) certificate lacks Apple's marker extension \(oid); it is not an App Store signing certificate"
        case .certificateNotValidAtSignedDate(let certificate, let subject, let signedDate, let notBefore, let notAfter):
            return "the \(certificate) certificate \(quoted(subject)) is not valid at the transaction's signedDate \(signedDate) (valid from \(notBefore) to \(notAfter))"
        case .chainValidationFailed(let reason):
            return "the certificate chain fails X.509 path validation to the trusted root: \(reason)"
        case .trustedRootUnreadable:
            return "the trusted root certificate given to the verifier is not a DER X.509 certificate"
        case .selfSignedStoreClaim(let environment):
            return "a self-signed certificate cannot vouch for environment \(quoted(environment)); only a chain to the trusted root can"
        case .unrecognisedLocalCertificate(let subject, let environment, let reason):
            return "the single certificate \(quoted(subject)) does not match environment \(quoted(environment)): \(reason)"
        case .localEnvironmentWithStoreChain(let environment):
            return "environment \(quoted(environment)) must be signed by a single self-signed local certificate, not a certificate chain"
        case .unknownEnvironment(let environment):
            return "environment \(quoted(environment)) is not one of Sandbox, Production, Xcode, Emulator"
        case .missingField(let name):
            return "the signed transaction has no '\(name)' field"
        case .invalidField(let name, let reason):
            return "the signed transaction's '\(name)' field is invalid: \(reason)"
        case .bundleIdMismatch(let expected, let found):
            return "the transaction's bundleId \(quoted(found)) differs from the expected app id \(quoted(expected)); export a transaction from the app under test"
        case .googleDocumentTooLarge(let bytes, let limit):
            return "the Google Play purchase file is \(bytes) bytes, over the \(limit)-byte limit; save only the API response"
        case .googleMalformedJSON(let detail):
            return "the Google Play purchase file is not valid JSON (\(oneLine(detail))); save the Play Developer API response unchanged"
        case .googleUnrecognisedDocument(let kind):
            let what = kind.map { "kind \(quoted($0))" } ?? "a document without a recognisable kind"
            return "the Google Play purchase file is \(what); expected a purchases.products.get, purchases.subscriptionsv2.get or voidedpurchases.list response"
        case .googleMissingField(let name):
            return "the Google Play purchase has no '\(name)' field"
        case .googleInvalidField(let name, let reason):
            return "the Google Play purchase's '\(name)' field is invalid: \(reason)"
        case .googleProductMismatch(let expected, let found):
            let list = found.map { quoted($0) }.joined(separator: ", ")
            return "the Google Play purchase is for product \(list), not \(quoted(expected)), the product it was named for"
        case .googleEmptyVoidedList:
            return "the voidedPurchases list is empty; there is no refund to record"
        case .googleLicenseKeyUnreadable(let reason):
            return "the Play license key is unreadable: \(reason)"
        case .googleSignatureUnreadable:
            return "the Google Play signature file is not base64; save Purchase.getSignature() unchanged"
        case .googleSignatureInvalid:
            return "the Google Play signature does not verify over the purchase JSON with the campaign's Play license key (RSASSA-PKCS1-v1_5, SHA-1): the JSON was changed, or another app's key signed it"
        case .googleTrailingNewline(let added):
            return added
                ? "the Google Play signature verifies only without the line ending at the end of the purchase JSON: a trailing newline is not the signed bytes; save Purchase.getOriginalJson() exactly, with no newline added"
                : "the Google Play signature verifies only with a line ending after the purchase JSON: the signed bytes end in a newline that the file lacks; save Purchase.getOriginalJson() exactly"
        case .googlePackageMismatch(let expected, let found):
            return "the signed purchase's packageName \(quoted(found)) differs from the campaign's app id \(quoted(expected)); record a purchase from the app under test"
        case .googleNotPurchased(let state):
            return "the signed purchase's purchaseState is \(state), not purchased; record the purchase once Google Play reports it purchased"
        }
    }
}

/// Quotes a value for an error message: single quotes, control characters escaped, values over 200 characters cut.
func quoted(_ value: String) -> String {
    "'" + oneLine(value, escapingQuotes: true) + "'"
}

/// Text from the input made safe for a one-line message: control characters escaped, at most `limit` characters.
func oneLine(_ value: String, escapingQuotes: Bool = false, limit: Int = 200) -> String {
    var out = ""
    var count = 0
    for scalar in value.unicodeScalars {
        if count == limit {
            out += "…"
            break
        }
        if escapingQuotes && (scalar == "'" || scalar == "\\") {
            out += "\\" + String(scalar)
        } else if scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value) || scalar == "\u{2028}" || scalar == "\u{2029}" {
            out += "\\u{\(String(scalar.value, radix: 16))}"
        } else {
            out.unicodeScalars.append(scalar)
        }
        count += 1
    }
    return out
}
