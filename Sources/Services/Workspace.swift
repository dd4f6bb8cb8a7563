import Foundation
import StrictJSON
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A growcert workspace, the way git has one: the folder where `init` ran, marked by a `growcert.workspace` file
/// that names the evidence database by absolute path (or `postgresql://` URL, never with a password) and the
/// workspace's current campaign.
///
/// Every command run in that folder or below finds it by walking up (`find(from:)`), so a database is never looked
/// for relative to whatever folder a command happens to run in. The file holds no secret: a URL with a password is
/// refused by the store before `init` writes anything.
package struct Workspace: Sendable, Equatable {
    /// The workspace file's name.
    package static let fileName = "growcert.workspace"

    /// The folder holding the workspace file (absolute).
    package let folder: String
    /// The evidence database: an absolute path or a `postgresql://` URL.
    package var database: String
    /// The current campaign (`campaign use`), if any.
    package var campaign: String?

    /// A workspace in `folder` naming `database`.
    package init(folder: String, database: String, campaign: String? = nil) {
        self.folder = folder
        self.database = database
        self.campaign = campaign
    }

    /// The workspace file's path.
    package var path: String { (folder as NSString).appendingPathComponent(Self.fileName) }

    /// The file's bytes: pretty JSON, sorted keys.
    package var json: JSONValue {
        ["database": .string(database), "campaign": .optional(campaign),
         "about": "growcert workspace: commands run in this folder or below use this evidence database (and campaign)."]
    }

    /// The nearest workspace at `start` or above it; nil when no folder up to `/` holds one.
    package static func find(from start: String) throws -> Workspace? {
        var folder = URL(fileURLWithPath: start).standardizedFileURL.path
        while true {
            let candidate = (folder as NSString).appendingPathComponent(fileName)
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDir), !isDir.boolValue {
                // As git's safe.directory: a workspace file another user owns (planted in a shared folder such as
                // /tmp) would send this user's evidence into that user's database. Refused, never followed.
                var st = stat()
                if lstat(candidate, &st) == 0, st.st_uid != getuid() {
                    throw WorkspaceError.notOwned(path: candidate)
                }
                return try read(folder: folder)
            }
            let parent = (folder as NSString).deletingLastPathComponent
            if parent == folder || parent.isEmpty { return nil }
            folder = parent
        }
    }

    /// Reads the workspace file in `folder`.
    package static func read(folder: String) throws -> Workspace {
        let path = (folder as NSString).appendingPathComponent(fileName)
        guard let data = FileManager.default.contents(atPath: path) else { throw WorkspaceError.unreadable(path: path, reason: "cannot be read") }
        guard data.count <= 65_536, let value = try? JSONValue.parse(data), let database = value["database"]?.stringValue,
              !database.isEmpty, DatabaseLocation.isURL(database) || database.hasPrefix("/") else {
            throw WorkspaceError.unreadable(path: path, reason: "is not a workspace file (a JSON object naming the database by absolute path or URL)")
        }
        let campaign = value["campaign"]?.stringValue
        return Workspace(folder: folder, database: database, campaign: campaign?.isEmpty == true ? nil : campaign)
    }

    /// Writes (or replaces) the workspace file.
    package func write() throws {
        try OutputFile(path: path, force: true).write(Data((json.prettyText + "\n").utf8))
    }
}

/// Which evidence database a command uses, and why: `--db`, else `GROWCERT_DB`, else the workspace's, else
/// `./growcert.sqlite` (only `init` creates it).
package struct DatabaseLocation: Sendable, Equatable {
    /// Where the choice came from.
    package enum Source: Sendable, Equatable {
        /// Given for this call (`--db`).
        case option
        /// From the environment (`GROWCERT_DB`).
        case environment
        /// Named by the workspace found at or above the current folder.
        case workspace
        /// Nothing named one: the default file in the current folder.
        case defaultFile
    }

    /// The default database file's name, in the current folder.
    package static let defaultFileName = "growcert.sqlite"

    /// The database: a path (as given, or absolute) or a URL.
    package let database: String
    /// Where it came from.
    package let source: Source
    /// The workspace at or above the current folder, if any (whether or not it named the database).
    package let workspace: Workspace?
    /// The folder the call runs in, against which a relative `database` is read.
    package let currentFolder: String

    /// Whether the workspace (if any) names this very database: only then does its current campaign apply.
    package var isWorkspaceDatabase: Bool {
        guard let workspace else { return false }
        return Self.same(workspace.database, Self.absolute(database, folder: currentFolder))
    }

    /// Whether `text` names a PostgreSQL database rather than a file.
    package static func isURL(_ text: String) -> Bool {
        let lower = text.lowercased()
        return lower.hasPrefix("postgresql://") || lower.hasPrefix("postgres://")
    }

    /// The database a call uses. `option` is `--db`'s value, `environment` `GROWCERT_DB`'s (each nil when not
    /// given), `currentFolder` where the command runs. An empty `--db` or `GROWCERT_DB` is refused; so is a relative
    /// `GROWCERT_DB` that, from a sub-folder of a workspace, names no database (it was meant for another folder).
    package static func resolve(option: String?, environment: String?, currentFolder: String) throws -> DatabaseLocation {
        // A workspace that cannot be followed (unreadable, another user's) stops only a call that relies on it.
        let found = Result { try Workspace.find(from: currentFolder) }
        let workspace = try? found.get()
        if let option {
            guard !option.isEmpty else { throw WorkspaceError.emptyDatabase(fromEnvironment: false) }
            return DatabaseLocation(database: option, source: .option, workspace: workspace, currentFolder: currentFolder)
        }
        if let environment {
            guard !environment.isEmpty else { throw WorkspaceError.emptyDatabase(fromEnvironment: true) }
            if let workspace, !isURL(environment), !environment.hasPrefix("/"),
               standardized(currentFolder) != standardized(workspace.folder) {
                let here = standardized((currentFolder as NSString).appendingPathComponent(environment))
                if !FileManager.default.fileExists(atPath: here) {
                    throw WorkspaceError.relativeEnvironment(value: environment, resolved: here, workspace: workspace)
                }
            }
            return DatabaseLocation(database: environment, source: .environment, workspace: workspace, currentFolder: currentFolder)
        }
        if let workspace = try found.get() { return DatabaseLocation(database: workspace.database, source: .workspace, workspace: workspace, currentFolder: currentFolder) }
        return DatabaseLocation(database: (currentFolder as NSString).appendingPathComponent(defaultFileName), source: .defaultFile, workspace: nil,
                                currentFolder: currentFolder)
    }

    /// `database` as a workspace file names it: a URL as it is, a path made absolute against `folder`.
    package static func absolute(_ database: String, folder: String) -> String {
        isURL(database) || database.hasPrefix("/") ? database : standardized((folder as NSString).appendingPathComponent(database))
    }

    /// Whether two absolute paths (or URLs) name one database.
    static func same(_ a: String, _ b: String) -> Bool {
        if isURL(a) || isURL(b) { return a == b }
        return resolvedPath(a) == resolvedPath(b)
    }

    static func standardized(_ path: String) -> String { URL(fileURLWithPath: path).standardizedFileURL.path }

    /// `path` with symbolic links resolved where they exist (`/tmp` and `/private/tmp` are one folder).
    static func resolvedPath(_ path: String) -> String { URL(fileURLWithPath: path).resolvingSymlinksInPath().path }
}

