import Foundation

/// The secret key of the keyed hashes that stand for store-account addresses and device
/// identifiers (HMAC-SHA-256), kept outside the database file.
///
/// The database records only the key's id (its SHA-256), so a copy of the `.sqlite` alone
/// cannot be used to test candidate addresses against the stored hashes. The key lives in a
/// key file beside the database (`growcert.sqlite` → `growcert.key`, mode 0600) or is passed
/// in by the caller (the CLI reads it from the environment).
package struct MaskKey: Sendable, Equatable {
    let bytes: [UInt8]

    /// A key from its 64 hexadecimal digits (a key file's content, surrounding white space ignored).
    package init?(hex: String) {
        let text = hex.trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.utf8.count == 64, text.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) || ($0 >= 0x41 && $0 <= 0x46) }) else {
            return nil
        }
        bytes = EvidenceStore.bytes(fromHex: text)
    }

    init(bytes: [UInt8]) { self.bytes = bytes }

    /// A new random key.
    static func random() throws -> MaskKey { MaskKey(bytes: try Digest.randomBytes(32)) }

    /// What the journal records: the SHA-256 of the key, which reveals nothing of it.
    package var id: String { Digest.sha256Hex(bytes) }

    var hex: String { Digest.hex(bytes) }

    /// The key file of the database at `databasePath`: same folder and name, extension `.key`
    /// (for a PostgreSQL URL, the database's name and `.key`, in the current folder).
    package static func filePath(forDatabase databasePath: String) -> String {
        // A PostgreSQL database NAME has no folder of its own: its key file is NAME.key in the current folder.
        if let location = try? PostgresLocation(databasePath) { return location.databaseName + ".key" }
        let url = URL(fileURLWithPath: databasePath)
        let base = url.deletingPathExtension().lastPathComponent
        return url.deletingLastPathComponent().appendingPathComponent(base + ".key").path
    }

    /// The key in `path`, nil when there is no such file.
    static func read(from path: String) throws -> MaskKey? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path), data.count <= 1024,
              let key = MaskKey(hex: String(decoding: data, as: UTF8.self)) else {
            throw EvidenceError.invalidValue(field: "masking key file", value: path, why: "it must hold the 64 hexadecimal digits of a key. Nothing was written.")
        }
        return key
    }

    /// Writes the key to a new file at `path`, readable by its owner only (0600). Returns the key
    /// in the file when another process made it first.
    static func create(_ key: MaskKey, at path: String) throws -> MaskKey {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if fd < 0 {
            if errno == EEXIST, let existing = try read(from: path) { return existing }
            throw EvidenceError.io("Cannot create the masking key file '\(path)': \(String(cString: strerror(errno))). Nothing was written; check that the folder is writable.")
        }
        defer { close(fd) }
        let text = Array((key.hex + "\n").utf8)
        let written = text.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == text.count, fsync(fd) == 0 else {
            unlink(path)
            throw EvidenceError.io("Cannot write the masking key file '\(path)'. Nothing was written; check the disk.")
        }
        return key
    }
}
