import CCrypto
import Foundation

/// A certificate and its private key, both DER, so tests can share them across tasks.
struct TestIdentity: Sendable {
    let certificateDER: [UInt8]
    let privateKeyDER: [UInt8]

    var certificateBase64: String { Data(certificateDER).base64EncodedString() }
}

/// Builds throwaway P-256 certificate chains and ES256 tokens with libcrypto, entirely in memory.
///
/// Dates are fixed instants, never today's date, so the tests mean the same
/// thing in any year.
enum TestPKI {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// 2020-01-01T00:00:00Z and friends.
    static let y2020: Int64 = 1_577_836_800
    static let y2021: Int64 = 1_609_459_200
    static let y2022: Int64 = 1_640_995_200
    static let y2024: Int64 = 1_704_067_200
    static let y2030: Int64 = 1_893_456_000

    /// A self-signed CA certificate.
    static func root(commonName: String = "growcert Test Root CA", notBefore: Int64 = y2020, notAfter: Int64 = y2030) throws -> TestIdentity {
        try issue(commonName: commonName, issuer: nil, ca: true, markerOIDs: [], notBefore: notBefore, notAfter: notAfter)
    }

    /// A certificate for `commonName` signed by `issuer` (self-signed when `issuer` is nil).
    static func issue(
        commonName: String, issuer: TestIdentity?, ca: Bool, markerOIDs: [String],
        notBefore: Int64 = y2020, notAfter: Int64 = y2030, serial: Int = 1
    ) throws -> TestIdentity {
        let key = try generateKey()
        defer { EVP_PKEY_free(key) }
        guard let certificate = X509_new() else { throw Failure(description: "X509_new") }
        defer { X509_free(certificate) }
        X509_set_version(certificate, 2)
        ASN1_INTEGER_set(X509_get_serialNumber(certificate), serial)
        ASN1_TIME_set(X509_getm_notBefore(certificate), time_t(notBefore))
        ASN1_TIME_set(X509_getm_notAfter(certificate), time_t(notAfter))
        guard let name = X509_NAME_new() else { throw Failure(description: "X509_NAME_new") }
        defer { X509_NAME_free(name) }
        X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, commonName, -1, -1, 0)
        X509_NAME_add_entry_by_txt(name, "O", MBSTRING_ASC, "growcert tests", -1, -1, 0)
        X509_set_subject_name(certificate, name)
        X509_set_pubkey(certificate, key)

        var issuerCertificate: OpaquePointer?
        var issuerKey: OpaquePointer? = key
        if let issuer {
            issuerCertificate = try parseCertificate(issuer.certificateDER)
            issuerKey = try loadKey(issuer.privateKeyDER)
        }
        defer {
            if let issuerCertificate { X509_free(issuerCertificate) }
            if issuer != nil, let issuerKey { EVP_PKEY_free(issuerKey) }
        }
        X509_set_issuer_name(certificate, issuerCertificate.map { X509_get_subject_name($0) } ?? name)

