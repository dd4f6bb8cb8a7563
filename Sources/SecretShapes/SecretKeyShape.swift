/// The shape of a vendor's secret key: a fixed prefix, then key characters.
///
/// A vendor's server (or broker) key is the one credential whose shape is named by its vendor:
/// GrooveGrow's `gg_sk_…`, CherrySub's `iap_sk_…`. Every module that finds, refuses or redacts
/// such keys asks `SecretKeyShape.all`, so a new vendor's key is added in one place.
package struct SecretKeyShape: Sendable, Equatable {
    /// A short name for `<redacted:KIND>`, e.g. `gg_sk`.
    package let kind: String
    /// What the key is called in an error message, e.g. `a GrooveGrow server key (gg_sk_…)`.
    package let description: String
    /// The text every such key starts with.
    package let prefix: String
    /// How many key characters a real key has after the prefix, at least. Fewer (`gg_sk_xxxx`,
    /// a format example in prose) is not a credential; a redactor still removes it.
    package let minimumLength: Int

    /// GrooveGrow's server key (contract groovegrow-sandbox-v1: "server keys start with `gg_sk_`").
    /// Keys the emulator issues have 32 base62 characters after the prefix; 12 is the floor taken for a real one.
    package static let grooveGrowServerKey = SecretKeyShape(
        kind: "gg_sk", description: "a GrooveGrow server key (gg_sk_…)", prefix: "gg_sk_", minimumLength: 12)
    /// CherrySub's secret key (contract cherrysub-staging-v1: "Secret keys start with `iap_sk_`").
    package static let cherrySubSecretKey = SecretKeyShape(
        kind: "iap_sk", description: "a CherrySub secret key (iap_sk_…)", prefix: "iap_sk_", minimumLength: 12)

    /// Every vendor key shape, in the order an error names them.
    package static let all: [SecretKeyShape] = [grooveGrowServerKey, cherrySubSecretKey]

    /// Whether `byte` can be part of a key after its prefix: ASCII letters, digits, `_` and `-`.
    @inline(__always)
    package static func isKeyCharacter(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F || byte == 0x2D
    }

    /// The length in bytes of this key starting at `i` of `bytes` (prefix included), or nil when
    /// there is none there. With `fullLength`, only a key of at least `minimumLength` key characters
    /// that are not one character repeated (a run of one repeated `x` after `gg_sk_` is a placeholder) counts.
    package func match<C: RandomAccessCollection>(at i: C.Index, in bytes: C, fullLength: Bool) -> Int? where C.Element == UInt8 {
        let p = prefix.utf8
        guard bytes.distance(from: i, to: bytes.endIndex) >= p.count else { return nil }
        var j = i
        for c in p {
            guard bytes[j] == c else { return nil }
            j = bytes.index(after: j)
        }
        let bodyStart = j
        var n = 0
        var distinct = false
        while j != bytes.endIndex, Self.isKeyCharacter(bytes[j]) {
            if bytes[j] != bytes[bodyStart] { distinct = true }
            j = bytes.index(after: j)
            n += 1
        }
        if fullLength { guard n >= minimumLength, distinct else { return nil } } else { guard n >= 1 else { return nil } }
        return p.count + n
    }

    /// `text` with every key of every shape in `shapes` (of any length) replaced by `placeholder(shape)`.
    package static func redact(_ text: String, shapes: [SecretKeyShape] = all, placeholder: (SecretKeyShape) -> String) -> String {
        let bytes = Array(text.utf8)
        let starts = Set(shapes.compactMap { $0.prefix.utf8.first })
        guard bytes.contains(where: starts.contains) else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        outer: while i < bytes.count {
            for shape in shapes {
                if let n = shape.match(at: i, in: bytes, fullLength: false) {
                    out.append(contentsOf: placeholder(shape).utf8)
                    i += n
                    continue outer
                }
            }
            out.append(bytes[i])
            i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }
}
