import Foundation

/// SplitMix64: a tiny deterministic generator, so a failing case can be replayed from its seed and index.
struct FuzzRandom: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func below(_ n: Int) -> Int { n <= 0 ? 0 : Int(next() % UInt64(n)) }

    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
}

/// Byte-level mutations of a valid input, biased towards what breaks parsers:
/// structure characters, escapes, huge numbers, deep nesting, invalid UTF-8, truncation.
enum Mutator {
    static let tokens: [[UInt8]] = [
        "{", "}", "[", "]", "\"", ":", ",", "\\", "\\u0000", "\\ud800", "\\udc00\\ud800", "null", "true", "-", "0", "1e999999",
        "123456789012345678901234567890", "-0.0e-0", "\u{202E}", "<script>", "{{", "}}", "{{#a}}", "{{/a}}", "{{^a}}", "{{>p}}",
        "{{!", "{{=<% %>=}}", "{{{x}}}", "{{&x}}", "'; DROP TABLE journal;--", "|", "\n", "\r\n", "\t", " ",
    ].map { Array($0.utf8) } + [[0x00], [0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x80]]

    /// One to four mutations of `bytes`.
    static func mutate(_ bytes: [UInt8], _ r: inout FuzzRandom) -> [UInt8] {
        var out = bytes
        for _ in 0...r.below(4) { out = once(out, &r) }
        return out
    }

    static func once(_ input: [UInt8], _ r: inout FuzzRandom) -> [UInt8] {
        var out = input
        switch r.below(9) {
        case 0:
            guard !out.isEmpty else { return r.pick(tokens) }
            out[r.below(out.count)] ^= UInt8(truncatingIfNeeded: 1 + r.below(255))
        case 1:
            out = Array(out.prefix(r.below(out.count + 1)))
        case 2:
            out.insert(contentsOf: r.pick(tokens), at: r.below(out.count + 1))
        case 3:
            guard !out.isEmpty else { return out }
            let a = r.below(out.count)
            let b = min(out.count, a + 1 + r.below(16))
            out.removeSubrange(a..<b)
        case 4:
            guard !out.isEmpty else { return out }
            let a = r.below(out.count)
            let b = min(out.count, a + 1 + r.below(32))
            out.insert(contentsOf: out[a..<b], at: r.below(out.count + 1))
        case 5:
            let open = r.pick([UInt8(ascii: "["), UInt8(ascii: "{")])
            let depth = 1 + r.below(300)
            let at = r.below(out.count + 1)
            out.insert(contentsOf: [UInt8](repeating: open, count: depth), at: at)
        case 6:
            guard !out.isEmpty else { return out }
            out[r.below(out.count)] = UInt8(truncatingIfNeeded: r.next())
        case 7:
            let a = r.below(out.count + 1)
            out.replaceSubrange(a..<min(out.count, a + r.below(8)), with: r.pick(tokens))
        default:
            out = Array(out.reversed().prefix(r.below(out.count + 1)).reversed())
        }
        return out
    }
}

/// Output written by an in-process `CLI` run.
final class CapturedOutput: @unchecked Sendable {
    // @unchecked: `out` and `err` are only touched with `lock` held.
    private let lock = NSLock()
    private var out = ""
    private var err = ""

    func appendOut(_ s: String) { lock.withLock { out += s } }
    func appendErr(_ s: String) { lock.withLock { err += s } }
    var stdout: String { lock.withLock { out } }
    var stderr: String { lock.withLock { err } }
}

/// A scratch directory on tmpfs when there is one (fsync is free there, so fuzz loops stay fast).
func fastTempDirectory(_ prefix: String) throws -> URL {
    let shm = URL(fileURLWithPath: "/dev/shm", isDirectory: true)
    var isDir: ObjCBool = false
    let base = FileManager.default.fileExists(atPath: shm.path, isDirectory: &isDir) && isDir.boolValue && FileManager.default.isWritableFile(atPath: shm.path)
        ? shm : FileManager.default.temporaryDirectory
    let dir = base.appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir
}
