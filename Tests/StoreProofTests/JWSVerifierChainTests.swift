import Foundation
import Testing

@testable import StoreProof

/// Chains generated in the test, anchored at a test root injected in place of Apple's.
@Suite struct JWSVerifierChainTests {
    let chain: TestPKI.Chain
    let verifier: JWSVerifier

    init() throws {
        chain = try TestPKI.chain()
        verifier = JWSVerifier(trustedRootDER: Data(chain.root.certificateDER))
    }

    func token(environment: String = "Sandbox", chain: TestPKI.Chain? = nil, signedDate: String = "1718000000000.25", bundleId: String = "com.example.birds", extra: String = "") throws -> String {
        let chain = chain ?? self.chain
        return try TestPKI.sign(
            header: TestPKI.header(x5c: chain.x5c),
            payload: TestPKI.payload(environment: environment, signedDate: signedDate, bundleId: bundleId, extra: extra),
            signer: chain.leaf)
    }

    func refusal(_ jws: String, verifier: JWSVerifier? = nil, expectedBundleId: String? = "com.example.birds") -> StoreProofError? {
        do {
            _ = try (verifier ?? self.verifier).verify(jws, expectedBundleId: expectedBundleId)
            return nil
        } catch let error as StoreProofError {
            return error
        } catch {
            return nil
        }
    }

    // MARK: Accepted

