import ArgumentsKit
import Evidence
import Foundation
import GrowClient
import HTTPCore
import Reports
import Services
import StoreProof
import StrictJSON

/// One call of a command: its arguments, the environment, and the output streams.
final class Invocation: Sendable {
    let command: Command
    /// The call's words (its options are read through the command's `OptionValues` and `globals`).
    let args: ParsedArguments
    /// The global options of the call (`--db`, `--json`, `--actor`, `--quiet`).
    let globals: OptionValues<GlobalOptions>
    let environment: CallEnvironment
    let console: Console
    let clock: Clock
    /// Verifies App Store JWS. Always anchored at Apple Root CA - G3 in the `growcert` binary: no flag or
    /// environment variable changes it. In-process tests inject a test root through `CLI.jwsVerifier`.
    let jwsVerifier: JWSVerifier
    /// The transport factory for `check run`; nil (always, in the `growcert` binary): a `CurlTransport`.
    /// In-process tests inject one through `CLI.sandboxTransport`.
    let sandboxTransport: SandboxTransportFactory?
    /// What `verify` re-validates recorded server chains against (`CLI.serverTrust`).
    let serverTrust: ServerChainTrust
    /// The folder the command runs in: where the workspace is looked for, walking up.
    let currentFolder: String
    /// Whether the terminal shows progress lines, heartbeats and colour (injected: tests never depend on a TTY).
    let terminal: TerminalStyle

    init(command: Command, args: ParsedArguments, environment: CallEnvironment, console: Console, clock: @escaping Clock,
         jwsVerifier: JWSVerifier = JWSVerifier(), sandboxTransport: SandboxTransportFactory? = nil,
         serverTrust: ServerChainTrust = ServerChainTrust(),
         currentFolder: String = FileManager.default.currentDirectoryPath, terminal: TerminalStyle = .plain) {
        self.command = command
        self.args = args
        let globals = OptionValues<GlobalOptions>(args, command: command.name)
        self.globals = globals
        self.environment = environment
        self.console = console
        self.clock = clock
        self.jwsVerifier = jwsVerifier
        self.sandboxTransport = sandboxTransport
        self.serverTrust = serverTrust
        self.currentFolder = currentFolder
        self.terminal = globals[\.json] ? .plain : terminal
    }

    var json: Bool { globals[\.json] }
    var quiet: Bool { globals[\.quiet] }

    /// The evidence database this call uses, and where that choice came from (`--db`, `GROWCERT_DB`, the
    /// workspace at or above the current folder, else `./growcert.sqlite`).
    var location: DatabaseLocation {
        get throws { try DatabaseLocation.resolve(option: globals[\.db], environment: environment["GROWCERT_DB"], currentFolder: currentFolder) }
    }

    var dbPath: String { get throws { try location.database } }

    /// `given` (the command's `--campaign`), else the workspace's current campaign; nil when neither names one.
    func chosenCampaignId(given: String?) throws -> String? {
        if let given { return given }
        let location = try location
        return location.isWorkspaceDatabase ? location.workspace?.campaign : nil
    }

    /// The campaign a command acts on: `given` (its `--campaign`), else the workspace's current campaign (`campaign
    /// use`), else the only campaign of the database. Refused (64) when the database has several and none is chosen.
    func campaignId(_ store: EvidenceStore, given: String?) throws -> String {
        if let chosen = try chosenCampaignId(given: given) { return chosen }
        let campaigns = try store.campaigns()
        switch campaigns.count {
        case 1: return campaigns[0].id
        case 0: throw CLIError.usage("No campaign yet: record one with 'growcert campaign create'.", command: command.name)
        default:
            throw CLIError.usage("This database has \(campaigns.count) campaigns (\(campaigns.map(\.id).joined(separator: ", "))): give --campaign ID, or choose the current one for this workspace with 'growcert campaign use ID'.", command: command.name)
        }
    }