        var context = X509V3_CTX()
        X509V3_set_ctx(&context, issuerCertificate ?? certificate, certificate, nil, nil, 0)
        try addExtension(certificate, &context, NID_basic_constraints, ca ? "critical,CA:TRUE" : "critical,CA:FALSE")
        try addExtension(certificate, &context, NID_key_usage, ca ? "critical,keyCertSign,cRLSign" : "critical,digitalSignature")
        for oid in markerOIDs {
            guard let object = OBJ_txt2obj(oid, 1), let value = ASN1_OCTET_STRING_new() else { throw Failure(description: "OID \(oid)") }
            defer {
                ASN1_OBJECT_free(object)
                ASN1_OCTET_STRING_free(value)
            }
            let derNull: [UInt8] = [0x05, 0x00]
            ASN1_OCTET_STRING_set(value, derNull, 2)
            guard let ext = X509_EXTENSION_create_by_OBJ(nil, object, 0, value) else { throw Failure(description: "extension \(oid)") }
            defer { X509_EXTENSION_free(ext) }
            X509_add_ext(certificate, ext, -1)
        }
        guard X509_sign(certificate, issuerKey, EVP_sha256()) > 0 else { throw Failure(description: "X509_sign") }
        return TestIdentity(certificateDER: try certificateDER(certificate), privateKeyDER: try privateKeyDER(key))
    }

    /// A valid Apple-shaped chain: root, intermediate with the WWDR marker, leaf with the receipt-signing marker.
    struct Chain: Sendable {
        let root: TestIdentity
        let intermediate: TestIdentity
        let leaf: TestIdentity

        var x5c: [String] { [leaf.certificateBase64, intermediate.certificateBase64, root.certificateBase64] }
    }

    static func chain(
        leafOIDs: [String] = ["1.2.840.113635.100.6.11.1"], intermediateOIDs: [String] = ["1.2.840.113635.100.6.2.1"],
        leafNotBefore: Int64 = y2020, leafNotAfter: Int64 = y2030, root: TestIdentity? = nil
    ) throws -> Chain {
        let root = try root ?? self.root()
        let intermediate = try issue(commonName: "growcert Test WWDR", issuer: root, ca: true, markerOIDs: intermediateOIDs, serial: 2)
        let leaf = try issue(
            commonName: "growcert Test Receipt Signing", issuer: intermediate, ca: false, markerOIDs: leafOIDs,
            notBefore: leafNotBefore, notAfter: leafNotAfter, serial: 3)
        return Chain(root: root, intermediate: intermediate, leaf: leaf)
    }

    // MARK: Tokens

    /// A compact JWS over `header` and `payload` (JSON texts), signed with `signer`'s key.
    static func sign(header: String, payload: String, signer: TestIdentity) throws -> String {
        let input = base64URL(Array(header.utf8)) + "." + base64URL(Array(payload.utf8))
        return input + "." + base64URL(try rawSignature(Array(input.utf8), keyDER: signer.privateKeyDER))
    }

    /// An ES256 header carrying `x5c`.
    static func header(x5c: [String], alg: String = "ES256") -> String {
        let list = x5c.map { "\"\($0)\"" }.joined(separator: ",")
        return "{\"alg\":\"\(alg)\",\"x5c\":[\(list)]}"
    }

    /// A StoreKit-shaped transaction payload.
    static func payload(
        environment: String, signedDate: String = "1718000000000.25", bundleId: String = "com.example.birds",
        extra: String = ""
    ) -> String {
        """
        {"transactionId":"2000000123456789","originalTransactionId":"2000000123456789","bundleId":"\(bundleId)",\
        "productId":"com.example.birds.pass","type":"Consumable","purchaseDate":1717999999000.5,\
        "signedDate":\(signedDate),"environment":"\(environment)","storefront":"USA","price":1990,"currency":"USD",\
        "appAccountToken":"7e3fb20b-4cdb-47cc-936d-99d65f608138"\(extra)}
        """
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    // MARK: libcrypto plumbing

    private static func generateKey() throws -> OpaquePointer {
        guard let context = EVP_PKEY_CTX_new_id(EVP_PKEY_EC, nil) else { throw Failure(description: "EVP_PKEY_CTX_new_id") }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1,
            EVP_PKEY_CTX_set_ec_paramgen_curve_nid(context, NID_X9_62_prime256v1) == 1,
            EVP_PKEY_keygen(context, &key) == 1, let key
        else { throw Failure(description: "P-256 key generation") }
        return key
    }

    private static func addExtension(_ certificate: OpaquePointer, _ context: inout X509V3_CTX, _ nid: Int32, _ value: String) throws {
        guard let ext = X509V3_EXT_conf_nid(nil, &context, nid, value) else { throw Failure(description: "extension \(value)") }
        defer { X509_EXTENSION_free(ext) }
        X509_add_ext(certificate, ext, -1)
    }

    private static func parseCertificate(_ der: [UInt8]) throws -> OpaquePointer {
        try der.withUnsafeBufferPointer { buffer in
            var cursor = buffer.baseAddress
            guard let certificate = d2i_X509(nil, &cursor, buffer.count) else { throw Failure(description: "d2i_X509") }
            return certificate
        }
    }

    private static func loadKey(_ der: [UInt8]) throws -> OpaquePointer {
        try der.withUnsafeBufferPointer { buffer in
            var cursor = buffer.baseAddress
            guard let key = d2i_AutoPrivateKey(nil, &cursor, buffer.count) else { throw Failure(description: "d2i_AutoPrivateKey") }
            return key
        }
    }

    private static func certificateDER(_ certificate: OpaquePointer) throws -> [UInt8] {
        let length = i2d_X509(certificate, nil)
        guard length > 0 else { throw Failure(description: "i2d_X509") }
        var der = [UInt8](repeating: 0, count: Int(length))
        _ = der.withUnsafeMutableBufferPointer { buffer in
            var cursor = buffer.baseAddress
            return i2d_X509(certificate, &cursor)
        }
        return der
    }

    private static func privateKeyDER(_ key: OpaquePointer) throws -> [UInt8] {
        let length = i2d_PrivateKey(key, nil)
        guard length > 0 else { throw Failure(description: "i2d_PrivateKey") }
        var der = [UInt8](repeating: 0, count: Int(length))
        _ = der.withUnsafeMutableBufferPointer { buffer in
            var cursor = buffer.baseAddress
            return i2d_PrivateKey(key, &cursor)
        }
        return der
    }

    /// ES256 over `message`, as raw r‖s (JWS form) rather than OpenSSL's DER.
    private static func rawSignature(_ message: [UInt8], keyDER: [UInt8]) throws -> [UInt8] {
        let key = try loadKey(keyDER)
        defer { EVP_PKEY_free(key) }
        guard let context = EVP_MD_CTX_new() else { throw Failure(description: "EVP_MD_CTX_new") }
        defer { EVP_MD_CTX_free(context) }
        var length = 0
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1,
            EVP_DigestSign(context, nil, &length, message, message.count) == 1
        else { throw Failure(description: "EVP_DigestSign") }
        var der = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(context, &der, &length, message, message.count) == 1 else { throw Failure(description: "EVP_DigestSign") }
        let signature: OpaquePointer = try der.withUnsafeBufferPointer { buffer in
            var cursor = buffer.baseAddress
            guard let signature = d2i_ECDSA_SIG(nil, &cursor, length) else { throw Failure(description: "d2i_ECDSA_SIG") }
            return signature
        }
        defer { ECDSA_SIG_free(signature) }
        var raw = [UInt8](repeating: 0, count: 64)
        guard BN_bn2binpad(ECDSA_SIG_get0_r(signature), &raw, 32) == 32 else { throw Failure(description: "r") }
        var s = [UInt8](repeating: 0, count: 32)
        guard BN_bn2binpad(ECDSA_SIG_get0_s(signature), &s, 32) == 32 else { throw Failure(description: "s") }
        raw.replaceSubrange(32..<64, with: s)
        return raw
    }
}
