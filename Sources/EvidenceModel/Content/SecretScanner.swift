import SecretShapes
import StrictJSON

/// Finds credentials in text and files before they are stored.
///
/// growcert keeps no secrets at rest. Refused, by shape: a vendor secret key of full length
/// (`SecretKeyShape.all`: `gg_sk_…`, `iap_sk_…`), a `Bearer` credential of token length, and a
/// JWT whose header has no `x5c`. Not refused: prose about them ("bearer tokens", "Bearer auth
/// header", "`gg_sk_xxxx`" as a format example) and a store-signed JWS (StoreKit's header
/// carries its `x5c` certificate chain): signed store data is evidence, not a credential.
///
/// Files are scanned as their raw bytes (UTF-8, Latin-1 and any ASCII-compatible text), as
/// UTF-16 LE and BE when they hold NUL bytes, and inside gzip (decompressed within limits).
package enum SecretScanner {
    /// One credential found: what it is, and where (byte offsets in the scanned bytes).
    package struct Finding: Sendable, Equatable {
        /// The short name used in `<redacted:KIND>`: a key shape's kind, `bearer` or `jwt`.
        package let kind: String
        /// What it is, in words for an error message (never the secret itself).
        package let description: String
        /// The bytes of the credential itself (for a Bearer credential, without the word `Bearer`).
        package let range: Range<Int>
    }

    static let bearerDescription = "a Bearer credential"
    static let jwtDescription = "a JWT-shaped token (header.payload.signature)"
    /// A Bearer credential has at least this many characters; shorter words after "Bearer" are prose.
    static let minimumBearerLength = 12

    /// What was found, in words for an error message (never the secret itself).
    ///
    /// When a text holds more than one kind, a vendor key is named first, then the Bearer
    /// credential, then the JWT.
    package static func findSecret(in text: String) -> String? {
        var text = text
        return text.withUTF8 { mostImportant(findings(in: $0)) }
    }

    /// The most important of `findings`, in words.
    static func mostImportant(_ found: [Finding]) -> String? {
        if found.isEmpty { return nil }
        for shape in SecretKeyShape.all where found.contains(where: { $0.kind == shape.kind }) { return shape.description }
        if found.contains(where: { $0.kind == "bearer" }) { return bearerDescription }
        return jwtDescription
    }

    /// What a file holds, in words, and how it was read (`nil` for its bytes as they are, else e.g.
    /// `as UTF-16 LE text` or `inside its gzip data`); nil when it holds no credential.
    ///
    /// Throws `GzipInflater.Failure` when gzip data cannot be read within the limits: such a file
    /// cannot be scanned, so it must not be stored.
    static func findSecret(inFile bytes: [UInt8], depth: Int = 0) throws(GzipInflater.Failure) -> (what: String, how: String?)? {
        if let what = bytes.withUnsafeBufferPointer({ mostImportant(findings(in: $0)) }) { return (what, nil) }
        if bytes.contains(0) {
            for bigEndian in [false, true] {
                let view = utf16ASCII(bytes, bigEndian: bigEndian)
                if let what = view.withUnsafeBufferPointer({ mostImportant(findings(in: $0)) }) {
                    return (what, bigEndian ? "as UTF-16 BE text" : "as UTF-16 LE text")
                }
            }
        }
        if GzipInflater.isGzip(bytes), depth < 3 {
            let inner = try GzipInflater.inflate(bytes)
            if let found = try findSecret(inFile: inner, depth: depth + 1) {
                return (found.what, "inside its gzip data" + (found.how.map { ", " + $0 } ?? ""))
            }
        }
        return nil
    }

    /// The ASCII characters of UTF-16 text, every other code unit as a space (which no credential holds).
    static func utf16ASCII(_ bytes: [UInt8], bigEndian: Bool) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(bytes.count / 2)
        var i = 0
        while i + 1 < bytes.count {
            let (hi, lo) = bigEndian ? (bytes[i], bytes[i + 1]) : (bytes[i + 1], bytes[i])
            out.append(hi == 0 && lo < 0x80 && lo != 0 ? lo : 0x20)
            i += 2
        }
        return out
    }

    /// Every credential in `b`, left to right, not overlapping.
    ///
    /// One pass: each position is tested only for the patterns its byte can start (`startKinds`: a key prefix's first
    /// byte, `b`/`B` a Bearer credential, `e` a JWT), and a key only where its prefix's second byte follows.
    static func findings(in b: UnsafeBufferPointer<UInt8>) -> [Finding] {
        var found: [Finding] = []
        let shapes = SecretKeyShape.all
        startKinds.withUnsafeBufferPointer { kinds in
            keyPrefixSecondBytes.withUnsafeBufferPointer { seconds in
                var i = 0
                scan: while i < b.count {
                    let c = b[i]
                    let kind = kinds[Int(c)]
                    if kind == 0 {
                        i += 1
                        continue
                    }
                    if kind & keyStartMask != 0, i + 1 < b.count {
                        for k in seconds.indices where kind & (1 << UInt8(k)) != 0 && b[i + 1] == seconds[k] {
                            if let n = shapes[k].match(at: i, in: b, fullLength: true) {
                                found.append(Finding(kind: shapes[k].kind, description: shapes[k].description, range: i..<(i + n)))
                                i += n
                                continue scan
                            }
                        }
                    }
                    if kind & bearerStart != 0, let r = bearer(at: i, in: b) {
                        // A vendor key sent as the Bearer credential is named as the key it is.
                        if let (shape, n) = shapes.lazy.compactMap({ s in s.match(at: r.lowerBound, in: b, fullLength: true).map { (s, $0) } }).first {
                            found.append(Finding(kind: shape.kind, description: shape.description, range: r.lowerBound..<(r.lowerBound + n)))
                            i = r.lowerBound + n
                        } else {
                            found.append(Finding(kind: "bearer", description: bearerDescription, range: r))
                            i = r.upperBound
                        }
                        continue
                    }
                    if kind & jwtStart != 0, let (end, credential) = jwt(at: i, in: b) {
                        if credential { found.append(Finding(kind: "jwt", description: jwtDescription, range: i..<end)) }
                        i = end
                        continue
                    }
                    i += 1
                }
            }
        }
        return found
    }

    /// `startKinds`' bits: bit k for `SecretKeyShape.all[k]` (its prefix starts with the byte), then a Bearer
    /// credential's and a JWT's.
    static let bearerStart: UInt16 = 1 << 14
    static let jwtStart: UInt16 = 1 << 15
    static let keyStartMask: UInt16 = bearerStart - 1

    /// For each byte, the credentials that can start with it (`bearerStart`, `jwtStart`, and a bit per key shape).
    static let startKinds: [UInt16] = {
        precondition(SecretKeyShape.all.count <= 14, "startKinds has 14 bits for key shapes")
        var table = [UInt16](repeating: 0, count: 256)
        for (k, shape) in SecretKeyShape.all.enumerated() {
            if let first = shape.prefix.utf8.first { table[Int(first)] |= 1 << UInt16(k) }
        }
        for c in "bB".utf8 { table[Int(c)] |= bearerStart }
        table[Int(UInt8(ascii: "e"))] |= jwtStart
        return table
    }()

    /// Each key shape's second prefix byte, in `SecretKeyShape.all`'s order: a key is matched only where it follows.
    static let keyPrefixSecondBytes: [UInt8] = SecretKeyShape.all.map {
        let p = Array($0.prefix.utf8)
        precondition(p.count >= 2, "a key prefix has at least two bytes")
        return p[1]
    }

    /// `bytes` with each credential replaced by `<redacted:KIND>`, and how many of each kind were replaced.
    ///
    /// Works on the raw bytes, so a log that is not valid UTF-8 keeps every other byte as it was.
    /// What it replaces is exactly what the scan refuses: the result scans clean.
    ///
    /// Only for text: gzip data and bytes with NUL in them (UTF-16, binary files) are refused, as
    /// replacing inside them would break them.
    package static func redactCredentials(in bytes: [UInt8], filename: String) throws -> (bytes: [UInt8], replaced: [String: Int]) {
        if GzipInflater.isGzip(bytes) || bytes.contains(0) {
            throw EvidenceError.invalidValue(field: "attachment", value: filename, why: "redaction works on text logs only (UTF-8 or another ASCII-compatible encoding), and this file is \(GzipInflater.isGzip(bytes) ? "gzip data" : "not such text (it holds NUL bytes: UTF-16 or binary)"). Decompress or convert it to UTF-8 first. Nothing was written.")
        }
        let found = bytes.withUnsafeBufferPointer { findings(in: $0) }
        guard !found.isEmpty else { return (bytes, [:]) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var counts: [String: Int] = [:]
        var at = 0
        for f in found {
            out.append(contentsOf: bytes[at..<f.range.lowerBound])
            out.append(contentsOf: "<redacted:\(f.kind)>".utf8)
            counts[f.kind, default: 0] += 1
            at = f.range.upperBound
        }
        out.append(contentsOf: bytes[at...])
        return (out, counts)
    }

    /// Replaces every credential in `text` with `<redacted>`, for error messages: vendor keys of
    /// any length, `Bearer` values and JWT-shaped strings.
    package static func redact(_ text: String) -> String {
        SecretKeyShape.redact(text) { _ in "<redacted>" }
            .replacing(/(?i)bearer\s+[A-Za-z0-9._~+\/=\-]+/, with: "<redacted>")
            .replacing(/eyJ[A-Za-z0-9_\-]{2,}\.[A-Za-z0-9_\-]{2,}\.[A-Za-z0-9_\-]*/, with: "<redacted>")
    }

    static func isTokenChar(_ b: UInt8) -> Bool { SecretKeyShape.isKeyCharacter(b) }

    /// The word `bearer` (any case, not inside a word), blanks, and a credential of token length:
    /// at least `minimumBearerLength` credential characters with a digit or an inner capital
    /// letter (prose such as "Bearer authentication-required" has neither). Returns the
    /// credential's range.
    static func bearer(at i: Int, in b: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        guard i + 7 < b.count, i == 0 || !isTokenChar(b[i - 1]) else { return nil }
        for (k, c) in "bearer".utf8.enumerated() where b[i + k] | 0x20 != c { return nil }
        var j = i + 6
        guard b[j] == 0x20 || b[j] == 0x09 else { return nil }
        while j < b.count, b[j] == 0x20 || b[j] == 0x09 { j += 1 }
        let start = j
        var digit = false
        var innerCapital = false
        while j < b.count, isTokenChar(b[j]) || b[j] == 0x2E || b[j] == 0x2B || b[j] == 0x2F || b[j] == 0x3D || b[j] == 0x7E {
            if b[j] >= 0x30 && b[j] <= 0x39 { digit = true }
            if j > start, b[j] >= 0x41 && b[j] <= 0x5A { innerCapital = true }
            j += 1
        }
        return j - start >= minimumBearerLength && (digit || innerCapital) ? start..<j : nil
    }

    /// Three base64url segments separated by dots, the first decoding to a JSON object (`eyJ`),
    /// not inside a token; the first two segments at least four characters long. Returns where
    /// it ends and whether it is a credential: a header with `x5c` (a certificate chain, as
    /// StoreKit's signed transactions carry) is signed store data, not a credential.
    static func jwt(at i: Int, in b: UnsafeBufferPointer<UInt8>) -> (end: Int, credential: Bool)? {
        guard i + 3 <= b.count, b[i + 1] == UInt8(ascii: "y"), b[i + 2] == UInt8(ascii: "J"), i == 0 || !isTokenChar(b[i - 1]) else { return nil }
        var lengths = [0, 0, 0]
        var s = 0
        var j = i
        while j < b.count {
            if isTokenChar(b[j]) {
                lengths[s] += 1
            } else if b[j] == 0x2E, s < 2 {
                s += 1
            } else {
                break
            }
            j += 1
        }
        guard s == 2, lengths[0] >= 4, lengths[1] >= 4 else { return nil }
        return (j, !hasCertificateChain(header: UnsafeBufferPointer(rebasing: b[i..<(i + lengths[0])])))
    }

    /// Whether a JWS header (base64url) decodes to a JSON object with an `x5c` array.
    private static func hasCertificateChain(header: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let bytes = base64URLDecode(header), let json = try? JSONValue.parse(String(decoding: bytes, as: UTF8.self)) else { return false }
        return json["x5c"]?.arrayValue != nil
    }

    /// Base64url without padding, or nil.
    static func base64URLDecode(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(text.count * 3 / 4)
        var acc: UInt32 = 0
        var bits = 0
        for c in text {
            let v: UInt8
            switch c {
            case 0x41...0x5A: v = c - 0x41
            case 0x61...0x7A: v = c - 0x61 + 26
            case 0x30...0x39: v = c - 0x30 + 52
            case 0x2D: v = 62
            case 0x5F: v = 63
            default: return nil
            }
            acc = (acc << 6) | UInt32(v)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8((acc >> UInt32(bits)) & 0xFF))
            }
        }
        return out
    }
}