    @Test func aSandboxTransactionChainedToTheTrustedRootIsStoreSignedSandbox() throws {
        let jws = try token()
        let transaction = try verifier.verify(jws, expectedBundleId: "com.example.birds")
        #expect(transaction.signer == .appStoreSandbox)
        #expect(transaction.environment == .sandbox)
        #expect(transaction.transactionId == "2000000123456789")
        #expect(transaction.originalTransactionId == "2000000123456789")
        #expect(transaction.productId == "com.example.birds.pass")
        #expect(transaction.type == "Consumable")
        #expect(transaction.price == "1990")
        #expect(transaction.currency == "USD")
        #expect(transaction.storefront == "USA")
        #expect(transaction.appAccountToken == "7e3fb20b-4cdb-47cc-936d-99d65f608138")
        #expect(transaction.purchaseDate?.rfc3339 == "2024-06-10T06:13:19.0005Z")
        #expect(transaction.signedDate.millisecondsText == "1718000000000.25")
        #expect(transaction.revocationDate == nil)
        #expect(transaction.warnings.isEmpty)
        #expect(transaction.jws == jws)
        #expect(transaction.chainSubjects == [
            "CN=growcert Test Receipt Signing, O=growcert tests",
            "CN=growcert Test WWDR, O=growcert tests",
            "CN=growcert Test Root CA, O=growcert tests",
        ])
    }

    @Test func aProductionTransactionIsStoreSignedProductionWithAWarning() throws {
        let transaction = try verifier.verify(try token(environment: "Production"), expectedBundleId: nil)
        #expect(transaction.signer == .appStoreProduction)
        #expect(transaction.warnings == ["environment Production: a real Production purchase in a sandbox campaign; it is recorded but never certifies"])
    }

    @Test func aLeafValidAtSignedDateButExpiredTodayIsAccepted() throws {
        let expiredLeaf = try TestPKI.chain(leafNotBefore: TestPKI.y2020, leafNotAfter: TestPKI.y2021, root: chain.root)
        let transaction = try verifier.verify(try token(chain: expiredLeaf, signedDate: "1590969600000"), expectedBundleId: nil)
        #expect(transaction.signer == .appStoreSandbox)
        #expect(transaction.signedDate.rfc3339 == "2020-06-01T00:00:00.000Z")
    }

    @Test func aRevokedTransactionIsAcceptedWithItsRevocationRecorded() throws {
        let transaction = try verifier.verify(try token(extra: ",\"revocationDate\":1718100000000,\"revocationReason\":0"), expectedBundleId: nil)
        #expect(transaction.revocationDate?.rfc3339 == "2024-06-11T10:00:00.000Z")
        #expect(transaction.revocationReason == "0")
        #expect(transaction.warnings == ["the transaction was revoked (refunded) at 2024-06-11T10:00:00.000Z"])
    }

    @Test func numericIdentifiersKeepTheirLiteralText() throws {
        let payload = #"{"transactionId":20000001234567891234,"bundleId":"b","productId":"p","signedDate":1718000000000,"environment":"Sandbox"}"#
        let jws = try TestPKI.sign(header: TestPKI.header(x5c: chain.x5c), payload: payload, signer: chain.leaf)
        #expect(try verifier.verify(jws, expectedBundleId: nil).transactionId == "20000001234567891234")
    }

    @Test func theEmulatorsSelfSignedCertificateIsEmulatorSigned() throws {
        let emulator = try TestPKI.issue(commonName: StoreProofNames.emulatorCommonName, issuer: nil, ca: false, markerOIDs: [])
        let jws = try TestPKI.sign(
            header: TestPKI.header(x5c: [emulator.certificateBase64]),
            payload: TestPKI.payload(environment: StoreProofNames.emulatorEnvironment), signer: emulator)
        let transaction = try verifier.verify(jws, expectedBundleId: "com.example.birds")
        #expect(transaction.signer == .emulator)
        #expect(transaction.environment == .emulator)
        #expect(transaction.chainSubjects == ["CN=growcert Sandbox Emulator, O=growcert tests"])
        #expect(transaction.warnings == ["signed by the growcert emulator's own key; recorded as a fixture, never certifies"])
    }

    @Test func theTrustedRootDefaultsToApple() {
        #expect(JWSVerifier().trustedRootDER == AppleRootCA.g3DER)
    }

    @Test func aTokenReadFromAFileLosesOnlyItsSurroundingWhiteSpace() throws {
        let jws = try token()
        #expect(try JWSVerifier.token(fromFileContents: Data((jws + "\n").utf8)) == jws)
        #expect(throws: StoreProofError.malformedToken(reason: "the file is empty")) { try JWSVerifier.token(fromFileContents: Data("\n".utf8)) }
        #expect(refusal(jws + "\n") == .malformedBase64(part: "signature"))
    }

    // MARK: Refused: trust

    @Test func aChainEndingAtAnotherRootIsRefused() throws {
        let other = try TestPKI.chain()
        let error = refusal(try token(chain: other))
        #expect(error == .untrustedRoot(
            found: "CN=growcert Test Root CA, O=growcert tests (a different certificate with the same name)",
            trusted: "CN=growcert Test Root CA, O=growcert tests"))
        #expect(error?.description.hasPrefix("the certificate chain does not end at the trusted root 'CN=growcert Test Root CA, O=growcert tests'") == true)
    }

    @Test func theAppleRootRefusesATestChain() throws {
        let error = refusal(try token(), verifier: JWSVerifier())
        #expect(error == .untrustedRoot(found: "CN=growcert Test Root CA, O=growcert tests", trusted: "CN=Apple Root CA - G3, OU=Apple Certification Authority, O=Apple Inc., C=US"))
    }

    @Test func anIntermediateFromAnotherRootBehindTheTrustedRootIsRefused() throws {
        let other = try TestPKI.chain()
        let spliced = TestPKI.Chain(root: chain.root, intermediate: other.intermediate, leaf: other.leaf)
        let error = refusal(try token(chain: spliced))
        #expect(error == .chainBroken(reason: "the intermediate 'CN=growcert Test WWDR, O=growcert tests' is not signed by the root 'CN=growcert Test Root CA, O=growcert tests'"))
    }

    @Test func aLeafWithoutAppleReceiptSigningMarkerIsRefused() throws {
        let error = refusal(try token(chain: try TestPKI.chain(leafOIDs: [], root: chain.root)))
        #expect(error == .missingMarkerExtension(certificate: "leaf", oid: "1.2.840.113635.100.6.11.1"))
        #expect(error?.description == "the leaf certificate lacks Apple's marker extension 1.2.840.113635.100.6.11.1; it is not an App Store signing certificate")
    }

    @Test func anIntermediateWithoutAppleWWDRMarkerIsRefused() throws {
        let error = refusal(try token(chain: try TestPKI.chain(intermediateOIDs: [], root: chain.root)))
        #expect(error == .missingMarkerExtension(certificate: "intermediate", oid: "1.2.840.113635.100.6.2.1"))
    }

    @Test func aLeafExpiredBeforeSignedDateIsRefused() throws {
        let expired = try TestPKI.chain(leafNotBefore: TestPKI.y2020, leafNotAfter: TestPKI.y2021, root: chain.root)
        let error = refusal(try token(chain: expired, signedDate: "1640995200000"))
        #expect(error == .certificateNotValidAtSignedDate(
            certificate: "leaf", subject: "CN=growcert Test Receipt Signing, O=growcert tests", signedDate: "2022-01-01T00:00:00.000Z",
            notBefore: "2020-01-01T00:00:00Z", notAfter: "2021-01-01T00:00:00Z"))
        #expect(error?.description == "the leaf certificate 'CN=growcert Test Receipt Signing, O=growcert tests' is not valid at the transaction's signedDate 2022-01-01T00:00:00.000Z (valid from 2020-01-01T00:00:00Z to 2021-01-01T00:00:00Z)")
    }

    @Test func aLeafNotYetValidAtSignedDateIsRefused() throws {
        let future = try TestPKI.chain(leafNotBefore: TestPKI.y2024, leafNotAfter: TestPKI.y2030, root: chain.root)
        guard case .certificateNotValidAtSignedDate(let which, _, _, _, _)? = refusal(try token(chain: future, signedDate: "1640995200000")) else {
            Issue.record("expected a validity refusal")
            return
        }
        #expect(which == "leaf")
    }

    @Test func anIntermediateThatIsNotACertificateAuthorityFailsPathValidation() throws {
        let intermediate = try TestPKI.issue(commonName: "growcert Test WWDR", issuer: chain.root, ca: false, markerOIDs: ["1.2.840.113635.100.6.2.1"], serial: 7)
        let leaf = try TestPKI.issue(commonName: "growcert Test Receipt Signing", issuer: intermediate, ca: false, markerOIDs: ["1.2.840.113635.100.6.11.1"], serial: 8)
        let error = refusal(try token(chain: TestPKI.Chain(root: chain.root, intermediate: intermediate, leaf: leaf)))
        #expect(error == .chainValidationFailed(reason: "invalid CA certificate"))
    }

    @Test func aChainOfTwoIsRefused() throws {
        let jws = try TestPKI.sign(
            header: TestPKI.header(x5c: [chain.leaf.certificateBase64, chain.intermediate.certificateBase64]),
            payload: TestPKI.payload(environment: "Sandbox"), signer: chain.leaf)
        #expect(refusal(jws) == .chainLength(count: 2))
    }

    @Test func aSelfSignedCertificateClaimingSandboxIsRefused() throws {
        let emulator = try TestPKI.issue(commonName: StoreProofNames.emulatorCommonName, issuer: nil, ca: false, markerOIDs: [])
        for environment in ["Sandbox", "Production"] {
            let jws = try TestPKI.sign(header: TestPKI.header(x5c: [emulator.certificateBase64]), payload: TestPKI.payload(environment: environment), signer: emulator)
            #expect(refusal(jws) == .selfSignedStoreClaim(environment: environment))
        }
        #expect(StoreProofError.selfSignedStoreClaim(environment: "Sandbox").description
            == "a self-signed certificate cannot vouch for environment 'Sandbox'; only a chain to the trusted root can")
    }

    @Test func theTrustedRootAloneCannotVouchForSandbox() throws {
        let jws = try TestPKI.sign(header: TestPKI.header(x5c: [chain.root.certificateBase64]), payload: TestPKI.payload(environment: "Sandbox"), signer: chain.root)
        #expect(refusal(jws) == .selfSignedStoreClaim(environment: "Sandbox"))
    }

    @Test func aSelfSignedCertificateWithTheWrongNameForItsEnvironmentIsRefused() throws {
        let xcodeNamed = try TestPKI.issue(commonName: StoreProofNames.xcodeCommonName, issuer: nil, ca: false, markerOIDs: [])
        let jws = try TestPKI.sign(header: TestPKI.header(x5c: [xcodeNamed.certificateBase64]), payload: TestPKI.payload(environment: "Emulator"), signer: xcodeNamed)
        #expect(refusal(jws) == .unrecognisedLocalCertificate(
            subject: "CN=StoreKit Testing in Xcode, O=growcert tests", environment: "Emulator",
            reason: "environment Emulator must be signed by a certificate named 'growcert Sandbox Emulator'"))
    }

    @Test func aCertificateNameWithALineBreakCannotBreakTheMessage() throws {
        let hostile = try TestPKI.issue(commonName: "evil\nCERTIFIED", issuer: nil, ca: false, markerOIDs: [])
        let jws = try TestPKI.sign(header: TestPKI.header(x5c: [hostile.certificateBase64]), payload: TestPKI.payload(environment: "Emulator"), signer: hostile)
        let message = try #require(refusal(jws)).description
        #expect(message.contains("\n") == false)
        #expect(message.hasPrefix("the single certificate 'CN=evil\\\\0ACERTIFIED, O=growcert tests' does not match environment 'Emulator'"))
    }

    @Test func aLocalEnvironmentSignedByAStoreChainIsRefused() throws {
        #expect(refusal(try token(environment: "Xcode")) == .localEnvironmentWithStoreChain(environment: "Xcode"))
    }

    @Test func anUnknownEnvironmentIsRefused() throws {
        let error = refusal(try token(environment: "LocalTesting"))
        #expect(error == .unknownEnvironment("LocalTesting"))
        #expect(error?.description == "environment 'LocalTesting' is not one of Sandbox, Production, Xcode, Emulator")
    }

    @Test func aBundleIdMismatchIsRefused() throws {
        #expect(refusal(try token(bundleId: "com.example.other")) == .bundleIdMismatch(expected: "com.example.birds", found: "com.example.other"))
    }

    // MARK: Refused: signature and shape

    @Test func aTamperedPayloadIsRefused() throws {
        let parts = try token().split(separator: ".").map(String.init)
        let forged = TestPKI.base64URL(Array(TestPKI.payload(environment: "Sandbox", bundleId: "com.example.birds", extra: ",\"price\":1").utf8))
        let error = refusal(parts[0] + "." + forged + "." + parts[2])
        #expect(error == .signatureInvalid)
        #expect(error?.description == "signature does not verify with the leaf certificate's key; the token was altered after signing")
    }

    @Test func aTamperedSignatureIsRefused() throws {
        var parts = try token().split(separator: ".").map(String.init)
        var signature = [UInt8](parts[2].utf8)
        signature[10] = signature[10] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        parts[2] = String(decoding: signature, as: UTF8.self)
        #expect(refusal(parts.joined(separator: ".")) == .signatureInvalid)
    }

    @Test func aTokenSignedByTheIntermediateInsteadOfTheLeafIsRefused() throws {
        let jws = try TestPKI.sign(header: TestPKI.header(x5c: chain.x5c), payload: TestPKI.payload(environment: "Sandbox"), signer: chain.intermediate)
        #expect(refusal(jws) == .signatureInvalid)
    }

    @Test func algNoneIsRefused() throws {
        let jws = TestPKI.base64URL(Array(TestPKI.header(x5c: chain.x5c, alg: "none").utf8)) + "."
            + TestPKI.base64URL(Array(TestPKI.payload(environment: "Sandbox").utf8)) + "."
        let error = refusal(jws)
        #expect(error == .unsupportedAlgorithm("none"))
        #expect(error?.description == "the JWS header's alg is 'none'; only ES256 is accepted, so this token cannot be a store-signed transaction")
    }

    @Test func algHS256IsRefused() throws {
        let jws = try TestPKI.sign(header: TestPKI.header(x5c: chain.x5c, alg: "HS256"), payload: TestPKI.payload(environment: "Sandbox"), signer: chain.leaf)
        #expect(refusal(jws) == .unsupportedAlgorithm("HS256"))
    }

    @Test func aHeaderWithoutAlgIsRefused() throws {
        let jws = try TestPKI.sign(header: "{\"x5c\":[]}", payload: TestPKI.payload(environment: "Sandbox"), signer: chain.leaf)
        #expect(refusal(jws)?.description == "the JWS header has no alg; only ES256 is accepted, so this token cannot be a store-signed transaction")
    }

    @Test func aMissingX5cIsRefused() throws {
        let jws = try TestPKI.sign(header: "{\"alg\":\"ES256\"}", payload: TestPKI.payload(environment: "Sandbox"), signer: chain.leaf)
        let error = refusal(jws)
        #expect(error == .missingCertificateChain)
        #expect(error?.description == "the JWS header has no x5c certificate chain; store-signed transactions always carry one")
    }

    @Test func moreThanFiveCertificatesAreRefusedBeforeParsing() throws {
        let jws = try TestPKI.sign(header: TestPKI.header(x5c: Array(repeating: "AAAA", count: 6)), payload: TestPKI.payload(environment: "Sandbox"), signer: chain.leaf)
        #expect(refusal(jws) == .tooManyCertificates(count: 6, limit: 5))
    }

    @Test func anX5cEntryThatIsNotACertificateIsRefused() throws {
        let jws = try TestPKI.sign(header: TestPKI.header(x5c: ["AAAA"]), payload: TestPKI.payload(environment: "Sandbox"), signer: chain.leaf)
        #expect(refusal(jws) == .malformedCertificate(index: 0, reason: "not a DER X.509 certificate"))
    }

    @Test func aTruncatedTokenIsRefused() throws {
        let jws = try token()
        let cutInPayload = String(jws.prefix(jws.firstIndex(of: ".").map { jws.distance(from: jws.startIndex, to: $0) + 20 } ?? 0))
        let error = refusal(cutInPayload)
        #expect(error == .malformedToken(reason: "found 2 of 3 segments; the token looks truncated"))
        #expect(error?.description == "the JWS is not a compact token header.payload.signature (found 2 of 3 segments; the token looks truncated); export the transaction's jwsRepresentation unchanged")
        #expect(refusal(String(jws.dropLast(10))) == .malformedSignature(reason: "ES256 signatures are 64 bytes (r‖s); this one is 57, so the token was truncated or altered"))
        #expect(refusal(String(jws[..<(jws.lastIndex(of: ".") ?? jws.endIndex)]) + ".") == .malformedToken(reason: "the signature is empty; the token looks truncated"))
        #expect(refusal("") == .malformedToken(reason: "found 1 of 3 segments; the token looks truncated"))
    }

    @Test func malformedBase64IsRefusedNamingTheSegment() throws {
        let parts = try token().split(separator: ".").map(String.init)
        #expect(refusal("*" + parts[0] + "." + parts[1] + "." + parts[2]) == .malformedBase64(part: "header"))
        #expect(refusal(parts[0] + "." + parts[1] + "*." + parts[2]) == .malformedBase64(part: "payload"))
        #expect(refusal(parts[0] + "." + parts[1] + "." + parts[2] + "==") == .malformedBase64(part: "signature"))
        #expect(StoreProofError.malformedBase64(part: "payload").description == "the JWS payload is not valid unpadded base64url; the token was altered or truncated")
    }

    @Test func nonCanonicalBase64WithStrayTrailingBitsIsRefused() throws {
        var parts = try token().split(separator: ".").map(String.init)
        // 64 bytes take 86 characters; the last carries 4 unused bits, which must be zero. Setting one of them
        // leaves the decoded bytes unchanged for a lenient decoder, so only strictness refuses the new spelling.
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var signature = [UInt8](parts[2].utf8)
        let index = try #require(alphabet.firstIndex(of: signature[signature.count - 1]))
        #expect(index & 0x0F == 0)
        signature[signature.count - 1] = alphabet[index | 1]
        parts[2] = String(decoding: signature, as: UTF8.self)
        #expect(refusal(parts.joined(separator: ".")) == .malformedBase64(part: "signature"))
    }

    @Test func malformedJSONIsRefused() throws {
        let jws = try TestPKI.sign(header: "{\"alg\":\"ES256\",", payload: TestPKI.payload(environment: "Sandbox"), signer: chain.leaf)
        guard case .malformedJSON(let part, _)? = refusal(jws) else {
            Issue.record("expected a JSON refusal")
            return
        }
        #expect(part == "header")
        let notObject = try TestPKI.sign(header: TestPKI.header(x5c: chain.x5c), payload: "[1]", signer: chain.leaf)
        #expect(refusal(notObject) == .malformedJSON(part: "payload", detail: "not an object"))
    }

    @Test func anOversizedTokenIsRefusedBeforeDecoding() {
        let huge = String(repeating: "A", count: JWSVerifier.maximumTokenBytes + 1)
        #expect(refusal(huge) == .tokenTooLarge(bytes: 65537, limit: 65536))
    }

    @Test func aMissingSignedDateOrTransactionIdIsRefused() throws {
        let noDate = try TestPKI.sign(header: TestPKI.header(x5c: chain.x5c), payload: #"{"environment":"Sandbox","transactionId":"1","bundleId":"com.example.birds","productId":"p"}"#, signer: chain.leaf)
        #expect(refusal(noDate) == .missingField("signedDate"))
        let noId = try TestPKI.sign(header: TestPKI.header(x5c: chain.x5c), payload: #"{"environment":"Sandbox","signedDate":1718000000000,"bundleId":"com.example.birds","productId":"p"}"#, signer: chain.leaf)
        #expect(refusal(noId) == .missingField("transactionId"))
        let emptyProduct = try TestPKI.sign(header: TestPKI.header(x5c: chain.x5c), payload: #"{"environment":"Sandbox","signedDate":1718000000000,"transactionId":"1","bundleId":"com.example.birds","productId":""}"#, signer: chain.leaf)
        #expect(refusal(emptyProduct) == .invalidField(name: "productId", reason: "it is empty"))
        let badDate = try TestPKI.sign(header: TestPKI.header(x5c: chain.x5c), payload: #"{"environment":"Sandbox","signedDate":-5,"transactionId":"1","bundleId":"com.example.birds","productId":"p"}"#, signer: chain.leaf)
        #expect(refusal(badDate) == .invalidField(name: "signedDate", reason: "expected milliseconds since 1970 such as 1697679936049.7297"))
    }
}
