import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one way growcert writes a file named by `--out`: it never destroys anything.
///
/// Refused, with nothing written: a path that is not a regular file or a new name (a symbolic
/// link, a FIFO, a device, a socket, a directory where a file is expected); the open evidence
/// database and its `-wal`, `-shm` and `-journal` files (also through another name for the same
/// file); and an existing file unless the command's `--force` was given. The bytes go to a
/// temporary file in the same folder, which then takes the path in one step (`rename`, or `link`
/// when nothing may be replaced), so a reader never sees half a file and a failure leaves the path
/// as it was.
struct OutputFile {
    /// Where the file goes.
    let path: String
    /// Whether an existing regular file may be replaced (`--force`).
    var force = false
    /// Whether the command offers `--force` at all (`keys generate` never replaces a key).
    var offersForce = true
    /// The evidence database in use, whose files are never written over.
    var database: String?
    /// The new file's permissions.
    var mode: mode_t = 0o644

    /// A file written to its temporary name, waiting for `commit` (or `discard`).
    final class Staged {
        let output: OutputFile
        let temporaryPath: String
        private var done = false

        fileprivate init(output: OutputFile, temporaryPath: String) {
            self.output = output
            self.temporaryPath = temporaryPath
        }

        deinit { if !done { unlink(temporaryPath) } }

        /// Puts the file at its path: checks the path again, then renames (or links) the temporary file.
        func commit() throws {
            defer { done = true; unlink(temporaryPath) }
            try output.check()
            let placed = output.force ? rename(temporaryPath, output.path) == 0 : link(temporaryPath, output.path) == 0
            if !placed {
                if errno == EEXIST { throw output.refusal(existing: true) }
                throw CLIError.io("Cannot write '\(output.path)': \(String(cString: strerror(errno))).")
            }
        }

        /// Removes the temporary file; the path stays as it was.
        func discard() {
            done = true
            unlink(temporaryPath)
        }
    }

    /// Checks the path, then writes `bytes` to a temporary file beside it.
    func stage(_ bytes: Data) throws -> Staged {
        try check()
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        let temporary = (folder as NSString).appendingPathComponent(".\(url.lastPathComponent).growcert-\(UUID().uuidString.prefix(8)).tmp")
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode)
        guard fd >= 0 else { throw CLIError.io("Cannot write '\(path)'. Check the folder exists and is writable.") }
        let staged = Staged(output: self, temporaryPath: temporary)
        defer { close(fd) }
        let ok = writeAll(bytes, to: fd) && fchmod(fd, mode) == 0 && fsync(fd) == 0
        guard ok else {
            staged.discard()
            throw CLIError.io("Cannot write '\(path)': \(String(cString: strerror(errno))).")
        }
        return staged
    }

    /// Writes `bytes` to the path (stage, then commit).
    func write(_ bytes: Data) throws {
        try stage(bytes).commit()
    }

    /// Refuses a path that must not be written; returns when writing may go on.
    func check() throws {
        if let database, isDatabaseFile(database) {
            throw CLIError.data("'\(path)' is the evidence database or one of its -wal, -shm, -journal files; growcert never writes output over it. Choose another path. Nothing was written.")
        }
        var st = stat()
        guard lstat(path, &st) == 0 else {
            if errno == ENOENT { return }
            throw CLIError.io("Cannot write '\(path)': \(String(cString: strerror(errno))).")
        }
        switch st.st_mode & S_IFMT {
        case S_IFREG:
            if !force { throw refusal(existing: true) }
        case S_IFDIR:
            throw CLIError.data("'\(path)' is a directory; give the path of a file. Nothing was written.")
        default:
            let kind: String
            switch st.st_mode & S_IFMT {
            case S_IFLNK: kind = "a symbolic link"
            case S_IFIFO: kind = "a FIFO"
            case S_IFCHR: kind = "a character device"
            case S_IFBLK: kind = "a block device"
            case S_IFSOCK: kind = "a socket"
            default: kind = "not a regular file"
            }
            throw CLIError.data("'\(path)' is \(kind); growcert writes output only to a regular file or a new path. Nothing was written.")
        }
    }

    fileprivate func refusal(existing: Bool) -> CLIError {
        offersForce
            ? .data("'\(path)' already exists; give --force to replace it, or choose another path. Nothing was written.")
            : .data("'\(path)' already exists; growcert never replaces it. Choose another path. Nothing was written.")
    }

    /// Whether `path` names the database or one of its companion files, by name (folder resolved)
    /// or, for files that exist, by identity (a hard link or another spelling of the same file).
    private func isDatabaseFile(_ database: String) -> Bool {
        let target = Self.resolved(path)
        var out = stat()
        let outExists = stat(path, &out) == 0
        for suffix in ["", "-wal", "-shm", "-journal"] {
            let candidate = database + suffix
            if Self.resolved(candidate) == target { return true }
            var st = stat()
            if outExists, stat(candidate, &st) == 0, st.st_dev == out.st_dev, st.st_ino == out.st_ino { return true }
        }
        return false
    }

    /// `path` with its folder resolved (symbolic links, `..`), the last component kept as given.
    private static func resolved(_ path: String) -> String {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        guard let real = realpath(folder, nil) else { return url.standardizedFileURL.path }
        defer { free(real) }
        return (String(cString: real) as NSString).appendingPathComponent(url.lastPathComponent)
    }
}

/// Several files written into one folder named by `--out DIR` (`signoff export`, `sandbox purchase`,
/// `report render --format all`), each by `OutputFile`'s rules.
struct OutputFolder {
    let path: String
    let files: [OutputFile]

    init(path: String, names: [String], force: Bool, database: String?) {
        self.path = path
        files = names.map { OutputFile(path: (path as NSString).appendingPathComponent($0), force: force, database: database) }
    }

    /// Refuses, before the command does any work, a path that exists but is not a folder (`notAFolder` says so
    /// in the command's words) and any file in it that may not be written. A folder that does not exist yet is fine.
    func check(notAFolder: String) throws {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else { return }
        guard isDir.boolValue else { throw CLIError.data(notAFolder) }
        for f in files { try f.check() }
    }

    /// Creates the folder (and its parents) if it is missing.
    func create() throws {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw CLIError.io("Cannot write into '\(path)': \(error.localizedDescription)")
        }
    }

    /// Writes `contents` (one per file, in order): the folder is created, every file checked, then each staged
    /// and only then committed, so a refusal leaves the folder as it was. Returns the files' paths.
    func write(_ contents: [Data]) throws -> [String] {
        try create()
        for f in files { try f.check() }
        let staged = try zip(files, contents).map { try $0.stage($1) }
        for s in staged { try s.commit() }
        return files.map(\.path)
    }
}

/// Writes every byte of `bytes` to `fd`, retrying after interruptions; false on an error (see `errno`).
private func writeAll(_ bytes: Data, to fd: Int32) -> Bool {
    bytes.withUnsafeBytes { raw -> Bool in
        guard let base = raw.baseAddress else { return true }
        var offset = 0
        while offset < raw.count {
            let n = write(fd, base + offset, raw.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += n
        }
        return true
    }
}
