import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one way growcert writes an output file (a command's `--out`): it never destroys anything.
///
/// Refused, with nothing written: a path that is not a regular file or a new name (a symbolic
/// link, a FIFO, a device, a socket, a directory where a file is expected); the open evidence
/// database and its `-wal`, `-shm` and `-journal` files (also through another name for the same
/// file); and an existing file unless `force` is set. The bytes go to a
/// temporary file in the same folder, which then takes the path in one step (`rename`, or `link`
/// when nothing may be replaced), so a reader never sees half a file and a failure leaves the path
/// as it was.
package struct OutputFile {
    /// Where the file goes.
    package let path: String
    /// Whether an existing regular file may be replaced (a command's `--force`).
    package var force = false
    /// Whether the caller offers to replace a file at all (`keys generate` never replaces a key).
    package var offersForce = true
    /// The evidence database in use, whose files are never written over.
    package var database: String?
    /// The new file's permissions.
    package var mode: mode_t = 0o644
    /// Where the bytes go when the path is `-` (standard output); nil: this output is never written to standard
    /// output (a private key), and `-` is refused.
    package var standardOutput: (@Sendable (Data) -> Void)? = nil

    /// The path that means standard output, as `--out -`.
    package static let standardOutputPath = "-"

    /// Whether the path is `-`: standard output, never a file named `-`.
    package var isStandardOutput: Bool { path == Self.standardOutputPath }

    /// An output file at `path`; see the properties.
    package init(path: String, force: Bool = false, offersForce: Bool = true, database: String? = nil, mode: mode_t = 0o644,
                standardOutput: (@Sendable (Data) -> Void)? = nil) {
        self.path = path
        self.force = force
        self.offersForce = offersForce
        self.database = database
        self.mode = mode
        self.standardOutput = standardOutput
    }

    /// A file written to its temporary name, waiting for `commit` (or `discard`).
    package final class Staged {
        let output: OutputFile
        let temporaryPath: String
        private var done = false

        fileprivate init(output: OutputFile, temporaryPath: String) {
            self.output = output
            self.temporaryPath = temporaryPath
        }

        deinit { if !done { unlink(temporaryPath) } }

        /// Puts the file at its path: checks the path again, then renames (or links) the temporary file.
        package func commit() throws {
            defer { done = true; unlink(temporaryPath) }
            try output.check()
            let placed = output.force ? rename(temporaryPath, output.path) == 0 : link(temporaryPath, output.path) == 0
            if !placed {
                if errno == EEXIST { throw output.refusal }
                throw OutputError.cannotWrite(path: output.path, reason: String(cString: strerror(errno)))
            }
        }

        /// Removes the temporary file; the path stays as it was.
        package func discard() {
            done = true
            unlink(temporaryPath)
        }
    }

    /// Checks the path, then writes `bytes` to a temporary file beside it.
    package func stage(_ bytes: some ContiguousBytes) throws -> Staged {
        try check()
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        let temporary = (folder as NSString).appendingPathComponent(".\(url.lastPathComponent).growcert-\(UUID().uuidString.prefix(8)).tmp")
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode)
        guard fd >= 0 else { throw OutputError.cannotWrite(path: path, reason: nil) }
        let staged = Staged(output: self, temporaryPath: temporary)
        defer { close(fd) }
        let ok = writeAll(bytes, to: fd) && fchmod(fd, mode) == 0 && fsync(fd) == 0
        guard ok else {
            staged.discard()
            throw OutputError.cannotWrite(path: path, reason: String(cString: strerror(errno)))
        }
        return staged
    }

    /// Writes `bytes` to the path (stage, then commit).
    package func write(_ bytes: Data) throws {
        if isStandardOutput {
            try check()
            standardOutput?(bytes)
            return
        }
        try stage(bytes).commit()
    }

    /// Refuses a path that must not be written; returns when writing may go on.
    package func check() throws {
        if isStandardOutput {
            guard standardOutput != nil else { throw OutputError.notToStandardOutput(path: path) }
            return
        }
        if let database, isDatabaseFile(database) {
            throw OutputError.evidenceDatabase(path: path)
        }
        var st = stat()
        guard lstat(path, &st) == 0 else {
            if errno == ENOENT { return }
            throw OutputError.cannotWrite(path: path, reason: String(cString: strerror(errno)))
        }
        switch st.st_mode & S_IFMT {
        case S_IFREG:
            if !force { throw refusal }
        case S_IFDIR:
            throw OutputError.directory(path: path)
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
            throw OutputError.notRegular(path: path, kind: kind)
        }
    }

    fileprivate var refusal: OutputError { .exists(path: path, replaceable: offersForce) }

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
package struct OutputFolder {
    /// The folder.
    package let path: String
    /// Each file to write into it, in the order of the names given.
    package let files: [OutputFile]

    /// The files `names` in the folder `path`, each replaced only when `force`.
    package init(path: String, names: [String], force: Bool, database: String?) {
        self.path = path
        files = names.map { OutputFile(path: (path as NSString).appendingPathComponent($0), force: force, database: database) }
    }

    /// Refuses, before the command does any work, a path that exists but is not a folder (throwing `notAFolder`,
    /// the caller's own error) and any file in it that may not be written. A folder that does not exist yet is fine.
    package func check(notAFolder: @autoclosure () -> any Error) throws {
        guard path != OutputFile.standardOutputPath else { throw OutputError.folderNotStandardOutput }
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else { return }
        guard isDir.boolValue else { throw notAFolder() }
        for f in files { try f.check() }
    }

    /// Creates the folder (and its parents) if it is missing.
    package func create() throws {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw OutputError.cannotWriteInto(folder: path, reason: error.localizedDescription)
        }
    }

    /// Writes `contents` (one per file, in order): the folder is created, every file checked, then each staged
    /// and only then committed, so a refusal leaves the folder as it was. Returns the files' paths.
    package func write(_ contents: [Data]) throws -> [String] {
        guard path != OutputFile.standardOutputPath else { throw OutputError.folderNotStandardOutput }
        try create()
        for f in files { try f.check() }
        let staged = try zip(files, contents).map { try $0.stage($1) }
        for s in staged { try s.commit() }
        return files.map(\.path)
    }
}

