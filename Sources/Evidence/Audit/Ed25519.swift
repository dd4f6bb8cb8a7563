internal import CCrypto
import Foundation

/// Ed25519 keys and signatures through OpenSSL, in the formats OpenSSL's own tools use:
/// PKCS#8 PEM private keys (`openssl genpkey -algorithm ed25519`) and SPKI PEM public keys.
package enum Ed25519 {
    /// A new private key as PKCS#8 PEM; with a passphrase, as encrypted PKCS#8
    /// (`-----BEGIN ENCRYPTED PRIVATE KEY-----`: PBES2, PBKDF2 with HMAC-SHA-256, AES-256-CBC).
    package static func generatePrivateKeyPEM(passphrase: String? = nil) throws -> String {
        let ctx = EVP_PKEY_CTX_new_id(EVP_PKEY_ED25519, nil)
        defer { EVP_PKEY_CTX_free(ctx) }
        var pkey: OpaquePointer?
        guard ctx != nil, EVP_PKEY_keygen_init(ctx) == 1, EVP_PKEY_keygen(ctx, &pkey) == 1, let key = pkey else {
            throw EvidenceError.internalFailure("OpenSSL could not generate an Ed25519 key")
        }
        defer { EVP_PKEY_free(key) }
        guard let passphrase else { return try writePEM { PEM_write_bio_PrivateKey($0, key, nil, nil, 0, nil, nil) } }
        guard !passphrase.isEmpty else {
            throw EvidenceError.invalidValue(field: "passphrase", value: "", why: "it is empty; choose a passphrase.")
        }
        var pass = Array(passphrase.utf8CString)
        defer { for i in pass.indices { pass[i] = 0 } }
        return try pass.withUnsafeMutableBufferPointer { p in
            try writePEM { PEM_write_bio_PKCS8PrivateKey($0, key, EVP_aes_256_cbc(), p.baseAddress, Int32(p.count - 1), nil, nil) }
        }
    }

    /// Whether a private key PEM is encrypted (needs a passphrase).
    package static func isEncrypted(privateKeyPEM: String) -> Bool {
        privateKeyPEM.contains("-----BEGIN ENCRYPTED PRIVATE KEY-----")
    }

    /// The public key (SPKI PEM) of a private key PEM.
    package static func publicKeyPEM(privateKeyPEM: String, passphrase: String? = nil) throws -> String {
        let key = try loadPrivate(privateKeyPEM, passphrase: passphrase)
        defer { EVP_PKEY_free(key) }
        return try writePEM { PEM_write_bio_PUBKEY($0, key) }
    }

    /// An Ed25519 public key PEM (SPKI) as growcert writes it, or nil when it is not one.
    package static func normalizedPublicKeyPEM(_ pem: String) -> String? {
        guard let key = loadPublic(pem) else { return nil }
        defer { EVP_PKEY_free(key) }
        guard EVP_PKEY_get_id(key) == EVP_PKEY_ED25519 else { return nil }
        return try? writePEM { PEM_write_bio_PUBKEY($0, key) }
    }

    /// Signs `message`; returns the 64-byte signature.
    package static func sign(_ message: [UInt8], privateKeyPEM: String, passphrase: String? = nil) throws -> [UInt8] {
        let key = try loadPrivate(privateKeyPEM, passphrase: passphrase)
        defer { EVP_PKEY_free(key) }
        let md = EVP_MD_CTX_new()
        defer { EVP_MD_CTX_free(md) }
        var sig = [UInt8](repeating: 0, count: 64)
        var len = 64
        let ok = message.withUnsafeBufferPointer { m in
            EVP_DigestSignInit(md, nil, nil, nil, key) == 1 && EVP_DigestSign(md, &sig, &len, m.baseAddress, m.count) == 1
        }
        guard ok, len == 64 else { throw EvidenceError.internalFailure("OpenSSL could not sign with the Ed25519 key") }
        return sig
    }

    /// Whether `signature` is a valid signature of `message` under the SPKI PEM public key.
    package static func verify(_ signature: [UInt8], message: [UInt8], publicKeyPEM: String) -> Bool {
        guard let key = loadPublic(publicKeyPEM) else { return false }
        defer { EVP_PKEY_free(key) }
        guard EVP_PKEY_get_id(key) == EVP_PKEY_ED25519 else { return false }
        let md = EVP_MD_CTX_new()
        defer { EVP_MD_CTX_free(md) }
        return message.withUnsafeBufferPointer { m in
            signature.withUnsafeBufferPointer { s in
                EVP_DigestVerifyInit(md, nil, nil, nil, key) == 1 && EVP_DigestVerify(md, s.baseAddress, s.count, m.baseAddress, m.count) == 1
            }
        }
    }

    /// A short fingerprint of a public key: the first 16 hex digits of the SHA-256 of its PEM text.
    package static func keyId(publicKeyPEM: String) -> String {
        String(Digest.sha256Hex(publicKeyPEM).prefix(16))
    }

    static func loadPrivate(_ pem: String, passphrase: String? = nil) throws -> OpaquePointer {
        let encrypted = isEncrypted(privateKeyPEM: pem)
        if encrypted, passphrase == nil {
            throw EvidenceError.invalidValue(field: "key", value: "PEM", why: "it is encrypted; give the name of the environment variable that holds its passphrase.")
        }
        // An empty passphrase string (not nil) keeps OpenSSL from prompting on the terminal.
        var pass = Array((passphrase ?? "").utf8CString)
        defer { for i in pass.indices { pass[i] = 0 } }
        ERR_clear_error()
        let key: OpaquePointer? = pass.withUnsafeMutableBytes { p in withBIO(pem) { PEM_read_bio_PrivateKey($0, nil, nil, p.baseAddress) } }
        ERR_clear_error()
        guard let key else {
            if encrypted {
                throw EvidenceError.invalidValue(field: "key", value: "PEM", why: "cannot be decrypted with this passphrase. Check the passphrase; nothing was signed.")
            }
            throw EvidenceError.signingKeyUnusable(why: "not a readable private key")
        }
        guard EVP_PKEY_get_id(key) == EVP_PKEY_ED25519 else {
            EVP_PKEY_free(key)
            throw EvidenceError.signingKeyUnusable(why: "not an Ed25519 key")
        }
        return key
    }

    static func loadPublic(_ pem: String) -> OpaquePointer? {
        withBIO(pem) { PEM_read_bio_PUBKEY($0, nil, nil, nil) }
    }

    static func withBIO<T>(_ text: String, _ body: (OpaquePointer?) -> T) -> T {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBytes { buf in
            let bio = BIO_new_mem_buf(buf.baseAddress, Int32(buf.count))
            defer { BIO_free(bio) }
            return body(bio)
        }
    }

    static func writePEM(_ write: (OpaquePointer?) -> Int32) throws -> String {
        let bio = BIO_new(BIO_s_mem())
        defer { BIO_free(bio) }
        guard write(bio) == 1 else { throw EvidenceError.internalFailure("OpenSSL could not write a PEM key") }
        var ptr: UnsafeMutablePointer<CChar>?
        let len = BIO_ctrl(bio, BIO_CTRL_INFO, 0, &ptr)
        guard len > 0, let ptr else { throw EvidenceError.internalFailure("OpenSSL wrote an empty PEM key") }
        return String(decoding: UnsafeRawBufferPointer(start: ptr, count: len), as: UTF8.self)
    }
}
