import CCrypto
import Foundation
import GrowClient
import Testing
import Sandbox

/// Checks the emulator's JWS with OpenSSL directly, independently of the emulator's own code.
@Suite struct StoreSignatureTests {
    private func base64URLDecode(_ text: Substring) -> Data? {
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while standard.count % 4 != 0 { standard += "=" }
        return Data(base64Encoded: standard)
    }

    private func certificate(_ der: Data) -> OpaquePointer? {
        der.withUnsafeBytes { raw in
            var cursor = raw.bindMemory(to: UInt8.self).baseAddress.map { UnsafePointer($0) }
            return d2i_X509(nil, &cursor, raw.count)
        }
    }

    private func commonName(_ name: OpaquePointer?) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        _ = X509_NAME_get_text_by_NID(name, NID_commonName, &buffer, Int32(buffer.count))
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// ES256 verification of a raw `r || s` signature with the certificate's public key.
    private func verify(signature raw: Data, of message: Data, with certificate: OpaquePointer) -> Bool {
        guard raw.count == 64, let key = X509_get0_pubkey(certificate), let signature = ECDSA_SIG_new() else { return false }
        defer { ECDSA_SIG_free(signature) }
        let bytes = [UInt8](raw)
        guard let r = BN_bin2bn(bytes, 32, nil), let s = BN_bin2bn(Array(bytes[32...]), 32, nil),
              ECDSA_SIG_set0(signature, r, s) == 1 else { return false }
        let length = i2d_ECDSA_SIG(signature, nil)
        var der = [UInt8](repeating: 0, count: Int(length))
        _ = der.withUnsafeMutableBufferPointer { buffer in
            var cursor = buffer.baseAddress
            return i2d_ECDSA_SIG(signature, &cursor)
        }
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, key) == 1 else { return false }
        return message.withUnsafeBytes { m in
            EVP_DigestVerify(context, der, der.count, m.bindMemory(to: UInt8.self).baseAddress, m.count)
        } == 1
    }

    private struct Header: Decodable {
        var alg: String
        var typ: String
        var x5c: [String]
    }

    private struct Payload: Decodable {
        var transactionId: String
        var originalTransactionId: String
        var bundleId: String
        var productId: String
        var purchaseDate: Int64
        var signedDate: Int64
        var type: String
        var environment: String
        var storefront: String
        var currency: String
        var appAccountToken: String
        var transactionReason: String
    }

    @Test func emulatedAppleTransactionIsAnES256JWSOverItsOwnSelfSignedCertificate() throws {
        let harness = try Harness(bundleId: "com.groovegrow.demo")
        let token = try harness.issueToken()
        let funnel = try harness.funnel(token: token, steps: [harness.step(.apple, product: "gold_monthly")])
        let purchase = try harness.purchase(funnel.steps[0].orderId)
        let jws = try #require(purchase.signedTransaction)
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
        try #require(parts.count == 3)

        let header = try JSONDecoder().decode(Header.self, from: try #require(base64URLDecode(parts[0])))
        #expect(header.alg == "ES256")
        #expect(header.typ == "JWT")
        #expect(header.x5c == [harness.backend.signingCertificateDER.base64EncodedString()])

        let cert = try #require(certificate(harness.backend.signingCertificateDER))
        defer { X509_free(cert) }
        #expect(commonName(X509_get_subject_name(cert)) == "growcert Sandbox Emulator")
        #expect(commonName(X509_get_issuer_name(cert)) == "growcert Sandbox Emulator")
        #expect(X509_verify(cert, X509_get0_pubkey(cert)) == 1, "the certificate is self-signed")
        #expect(X509_cmp_time(X509_get0_notBefore(cert), nil) < 0)

        let signature = try #require(base64URLDecode(parts[2]))
        #expect(signature.count == 64)
        let signingInput = Data("\(parts[0]).\(parts[1])".utf8)
        #expect(verify(signature: signature, of: signingInput, with: cert))
        var tampered = signature
        tampered[10] ^= 0x01
        #expect(!verify(signature: tampered, of: signingInput, with: cert))

        let payload = try JSONDecoder().decode(Payload.self, from: try #require(base64URLDecode(parts[1])))
        #expect(payload.transactionId == purchase.transactionId)
        #expect(payload.transactionId.hasPrefix("emu-tx-") && !payload.transactionId.allSatisfy { $0.isNumber })
        #expect(payload.originalTransactionId == payload.transactionId)
        #expect(payload.bundleId == "com.groovegrow.demo")
        #expect(payload.productId == "gold_monthly")
        #expect(payload.type == "Auto-Renewable Subscription")
        #expect(payload.environment == "Emulator")
        #expect(payload.storefront == "USA")
        #expect(payload.transactionReason == "PURCHASE")
        #expect(payload.purchaseDate == 1_796_025_600_000)
        #expect(UUID(uuidString: payload.appAccountToken) != nil)
    }

    @Test func emulatorsDoNotAcceptEachOthersSignatures() throws {
        let harness = try Harness()
        let other = try Harness()
        let token = try harness.issueToken()
        let otherToken = try other.issueToken()
        let funnel = try harness.funnel(token: token, steps: [harness.step(.apple)])
        _ = try other.funnel(token: otherToken, steps: [other.step(.apple)])
        let foreign = try other.purchase("o_1")
        _ = try harness.purchase(funnel.steps[0].orderId)
        let submission = GrowWireReceiptSubmission.apple(transactionId: foreign.transactionId ?? "", signedTransaction: foreign.signedTransaction ?? "")
        let result = try decode(GrowWireReceiptResult.self, try harness.post(GrowWire.Path.receipts(funnel.steps[0].orderId), submission, auth: .customer(token)))
        #expect(result.status == "rejected")
    }
}
