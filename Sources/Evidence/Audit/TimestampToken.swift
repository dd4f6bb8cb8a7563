internal import CCrypto
import Foundation

/// RFC 3161 timestamps of a journal head, through OpenSSL's `TS_*` API.
///
/// The message imprint is the head itself: a journal head is already the SHA-256 of its entry's
/// envelope, so it is sent as a SHA-256 imprint unchanged. An auditor checks a token with
/// `openssl ts -verify -digest HEAD -in token.der -token_in -CAfile tsa-ca.pem`.
/// Vendor-neutral: the transport that carries the request is the caller's.
package enum TimestampToken {
    /// A request to send to a timestamp authority, and the nonce to expect back.
    package struct Request: Sendable {
        /// DER TimeStampReq (`application/timestamp-query`).
        package let der: [UInt8]
        /// The nonce, as lowercase hex.
        package let nonce: String
        /// The imprint: the head's 32 bytes.
        package let imprint: [UInt8]
    }

    /// A token the authority granted, checked against its request.
    package struct Granted: Sendable {
        /// DER TimeStampToken (CMS SignedData), what is stored.
        package let token: [UInt8]
        /// genTime as the token states it (`YYYYMMDDhhmmss[.f]Z`).
        package let genTime: String
        /// The token's serial number, hex.
        package let serial: String
    }

    /// Why a timestamp response or token does not hold.
    package enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        case notATimestampResponse
        case notGranted(status: Int, text: String)
        case imprintMismatch
        case nonceMismatch
        case notAToken
        case signatureInvalid(String)
        case chainInvalid(String)

        /// What does not hold, as a clause for a longer sentence (lower case, no full stop).
        package var description: String {
            switch self {
            case .notATimestampResponse: return "the answer is not an RFC 3161 timestamp response"
            case .notGranted(let status, let text): return "the timestamp authority did not grant the request (status \(status)\(text.isEmpty ? "" : ": " + text))"
            case .imprintMismatch: return "the token's message imprint is not the SHA-256 journal head that was sent"
            case .nonceMismatch: return "the token's nonce is not the one that was sent"
            case .notAToken: return "the stored token is not an RFC 3161 timestamp token"
            case .signatureInvalid(let why): return "the token's signature does not verify with its embedded certificate (\(why))"
            case .chainInvalid(let why): return "the token does not verify to the given timestamp CA (\(why))"
            }
        }
    }

    /// Builds a TimeStampReq over `head` (64 hex digits): SHA-256 imprint, a random 64-bit nonce, certReq true.
    package static func request(head: String) throws -> Request {
        let imprint = try headBytes(head)
        let nonceBytes = try Digest.randomBytes(8)
        guard let req = TS_REQ_new() else { throw EvidenceError.internalFailure("OpenSSL could not create a timestamp request") }
        defer { TS_REQ_free(req) }
        guard let mi = TS_MSG_IMPRINT_new() else { throw EvidenceError.internalFailure("OpenSSL could not create a message imprint") }
        defer { TS_MSG_IMPRINT_free(mi) }
        guard let algo = X509_ALGOR_new() else { throw EvidenceError.internalFailure("OpenSSL could not create an algorithm identifier") }
        defer { X509_ALGOR_free(algo) }
        let nonceBN = nonceBytes.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, Int32($0.count), nil) }
        defer { BN_free(nonceBN) }
        let nonce = BN_to_ASN1_INTEGER(nonceBN, nil)
        defer { ASN1_INTEGER_free(nonce) }
        var bytes = imprint
        let ok = X509_ALGOR_set0(algo, OBJ_nid2obj(NID_sha256), V_ASN1_NULL, nil) == 1
            && TS_MSG_IMPRINT_set_algo(mi, algo) == 1
            && bytes.withUnsafeMutableBufferPointer { TS_MSG_IMPRINT_set_msg(mi, $0.baseAddress, Int32($0.count)) } == 1
            && TS_REQ_set_version(req, 1) == 1
            && TS_REQ_set_msg_imprint(req, mi) == 1
            && nonce != nil && TS_REQ_set_nonce(req, nonce) == 1
            && TS_REQ_set_cert_req(req, 1) == 1
        guard ok else { throw EvidenceError.internalFailure("OpenSSL could not build the timestamp request") }
        let der = try encode { i2d_TS_REQ(req, $0) }
        return Request(der: der, nonce: hex(of: nonce), imprint: imprint)
    }

    /// Checks an authority's TimeStampResp against its request: status granted, the imprint and the
    /// nonce are the ones sent. Returns the token to store.
    package static func check(response der: [UInt8], for request: Request) throws -> Granted {
        guard let resp = decode(der, d2i_TS_RESP) else { throw Failure.notATimestampResponse }
        defer { TS_RESP_free(resp) }
        guard let info = TS_RESP_get_status_info(resp), let statusInt = TS_STATUS_INFO_get0_status(info) else { throw Failure.notATimestampResponse }
        let status = ASN1_INTEGER_get(statusInt)
        guard status == 0 || status == 1 else {
            var text = ""
            if let failure = TS_STATUS_INFO_get0_failure_info(info) { text = "failure info \(ASN1_STRING_length(failure)) byte(s)" }
            throw Failure.notGranted(status: Int(status), text: text)
        }
        guard let token = TS_RESP_get_token(resp), let tst = TS_RESP_get_tst_info(resp) else { throw Failure.notATimestampResponse }
        guard imprint(of: tst) == request.imprint else { throw Failure.imprintMismatch }
        guard let nonce = TS_TST_INFO_get_nonce(tst), hex(of: nonce) == request.nonce else { throw Failure.nonceMismatch }
        let tokenDER = try encode { i2d_PKCS7(token, $0) }
        return Granted(token: tokenDER, genTime: genTime(of: tst), serial: serial(of: tst))
    }

    /// What a stored token states, after checking that its signature verifies with the certificate
    /// it embeds and that its imprint is `head`; with `caPEM`, also that the signer's chain verifies
    /// to that CA (extended key usage timeStamping required).
    package static func verify(token der: [UInt8], head: String, caPEM: String? = nil) throws -> Granted {
        let want = try headBytes(head)
        guard let p7 = decode(der, d2i_PKCS7) else { throw Failure.notAToken }
        defer { PKCS7_free(p7) }
        guard let tst = PKCS7_to_TS_TST_INFO(p7) else { throw Failure.notAToken }
        defer { TS_TST_INFO_free(tst) }
        guard imprint(of: tst) == want else { throw Failure.imprintMismatch }
        ERR_clear_error()
        guard PKCS7_verify(p7, nil, nil, nil, nil, Int32(PKCS7_NOVERIFY)) == 1 else { throw Failure.signatureInvalid(lastError()) }
        if let caPEM {
            guard let ctx = TS_VERIFY_CTX_new() else { throw EvidenceError.internalFailure("OpenSSL could not create a verify context") }
            defer { TS_VERIFY_CTX_free(ctx) }
            guard let store = X509_STORE_new() else { throw EvidenceError.internalFailure("OpenSSL could not create a certificate store") }
            var loaded = 0
            Ed25519.withBIO(caPEM) { bio in
                while let cert = PEM_read_bio_X509(bio, nil, nil, nil) {
                    if X509_STORE_add_cert(store, cert) == 1 { loaded += 1 }
                    X509_free(cert)
                }
            }
            ERR_clear_error()
            guard loaded > 0 else {
                X509_STORE_free(store)
                throw Failure.chainInvalid("the CA file holds no PEM certificate")
            }
            TS_VERIFY_CTX_set_store(ctx, store)  // the context owns the store from here
            guard let buf = CRYPTO_malloc(want.count, nil, 0)?.assumingMemoryBound(to: UInt8.self) else {
                throw EvidenceError.internalFailure("out of memory")
            }
            buf.initialize(from: want, count: want.count)
            TS_VERIFY_CTX_set_imprint(ctx, buf, Int(want.count))  // owned by the context
            TS_VERIFY_CTX_set_flags(ctx, Int32(TS_VFY_VERSION | TS_VFY_SIGNATURE | TS_VFY_IMPRINT))
            guard TS_RESP_verify_token(ctx, p7) == 1 else { throw Failure.chainInvalid(lastError()) }
        }
        return Granted(token: der, genTime: genTime(of: tst), serial: serial(of: tst))
    }

    /// The journal head a token timestamps (its SHA-256 imprint, as hex), after checking that its
    /// signature verifies with the certificate it embeds (and, with `caPEM`, its chain to that CA).
    package static func head(ofToken der: [UInt8], caPEM: String? = nil) throws -> (head: String, granted: Granted) {
        guard let p7 = decode(der, d2i_PKCS7) else { throw Failure.notAToken }
        defer { PKCS7_free(p7) }
        guard let tst = PKCS7_to_TS_TST_INFO(p7) else { throw Failure.notAToken }
        defer { TS_TST_INFO_free(tst) }
        guard let imprint = imprint(of: tst), imprint.count == 32 else { throw Failure.imprintMismatch }
        let head = Digest.hex(imprint)
        return (head, try verify(token: der, head: head, caPEM: caPEM))
    }

    // MARK: OpenSSL helpers

    static func headBytes(_ head: String) throws -> [UInt8] {
        guard head.utf8.count == 64, head.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else {
            throw EvidenceError.invalidValue(field: "journal head", value: head, why: "not 64 lowercase hex digits.")
        }
        return EvidenceStore.bytes(fromHex: head)
    }

    static func imprint(of tst: OpaquePointer) -> [UInt8]? {
        guard let mi = TS_TST_INFO_get_msg_imprint(tst), let algo = TS_MSG_IMPRINT_get_algo(mi), let msg = TS_MSG_IMPRINT_get_msg(mi) else { return nil }
        var obj: OpaquePointer?
        X509_ALGOR_get0(&obj, nil, nil, algo)
        guard let obj, OBJ_obj2nid(obj) == NID_sha256 else { return nil }
        guard let data = ASN1_STRING_get0_data(msg) else { return nil }
        return Array(UnsafeBufferPointer(start: data, count: Int(ASN1_STRING_length(msg))))
    }

    static func genTime(of tst: OpaquePointer) -> String {
        guard let t = TS_TST_INFO_get_time(tst) else { return "" }
        return string(of: t)
    }

    static func serial(of tst: OpaquePointer) -> String {
        guard let s = TS_TST_INFO_get_serial(tst) else { return "" }
        return hex(of: s)
    }

    static func string(of s: UnsafePointer<ASN1_STRING>) -> String {
        guard let data = ASN1_STRING_get0_data(s) else { return "" }
        return String(decoding: UnsafeBufferPointer(start: data, count: Int(ASN1_STRING_length(s))), as: UTF8.self)
    }

    static func string(of s: UnsafeMutablePointer<ASN1_STRING>) -> String { string(of: UnsafePointer(s)) }

    static func hex(of integer: UnsafePointer<ASN1_INTEGER>?) -> String {
        guard let integer, let bn = ASN1_INTEGER_to_BN(integer, nil) else { return "" }
        defer { BN_free(bn) }
        guard let text = BN_bn2hex(bn) else { return "" }
        defer { CRYPTO_free(text, nil, 0) }
        return String(cString: text).lowercased()
    }

    static func hex(of integer: UnsafeMutablePointer<ASN1_INTEGER>?) -> String { hex(of: integer.map { UnsafePointer($0) }) }

    static func encode(_ i2d: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?) -> Int32) throws -> [UInt8] {
        let n = i2d(nil)
        guard n > 0 else { throw EvidenceError.internalFailure("OpenSSL could not encode DER") }
        var out = [UInt8](repeating: 0, count: Int(n))
        let written = out.withUnsafeMutableBufferPointer { buf -> Int32 in
            var p: UnsafeMutablePointer<UInt8>? = buf.baseAddress
            return i2d(&p)
        }
        guard written == n else { throw EvidenceError.internalFailure("OpenSSL could not encode DER") }
        return out
    }

    static func decode<T>(_ der: [UInt8], _ d2i: (UnsafeMutablePointer<T?>?, UnsafeMutablePointer<UnsafePointer<UInt8>?>?, Int) -> T?) -> T? {
        der.withUnsafeBufferPointer { buf in
            var p: UnsafePointer<UInt8>? = buf.baseAddress
            return d2i(nil, &p, buf.count)
        }
    }

    static func lastError() -> String {
        let code = ERR_get_error()
        ERR_clear_error()
        guard code != 0 else { return "no detail" }
        var buf = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &buf, buf.count)
        return String(decoding: buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
