import Evidence
import Foundation

/// Reads a file (or stdin) one line at a time, without holding the whole file.
package final class LineReader {
    private let handle: FileHandle
    private let limit: Int
    private let path: String
    private var buffer: [UInt8] = []
    private var start = 0
    private var eof = false

    /// The SHA-256 of every byte read so far, when asked for.
    private var hasher: SHA256Hasher?

    /// A reader of `path` (`-`: stdin) refusing a line longer than `limit` bytes, hashing what it reads when `hashing`.
    package init(path: String, limit: Int, hashing: Bool = false) throws {
        self.path = path
        self.limit = limit
        if hashing { hasher = SHA256Hasher() }
        if path == "-" {
            handle = FileHandle.standardInput
            return
        }
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir), !isDir.boolValue, let h = FileHandle(forReadingAtPath: path) else {
            throw EvidenceError.fileMissing(path: path)
        }
        handle = h
    }

    deinit { if path != "-" { try? handle.close() } }

    /// The SHA-256 of every byte read, lowercase hex (nil when not hashing); call once, at the end.
    package func sha256Hex() -> String? {
        guard let done = hasher.take() else { return nil }
        return Digest.hex(done.finalize())
    }

    /// The next line without its `\n`, or nil at the end.
    package func next() throws -> ArraySlice<UInt8>? {
        while true {
            if let nl = buffer[start...].firstIndex(of: 0x0A) {
                let line = buffer[start..<nl]
                start = nl + 1
                return line
            }
            if buffer.count - start > limit {
                throw EvidenceImportError.lineTooLong(limitMiB: limit / 1_048_576)
            }
            if eof {
                guard start < buffer.count else { return nil }
                let line = buffer[start...]
                start = buffer.count
                return line
            }
            if start > 0 {
                buffer.removeFirst(start)
                start = 0
            }
            let chunk: Data
            do { chunk = try handle.read(upToCount: 1 << 20) ?? Data() } catch {
                throw EvidenceImportError.unreadable(path: path, reason: "\(error)")
            }
            if chunk.isEmpty { eof = true } else {
                hasher?.update(chunk)
                buffer.append(contentsOf: chunk)
            }
        }
    }
}