/// Why a database or a workspace could not be used. The command line words these with its flags.
package enum WorkspaceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `--db ''` (or `GROWCERT_DB=` when `fromEnvironment`).
    case emptyDatabase(fromEnvironment: Bool)
    /// A relative `GROWCERT_DB` that names no database from this sub-folder of `workspace`.
    case relativeEnvironment(value: String, resolved: String, workspace: Workspace)
    /// A workspace file that cannot be read.
    case unreadable(path: String, reason: String)
    /// A workspace file owned by another user.
    case notOwned(path: String)
    /// `init` in a folder whose workspace file names another database.
    case otherDatabase(workspace: Workspace, requested: String)
    /// A current campaign was asked for where no workspace names the database in use.
    case noWorkspace(database: String)
    /// No database at `path`, chosen by `source`; `workspace` is the one at or above the current folder, if any.
    case databaseMissing(path: String, source: DatabaseLocation.Source, workspace: Workspace?)

    /// Each case's only words: the command line prints them as they are and adds after them only the flag or
    /// command that fixes it (`growcert/CLI/DomainError+CLI.swift`).
    package var description: String {
        let file = Workspace.fileName
        switch self {
        case .emptyDatabase(fromEnvironment: true):
            return "GROWCERT_DB is set but empty: set it to the evidence database's path or postgresql:// URL, or unset it to use the database of the \(file) in this folder or above."
        case .emptyDatabase(fromEnvironment: false):
            return "The evidence database's path is empty: give its path or postgresql:// URL, or none to use the database of the \(file) in this folder or above."
        case .relativeEnvironment(let value, let resolved, let workspace):
            return "GROWCERT_DB is the relative path '\(value)', which names '\(resolved)' from this folder, and there is no database there. "
                + "This folder is inside the workspace '\(workspace.folder)', whose database is '\(workspace.database)': unset GROWCERT_DB "
                + "to use it, or set GROWCERT_DB to an absolute path. Nothing was done."
        case .unreadable(let path, let reason):
            return "The workspace file '\(path)' \(reason). Fix or remove it, or name the database another way. Nothing was done."
        case .notOwned(let path):
            return "The workspace file '\(path)' belongs to another user, so growcert does not follow it (it could send your evidence into their database). "
                + "Remove it if it is not yours, or name the database another way. Nothing was done."
        case .otherDatabase(let workspace, let requested):
            return "This folder's \(file) names the evidence database '\(workspace.database)', not '\(requested)'. One folder is one workspace: "
                + "make another database's workspace in another folder. Nothing was created."
        case .noWorkspace(let database):
            return "No \(file) names the database '\(database)', so there is nowhere to keep a current campaign."
        case .databaseMissing(let path, .workspace, let workspace?):
            return "The workspace file '\(workspace.path)' names the evidence database '\(path)', which does not exist: it was moved or deleted. "
                + "Put it back, or name the database where it is now. Nothing was done."
        case .databaseMissing(let path, .defaultFile, _):
            let folder = String(path.dropLast(DatabaseLocation.defaultFileName.count + 1))
            return "No evidence database here: no \(file) in '\(folder)' or any folder above it."
        case .databaseMissing(let path, _, let workspace?):
            return "No evidence database at '\(path)'. This folder is inside the workspace '\(workspace.folder)', whose database is '\(workspace.database)': "
                + "name no other database to use it, or name an existing one. Nothing was done."
        case .databaseMissing(let path, _, nil):
            return "No evidence database at '\(path)'."
        }
    }
}
