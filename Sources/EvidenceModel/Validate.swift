import Foundation
import StrictJSON

/// Input checks shared by the store's write methods. Each throws a clear `EvidenceError`.
package enum Validate {
    /// A Play license key as a campaign records it: canonical base64 (the caller's StoreProof read the key itself).
    package static func playLicenseKey(_ key: String) throws -> String {
        guard let der = Data(base64Encoded: key), der.count >= 64, der.base64EncodedString() == key else {
            throw EvidenceError.invalidValue(field: "Play license key", value: String(key.prefix(24)), why: "is not canonical base64 of a public key")
        }
        return key
    }

    /// Throws `invalidValue` naming `field` when `value` is empty or only white space.
    package static func nonEmpty(_ value: String, field: String) throws {
        // An ASCII byte other than white space settles it without Foundation (whose first use costs a
        // command-line run a fraction of a millisecond); anything else is trimmed as before.
        if value.utf8.contains(where: { $0 < 0x80 && !($0 == 0x20 || (0x09...0x0D).contains($0)) }) { return }
        if value.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            throw EvidenceError.invalidValue(field: field, value: value, why: "it must not be empty.")
        }
    }

    /// A label: non-empty, at most 200 characters.
    package static func label(_ value: String, field: String) throws {
        try nonEmpty(value, field: field)
        if value.count > 200 { throw EvidenceError.invalidValue(field: field, value: String(value.prefix(40)) + "…", why: "at most 200 characters.") }
    }

    /// An app id (bundle id / application id): letters, digits, `.`, `-`, `_`.
    package static func identifierLike(_ value: String, field: String) throws {
        let ok = !value.isEmpty && value.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "._-".unicodeScalars.contains($0)) }
        if !ok {
            throw EvidenceError.invalidValue(field: field, value: value, why: "use the bundle id or application id, e.g. 'com.example.app' (letters, digits, '.', '-', '_').")
        }
    }

    /// A UUID, returned lowercase.
    package static func uuid(_ value: String, field: String) throws -> String {
        guard let u = UUID(uuidString: value.trimmingCharacters(in: .whitespaces)) else {
            throw EvidenceError.invalidValue(field: field, value: value, why: "expected the project's App UUID, e.g. '3f2b8c1e-5d4a-4e7b-9c1d-2a6f8e0b7c55'.")
        }
        return u.uuidString.lowercased()
    }

    /// A Sandbox base URL: `https://HOST[/PREFIX]`, or `http://` for a loopback host only.
    /// A Sandbox public-key pin: `sha256//` and the base64 of a 32-byte SHA-256 of the server's SubjectPublicKeyInfo.
    package static func sandboxPin(_ value: String) throws -> String {
        let prefix = "sha256//"
        let body = value.hasPrefix(prefix) ? String(value.dropFirst(prefix.count)) : ""
        guard body.count == 44, let bytes = Data(base64Encoded: body), bytes.count == 32 else {
            throw EvidenceError.invalidValue(field: "Sandbox pin", value: value,
                                             why: "expected 'sha256//' followed by the base64 SHA-256 of the server's public key (44 characters ending in '=').")
        }
        return value
    }

    /// The base URL without trailing slashes; throws unless it is `https://HOST[/PREFIX]` with no query, fragment or user (plain `http` only for a loopback host).
    package static func baseURL(_ value: String) throws -> String {
        guard let url = URL(string: value), let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty,
              url.query == nil, url.fragment == nil, url.user == nil
        else {
            throw EvidenceError.invalidValue(field: "base URL", value: value, why: "expected 'https://HOST[/PREFIX]'.")
        }
        switch scheme {
        case "https": break
        case "http":
            if !isLoopback(host) {
                throw EvidenceError.invalidValue(field: "base URL", value: value, why: "plain http is allowed only for a loopback host (127.0.0.1, ::1, localhost); use https.")
            }
        default:
            throw EvidenceError.invalidValue(field: "base URL", value: value, why: "the scheme must be https.")
        }
        var s = value
        while s.hasSuffix("/") { s.removeLast() }
        return s
    }

    /// Whether `host` is a loopback name or address.
    package static func isLoopback(_ host: String) -> Bool {
        let h = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        if h == "localhost" || h == "::1" || h.hasSuffix(".localhost") { return true }
        let parts = h.split(separator: ".")
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    /// One of an enum's raw values.
    package static func choice<E: RawRepresentable & CaseIterable>(_ value: String, _ type: E.Type, field: String) throws -> E where E.RawValue == String {
        guard let v = E(rawValue: value) else {
            throw EvidenceError.invalidValue(field: field, value: value, why: "expected one of: \(E.allCases.map(\.rawValue).joined(separator: ", ")).\(Suggestion.sentence(for: value, among: E.allCases.map(\.rawValue)))")
        }
        return v
    }

    /// Refuses any of the named fields that holds a credential.
    package static func noSecrets(_ fields: [(String, String)]) throws {
        for (field, value) in fields {
            if let what = SecretScanner.findSecret(in: value) { throw EvidenceError.secretRefused(field: field, what: what) }
        }
    }

    /// Refuses a file that holds a credential in its bytes, as UTF-16 text, or inside its gzip data
    /// (`SecretScanner`), and gzip data that cannot be read within the scan's limits.
    package static func noSecrets(inAttachment bytes: [UInt8], filename: String) throws {
        let found: (what: String, how: String?)?
        do {
            found = try SecretScanner.findSecret(inFile: bytes)
        } catch .tooLarge(let limit) {
            throw EvidenceError.invalidValue(field: "attachment", value: filename, why: "its gzip data expands to more than \(limit / 1_048_576) MiB, so it cannot be scanned for credentials. Store it uncompressed or in parts. Nothing was written.")
        } catch .corrupt(let why) {
            throw EvidenceError.invalidValue(field: "attachment", value: filename, why: "it starts as gzip data but does not decompress (\(why)), so it cannot be scanned for credentials. Nothing was written.")
        }
        if let found {
            throw EvidenceError.secretRefused(field: "attachment '\(filename)'" + (found.how.map { " (\($0))" } ?? ""), what: found.what)
        }
    }

    /// Refuses a JSON document any string of which holds a credential, except under `skipping` keys.
    package static func noSecrets(in value: JSONValue, path: String, skipping: Set<String> = []) throws {
        try noSecrets(in: value, skipping: skipping) { path }
    }

    /// The path of a value is spelled out only for the error: building it for every field
    /// would cost more than scanning a short note.
    private static func noSecrets(in value: JSONValue, skipping: Set<String>, path: () -> String) throws {
        switch value {
        case .string(let s):
            if let what = SecretScanner.findSecret(in: s) { throw EvidenceError.secretRefused(field: path(), what: what) }
        case .array(let items):
            for (i, item) in items.enumerated() { try noSecrets(in: item, skipping: skipping) { "\(path())[\(i)]" } }
        case .object(let fields):
            for (k, v) in fields where skipping.isEmpty || !skipping.contains(k) {
                if let what = SecretScanner.findSecret(in: k) { throw EvidenceError.secretRefused(field: path(), what: what) }
                try noSecrets(in: v, skipping: skipping) { "\(path()).\(k)" }
            }
        default: break
        }
    }
}