/// Writes every byte of `bytes` to `fd`, retrying after interruptions; false on an error (see `errno`).
private func writeAll(_ bytes: some ContiguousBytes, to fd: Int32) -> Bool {
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

/// Why an output file was not written. The command line words `exists` with its own flag for replacing.
package enum OutputError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file could not be written (`reason` nil: its temporary file could not be created).
    case cannotWrite(path: String, reason: String?)
    /// The folder could not be created.
    case cannotWriteInto(folder: String, reason: String)
    /// The path is the evidence database or one of its companion files.
    case evidenceDatabase(path: String)
    /// The path is a directory where a file is expected.
    case directory(path: String)
    /// The path is a symbolic link, a FIFO, a device or a socket (`kind` says which).
    case notRegular(path: String, kind: String)
    /// A file exists at the path; `replaceable` when the caller offers to replace it.
    case exists(path: String, replaceable: Bool)
    /// `-` (standard output) where the output is never written to standard output (a private key).
    case notToStandardOutput(path: String)
    /// `-` (standard output) where a folder of several files is written.
    case folderNotStandardOutput

    /// What is wrong with the path, and what to do; names no flag.
    package var description: String {
        switch self {
        case .cannotWrite(let path, nil): return "Cannot write '\(path)'. Check the folder exists and is writable."
        case .cannotWrite(let path, let reason?): return "Cannot write '\(path)': \(reason)."
        case .cannotWriteInto(let folder, let reason): return "Cannot write into '\(folder)': \(reason)"
        case .evidenceDatabase(let path):
            return "'\(path)' is the evidence database or one of its -wal, -shm, -journal files; growcert never writes output over it. Choose another path. Nothing was written."
        case .directory(let path): return "'\(path)' is a directory; give the path of a file. Nothing was written."
        case .notRegular(let path, let kind): return "'\(path)' is \(kind); growcert writes output only to a regular file or a new path. Nothing was written."
        case .exists(let path, true): return "'\(path)' already exists; choose another path, or replace it on purpose. Nothing was written."
        case .exists(let path, false): return "'\(path)' already exists; growcert never replaces it. Choose another path. Nothing was written."
        case .notToStandardOutput: return "'-' means standard output, and this is written only to a file (a private key never goes to a terminal or a pipe): give a file's path. Nothing was written."
        case .folderNotStandardOutput: return "'-' means standard output, which holds one file, not a folder of several: give a folder's path. Nothing was written."
        }
    }
}
