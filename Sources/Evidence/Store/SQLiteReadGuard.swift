import Foundation

/// How a reader of a SQLite evidence file leaves nothing beside it: the file as it was when an
/// `immutable=1` connection opened it, checked again after each read.
///
/// A connection SQLite opens read-only on a WAL database makes the `-wal` and `-shm` files when they
/// are missing, owned by whoever reads, and cannot remove them when it closes: the database's owner
/// then cannot write. Neither file beside the database means nobody has it open (a writer in WAL
/// mode keeps both while it is open), so the reader opens it `immutable=1`, which makes neither.
///
/// `immutable=1` takes no lock, so a writer that starts meanwhile is not kept from copying its log
/// into the file while it is being read. Each read is therefore checked afterwards: a `-wal` or
/// `-shm` now beside the file, or the file's size, inode or change times moved, mean a writer came,
/// and the read is done again. When the log files are there, the next connection is an ordinary
/// read-only one that shares them (they are the writer's, and SQLite's locks keep the read
/// consistent); after `attempts` tries it is ordinary in any case, and may then make them.
struct SQLiteReadGuard {
    /// How many `immutable=1` tries a read gets before it uses an ordinary read-only connection.
    static let attempts = 4

    let path: String
    private let fingerprint: [Int64]

    /// A connection to read `path` with, and the guard to check its reads with (nil: nothing to check).
    static func connection(path: String, optimistic: Bool) throws -> (Connection, SQLiteReadGuard?) {
        if optimistic, !logFilesExist(path), let fingerprint = fingerprint(of: path) {
            let db = try Connection(readOnlyPath: path, immutable: true)
            return (db, SQLiteReadGuard(path: path, fingerprint: fingerprint))
        }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let folderWritable = access(folder, W_OK) == 0
        let walSize = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
        // In a folder the reader cannot write, a committed log beside the file must still be read, which
        // SQLite does without `immutable` as long as the `-shm` is there too.
        return (try Connection(readOnlyPath: path, immutable: !folderWritable && walSize == 0), nil)
    }

    /// Whether nothing has written the file since the guard was made: no log beside it, and its
    /// device, inode, size and modification and change times (to the nanosecond) the same.
    func stillUnchanged() -> Bool {
        !Self.logFilesExist(path) && Self.fingerprint(of: path) == fingerprint
    }

    static func logFilesExist(_ path: String) -> Bool {
        var st = stat()
        return lstat(path + "-wal", &st) == 0 || lstat(path + "-shm", &st) == 0
    }

    private static func fingerprint(of path: String) -> [Int64]? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return [Int64(st.st_dev), Int64(st.st_ino), Int64(st.st_size), Int64(st.st_mtim.tv_sec), Int64(st.st_mtim.tv_nsec),
                Int64(st.st_ctim.tv_sec), Int64(st.st_ctim.tv_nsec)]
    }
}
