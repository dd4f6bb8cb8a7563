import Foundation

/// An allowed-signers file, in the layout OpenSSH's `ssh-keygen -Y verify` reads: one signer per
/// line, principal first, then the key.
///
/// ```
/// # comments and blank lines are ignored
/// "Rita RM",rita@example.com ed25519-spki MCowBQYDK2VwAyEA…   optional comment
/// ann@example.com namespaces="growcert" ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAA…
/// ```
///
/// Principals are comma-separated, double-quoted when they contain spaces; a sign-off's principal
/// is the `name` of its statement. Options (`key="value"` words before the key type) are accepted
/// and ignored. Key types: `ed25519-spki` (base64 of the DER SubjectPublicKeyInfo: the body of
/// `public.pem`, on one line) and `ssh-ed25519` (an OpenSSH public key).
package struct AllowedSigners: Sendable {
    /// One signer line.
    package struct Entry: Sendable, Equatable {
        /// The principals it names (a sign-off's `name` matches one of them).
        package var principals: [String]
        /// The key as growcert writes SPKI PEM, and its key id.
        package var publicKey: String
        /// The key's id (`Ed25519.keyId`).
        package var keyId: String
        /// Its line number in the file (1-based).
        package var line: Int
    }

    /// The signers, in file order.
    package let entries: [Entry]

    /// Parses a file's text; throws on the first line that is not a signer.
    package init(text: String) throws {
        var entries: [Entry] = []
        for (n, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces.union(CharacterSet(charactersIn: "\r")))
            if line.isEmpty || line.hasPrefix("#") { continue }
            var words = Self.words(line)
            func bad(_ why: String) -> EvidenceError {
                .invalidValue(field: "allowed signer on line \(n + 1)", value: String(line.prefix(40)), why: why)
            }
            guard words.count >= 3 else { throw bad("expected 'PRINCIPAL KEYTYPE BASE64' (ed25519-spki or ssh-ed25519).") }
            let principals = Self.principals(words.removeFirst())
            while let w = words.first, w.contains("="), w != "ed25519-spki", w != "ssh-ed25519" { words.removeFirst() }
            guard words.count >= 2 else { throw bad("expected a key type and a base64 key after the principal.") }
            let type = words[0]
            guard let der = Data(base64Encoded: words[1]) else { throw bad("the key is not base64.") }
            let spki: [UInt8]
            switch type {
            case "ed25519-spki": spki = [UInt8](der)
            case "ssh-ed25519":
                guard let raw = Self.sshEd25519Key([UInt8](der)) else { throw bad("not an OpenSSH ssh-ed25519 public key.") }
                spki = Self.spkiPrefix + raw
            default: throw bad("key type '\(type)' is not supported: use ed25519-spki or ssh-ed25519.")
            }
            let pem = "-----BEGIN PUBLIC KEY-----\n" + Data(spki).base64EncodedString() + "\n-----END PUBLIC KEY-----\n"
            guard let key = Ed25519.normalizedPublicKeyPEM(pem) else { throw bad("not an Ed25519 public key.") }
            entries.append(Entry(principals: principals, publicKey: key, keyId: Ed25519.keyId(publicKeyPEM: key), line: n + 1))
        }
        self.entries = entries
    }

    /// The entry allowing `principal` to sign with `publicKey` (SPKI PEM), if any.
    package func allows(principal: String, publicKey: String) -> Entry? {
        guard let key = Ed25519.normalizedPublicKeyPEM(publicKey) else { return nil }
        return entries.first { $0.publicKey == key && $0.principals.contains(principal) }
    }

    /// The `ed25519-spki` line for a principal and key, as `signers list` prints it.
    package static func line(principal: String, publicKeyPEM: String) -> String {
        let body = publicKeyPEM.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        let p = principal.contains(where: { $0 == " " || $0 == "," || $0 == "\"" }) ? "\"" + principal.replacingOccurrences(of: "\"", with: "") + "\"" : principal
        return "\(p) ed25519-spki \(body)"
    }

    /// The DER prefix of an Ed25519 SubjectPublicKeyInfo before its 32 key bytes.
    static let spkiPrefix: [UInt8] = [0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00]

    /// The 32 raw key bytes of an OpenSSH `ssh-ed25519` key blob.
    static func sshEd25519Key(_ blob: [UInt8]) -> [UInt8]? {
        var i = 0
        func field() -> [UInt8]? {
            guard i + 4 <= blob.count else { return nil }
            let n = Int(blob[i]) << 24 | Int(blob[i + 1]) << 16 | Int(blob[i + 2]) << 8 | Int(blob[i + 3])
            i += 4
            guard n >= 0, i + n <= blob.count else { return nil }
            defer { i += n }
            return Array(blob[i..<(i + n)])
        }
        guard field() == Array("ssh-ed25519".utf8), let key = field(), key.count == 32, i == blob.count else { return nil }
        return key
    }

    /// Splits a line into words; double quotes group (and are dropped).
    static func words(_ line: String) -> [String] {
        var words: [String] = []
        var current = ""
        var quoted = false
        var started = false
        for c in line {
            if c == "\"" { quoted.toggle(); started = true; continue }
            if (c == " " || c == "\t") && !quoted {
                if started { words.append(current) }
                current = ""
                started = false
            } else {
                current.append(c)
                started = true
            }
        }
        if started { words.append(current) }
        return words
    }

    /// A principals word, split at commas (a quoted name keeps its spaces).
    static func principals(_ word: String) -> [String] {
        word.split(separator: ",").map { String($0) }
    }
}