    var actor: String {
        ActorName.resolve(option: globals[\.actor], environment: environment)
    }

    /// The positional arguments after the command words.
    var positionals: [String] { Array(args.words.dropFirst(command.path.count)) }

    /// The positional argument at `index`, required.
    func positional(_ index: Int, _ what: String) throws -> String {
        guard index < positionals.count else { throw CLIError.usage("Missing \(what).", command: command.name) }
        return positionals[index]
    }

    /// Opens the existing evidence database to record into it (migrating an older schema).
    func openStore() throws -> EvidenceStore {
        let location = try location
        return try explainingMissing(location) { try EvidenceStore.open(at: location.database, actor: actor, clock: clock, maskKey: try maskKey()) }
    }

    /// A missing database, said with where growcert looked (`WorkspaceError.databaseMissing`).
    private func explainingMissing(_ location: DatabaseLocation, _ open: () throws -> EvidenceStore) throws -> EvidenceStore {
        do { return try open() } catch EvidenceError.databaseMissing(let path) {
            guard location.source != .option || location.workspace != nil else { throw EvidenceError.databaseMissing(path: path) }
            throw WorkspaceError.databaseMissing(path: path, source: location.source, workspace: location.workspace)
        }
    }

    /// Opens the existing evidence database to read it only: an auditor's read never writes,
    /// never migrates, and leaves nothing beside the file in a folder it cannot write.
    func openStoreForReading() throws -> EvidenceStore {
        let location = try location
        return try explainingMissing(location) { try EvidenceStore.openForReading(at: location.database, actor: actor, clock: clock) }
    }

    /// The masking key from `GROWCERT_MASK_KEY`, when set (otherwise the store reads its key file).
    func maskKey() throws -> MaskKey? {
        guard let hex = environment["GROWCERT_MASK_KEY"] else { return nil }
        guard let key = MaskKey(hex: hex) else {
            throw CLIError.data("GROWCERT_MASK_KEY must hold the 64 hexadecimal digits of a masking key. Nothing was written.")
        }
        return key
    }

    /// Prints a record: its id, or with `--json` the record as a JSON object.
    func printRecord(_ id: String, _ json: JSONValue, human: String? = nil) {
        if self.json { console.out(json.prettyText + "\n") } else { console.out((human ?? id) + "\n") }
    }

    /// Prints a list: a table, or with `--json` a JSON array; with `csv` (the command's `--csv`), CSV.
    func printList(_ items: [JSONValue], header: [String], rows: [[String]], csv: Bool = false) {
        if csv {
            console.exact(CSVWriter.render(header: header, rows: rows))  // RFC 4180: CRLF and quoting are the format
        } else if json {
            console.out(JSONValue.array(items).prettyText + "\n")
        } else if rows.isEmpty {
            console.out("(none)\n")
        } else {
            console.out(TextTable.render(header: header, rows: rows))
        }
    }

    /// A progress line on stderr, unless `--quiet`.
    func progress(_ line: String) {
        if !quiet { console.err(line + "\n") }
    }

    /// Reads a file named on the command line (`-` for stdin), with a size limit.
    func readInput(_ path: String, limit: Int) throws -> [UInt8] {
        let handle: FileHandle
        let name: String
        if path == "-" {
            handle = FileHandle.standardInput
            name = "stdin"
        } else {
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir), !isDir.boolValue else {
                throw EvidenceError.fileMissing(path: path)
            }
            // A device or a FIFO has no size to check and may never end (/dev/zero): refused as what it is.
            var st = stat()
            if stat(path, &st) == 0, (st.st_mode & S_IFMT) != S_IFREG {
                let kind: String
                switch st.st_mode & S_IFMT {
                case S_IFCHR: kind = "a character device"
                case S_IFBLK: kind = "a block device"
                case S_IFIFO: kind = "a FIFO (named pipe)"
                case S_IFSOCK: kind = "a socket"
                default: kind = "not a regular file"
                }
                throw CLIError.data("'\(path)' is \(kind), not a regular file: growcert reads input from regular files, or from stdin with '-'. Nothing was written.")
            }
            guard let file = FileHandle(forReadingAtPath: path) else { throw EvidenceError.fileMissing(path: path) }
            handle = file
            name = path
        }
        defer { if path != "-" { try? handle.close() } }
        // Read at most one byte past the limit, so an oversized input is refused without holding it all.
        let data: Data
        do { data = try handle.read(upToCount: limit + 1) ?? Data() } catch {
            throw CLIError.io("Cannot read '\(name)': \(error.localizedDescription)")
        }
        if data.count > limit {
            let size = path == "-" ? data.count : ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? data.count)
            throw EvidenceError.fileTooLarge(path: name, size: size, limit: limit)
        }
        return [UInt8](data)
    }

    /// Reads a UTF-8 text file.
    func readText(_ path: String, limit: Int, what: String) throws -> String {
        let bytes = try readInput(path, limit: limit)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw CLIError.data("\(what) '\(path)' is not valid UTF-8 text. Nothing was written.")
        }
        return text
    }
}

/// Where output goes; tests can capture it.
///
/// Everything printed goes through `out` or `err`, which make control and bidirectional
/// characters visible (`TextSafety.terminal`): a recorded name holding `\r ESC[2K` cannot
/// rewrite the line it is printed on. JSON output has none left to make visible (its writer
/// escapes them). Only `exact` writes text unchanged: a report's own bytes (`report show`,
/// `report render` without `--out`), whose formats already escape what they hold.
struct Console: Sendable {
    private let writeOut: @Sendable (String) -> Void
    private let writeErr: @Sendable (String) -> Void
    private let writeBytes: @Sendable (Data) -> Void

    /// A console writing to `out` and `err` (tests capture them); `bytes` writes raw bytes to standard output
    /// (`--out -`), by default through `out` as UTF-8 text.
    init(out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void, bytes: (@Sendable (Data) -> Void)? = nil) {
        writeOut = out
        writeErr = err
        writeBytes = bytes ?? { out(String(decoding: $0, as: UTF8.self)) }
    }

    /// Writes `data` to standard output unchanged: an output file's bytes (`--out -`).
    var standardOutput: @Sendable (Data) -> Void { writeBytes }

    /// Prints human-readable text (or JSON) on standard output, hidden characters made visible.
    func out(_ text: String) { writeOut(TextSafety.terminal(text)) }

    /// Prints a message on standard error, hidden characters made visible; `raw`: `text` is already made safe
    /// and holds growcert's own colour codes (`TerminalStyle.paint`), written unchanged.
    func err(_ text: String, raw: Bool = false) { writeErr(raw ? text : TextSafety.terminal(text)) }

    /// Prints text on standard output that is already made safe and holds growcert's own colour codes.
    func outPainted(_ text: String) { writeOut(text) }

    /// Writes `text` to standard output unchanged: a report's exact bytes.
    func exact(_ text: String) { writeOut(text) }

    static let standard = Console(
        out: { FileHandle.standardOutput.write(Data($0.utf8)) },
        err: { FileHandle.standardError.write(Data($0.utf8)) },
        bytes: { FileHandle.standardOutput.write($0) })
}

/// Plain-text tables for list output.
enum TextTable {
    /// Columns padded to their widest cell; each cell kept to one line (`TextSafety.singleLine`).
    static func render(header: [String], rows: [[String]]) -> String {
        let all = ([header] + rows).map { $0.map(TextSafety.singleLine) }
        let widths = header.indices.map { c in all.map { $0.indices.contains(c) ? $0[c].count : 0 }.max() ?? 0 }
        return all.map { row in
            row.enumerated().map { c, cell in c == row.count - 1 ? cell : cell.padding(toLength: widths[c], withPad: " ", startingAt: 0) }
                .joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }
}
