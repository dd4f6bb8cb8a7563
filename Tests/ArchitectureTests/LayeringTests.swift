import Foundation
import Testing

/// The layering rules of docs/architecture.md, checked on the source text, so a change that breaks one fails here
/// instead of waiting for a reviewer. Each rule reads `Sources/` of this checkout.
///
/// Two rules still have known exceptions, listed by file below: those lists may only shrink. A file that starts
/// breaking a rule fails the test; so does a listed file that no longer breaks it (take it off the list, so the
/// figure stays true).
@Suite struct LayeringTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Every Swift file under `Sources/<module>/…`, as (path relative to the root, text).
    static func sources(in modules: [String]) throws -> [(path: String, text: String)] {
        var out: [(String, String)] = []
        for module in modules {
            let dir = root.appendingPathComponent("Sources/\(module)")
            guard let walk = FileManager.default.enumerator(at: dir, includingPropertiesForKeys: nil) else { continue }
            for case let url as URL in walk where url.pathExtension == "swift" {
                let rel = String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1))
                out.append((rel, try String(contentsOf: url, encoding: .utf8)))
            }
        }
        return out.sorted { $0.0 < $1.0 }
    }

    /// The modules imported by a file.
    static func imports(_ text: String) -> Set<String> {
        var out: Set<String> = []
        for line in text.split(separator: "\n") {
            let words = line.split(separator: " ").map(String.init)
            guard let i = words.firstIndex(of: "import"), words[..<i].allSatisfy({ $0.hasPrefix("@") || ["internal", "package", "public", "private", "fileprivate"].contains($0) }),
                  i + 1 < words.count else { continue }
            out.insert(words[i + 1])
        }
        return out
    }

    /// The code of a file without its comments (line comments and doc comments), so prose about a rule is not a break of it.
    static func code(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> Substring in
            let trimmed = line.drop { $0 == " " }
            return trimmed.hasPrefix("//") ? "" : line
        }.joined(separator: "\n")
    }

    static func allModules() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Sources").path).sorted()
    }

    /// The Swift library modules: every module but the two executables, the option parser they share, and the C
    /// system libraries (a folder with a `module.modulemap`).
    static func libraries() throws -> [String] {
        try allModules().filter { module in
            !["growcert", "growcert-bench", "ArgumentsKit"].contains(module)
                && !FileManager.default.fileExists(atPath: root.appendingPathComponent("Sources/\(module)/module.modulemap").path)
        }
    }

    @Test func onlyTheStoreTalksToSQLiteOrPostgreSQL() throws {
        var offenders: [String] = []
        for file in try Self.sources(in: try Self.allModules()) where !Self.imports(file.text).isDisjoint(with: ["CSQLite", "CPostgres"]) {
            let isStore = file.path.hasPrefix("Sources/Evidence/")
            let isBenchBaseline = file.path.hasPrefix("Sources/growcert-bench/Raw")
            if !isStore && !isBenchBaseline { offenders.append(file.path) }
        }
        #expect(offenders == [], "only the store (Sources/Evidence) and the bench's raw baselines may import CSQLite or CPostgres")
    }

    @Test func theEvidenceModelIsPureValues() throws {
        let allowed: Set<String> = ["Foundation", "StrictJSON", "RFC3339Time", "SecretShapes", "CCrypto", "CZlib"]
        for file in try Self.sources(in: ["EvidenceModel"]) {
            let extra = Self.imports(file.text).subtracting(allowed)
            #expect(extra.isEmpty, "\(file.path) imports \(extra.sorted()); the model imports no store, network, vendor or CLI module")
        }
    }

    @Test("growcert ships executables only: modules share declarations with package access, none is public API")
    func nothingIsPublic() throws {
        let pattern = try Regex("^\\s*(@[A-Za-z_]+(\\([^)]*\\))?\\s+)*public\\s")
        var offenders: [String] = []
        for file in try Self.sources(in: try Self.allModules()) {
            for line in Self.code(file.text).split(separator: "\n") where line.contains(pattern) {
                offenders.append("\(file.path): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(offenders == [], "declare it package (SE-0386): growcert has no library product, so nothing is public API")
    }

    @Test func noLibraryKnowsTheCommandLine() throws {
        for file in try Self.sources(in: try Self.libraries()) {
            #expect(!Self.imports(file.text).contains("ArgumentsKit"), "\(file.path) imports ArgumentsKit: option parsing belongs to the executables")
        }
    }

    /// The two tables that list the vendors: the registry, and the table of embedded profile files (SwiftPM names each
    /// embedded file's bytes after the file, `PackageResources.<vendor>_json`).
    static let vendorTables: Set<String> = [
        "Sources/Services/Vendors/Vendors.swift",
        "Sources/EvidenceModel/Profiles/EmbeddedProfiles.swift",
    ]

    /// A vendor's own files in `Services` (`Services/Vendors/<Vendor>/`: its entry, pre-flight, emulator purchase, demo),
    /// or one of the two tables.
    static func isVendorsOwn(_ path: String) -> Bool {
        vendorTables.contains(path) || (path.hasPrefix("Sources/Services/Vendors/") && path.split(separator: "/").count > 4)
    }

    @Test func vendorNeutralModulesNameNoVendor() throws {
        let neutral = ["Evidence", "EvidenceModel", "Reports", "HTTPCore", "StoreProof", "Services", "WebView"]
        let pattern = try Regex("(?i)groovegrow|cherrysub")
        var naming: Set<String> = []
        for file in try Self.sources(in: neutral) where !Self.isVendorsOwn(file.path) && Self.code(file.text).contains(pattern) {
            naming.insert(file.path)
        }
        #expect(naming.sorted() == [], "a vendor-neutral file names a vendor: reach the vendor through its registry entry")
    }

    @Test("Outside a vendor's own folder, Services, the CLI and the web view reach a vendor's suite and emulator through Vendors")
    func vendorsAreReachedThroughTheRegistry() throws {
        var offenders: [String] = []
        for file in try Self.sources(in: ["Services", "growcert", "WebView"]) where !Self.isVendorsOwn(file.path) {
            let code = Self.code(file.text)
            if code.contains(try Regex("\\b(GrooveGrowSuite|CherrySubSuite|GrooveGrowEmulator|CherrySubEmulator)\\b")) {
                offenders.append(file.path)
            }
        }
        #expect(offenders == [], "reach a vendor's suite and emulator through Vendors")
    }

    /// The dependencies Package.swift gives a target (`.target(name: "<name>", dependencies: [...])`); nil when no such target is found.
    static func packageDependencies(of target: String) throws -> [String]? {
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let pattern = try Regex("\\.target\\(\\s*name:\\s*\"\(target)\",\\s*dependencies:\\s*\\[([^\\]]*)\\]")
        guard let match = manifest.firstMatch(of: pattern), let list = match.output[1].substring else { return nil }
        return list.matches(of: try Regex("\"([^\"]+)\"")).compactMap { $0.output[1].substring.map(String.init) }
    }

    /// Reports judges and renders what Services reads (issue 26): no file of it imports the store or a database's C
    /// library, or calls a file, process-stream or network API, and Package.swift gives it no dependency on the store.
    @Test func reportsDoesNoIOAndKnowsNoStore() throws {
        let importsAStore = try Regex("^\\s*(@\\w+\\s+)*((internal|package|public|private|fileprivate)\\s+)?import\\s+((typealias|struct|class|enum|protocol|let|var|func)\\s+)?(Evidence|CSQLite|CPostgres)(\\.|\\s|$)")
        let io = ["FileManager", "Data(contentsOf", "String(contentsOf", "FileHandle", "fopen(", "URLSession"]
        var offenders: [String] = []
        for file in try Self.sources(in: ["Reports"]) {
            let code = Self.code(file.text)
            for line in code.split(separator: "\n") where line.contains(importsAStore) {
                offenders.append("\(file.path): \(line.trimmingCharacters(in: .whitespaces))")
            }
            for api in io where code.contains(api) { offenders.append("\(file.path): uses \(api)") }
        }
        let dependencies = try #require(try Self.packageDependencies(of: "Reports"), "Package.swift has no target Reports")
        for store in ["Evidence", "CSQLite", "CPostgres"] where dependencies.contains(store) {
            offenders.append("Package.swift: Reports depends on \(store)")
        }
        #expect(offenders == [], "Reports does no I/O and knows no store: read in Services (ReportReader, ReportTemplates) and pass Reports values")
    }

    /// Only Services builds or judges a report (`ReportBuilder`, from the facts `ReportReader` reads) or loads a user's
    /// templates from a folder: the CLI and the web view call a service.
    @Test func onlyServicesCallsTheReportBuilder() throws {
        var offenders: [String] = []
        for file in try Self.sources(in: try Self.allModules()) where !file.path.hasPrefix("Sources/Reports/") && !file.path.hasPrefix("Sources/Services/") {
            // Not `\b`: Swift's default word boundary is Unicode's, which does not split `ReportBuilder.build`.
            if Self.code(file.text).contains(try Regex("(^|[^A-Za-z0-9_])ReportBuilder([^A-Za-z0-9_]|$)")) { offenders.append(file.path) }
        }
        #expect(offenders == [], "build or judge a report through Services (ReportService, ReportReader)")
    }

    /// No code of a library (every module but the two executables and ArgumentsKit) spells a `growcert …` command line or
    /// one of its flags: errors are data the CLI words, and a report's next steps are worded in `templates/commands.json`.
    @Test func librariesWriteNoCommandLines() throws {
        let commands = "init|campaign|run|evidence|check|report|verify|signoff|journal|status|db|anchor|sandbox|demo|device|account|signer|serve|export|import"
        let pattern = try Regex("\"[^\"\\n]*(growcert (\(commands))\\b|(^|[ (])--[a-z][a-z-]+)")
        var spelling: Set<String> = []
        for file in try Self.sources(in: try Self.libraries()) where Self.code(file.text).contains(pattern) {
            spelling.insert(file.path)
        }
        #expect(spelling.sorted() == [], "a library spells a command line: return an id and values, and word it in the CLI (or, for a report's next step, in templates/commands.json)")
    }
}

/// Every command that writes evidence goes through a service (`Sources/Services`): a command file never calls one of
/// the store's write methods itself, so the rules a write applies live below the command line and tests reach them
/// without a process.
@Suite struct CommandsWriteThroughServicesTests {
    /// The store's write methods (each appends to the journal). Creating or copying a whole database (`init`,
    /// `db copy`) is not a write of evidence and stays in its command.
    static let writes = ["createCampaign", "updateCampaign", "addDevice", "addAccount", "startRun", "finishRun", "abandonRun", "addEvidence",
                         "retract", "storeReport", "addSignoff", "addSigner", "addAnchor", "batch"]

    @Test func everyListedWriteIsOneOfTheStores() throws {
        let store = try LayeringTests.sources(in: ["Evidence"]).map(\.text).joined(separator: "\n")
        for name in Self.writes {
            #expect(store.contains("package func \(name)(") || store.contains("package func \(name)<"), "EvidenceStore has no write method \(name)")
        }
    }

    @Test func noCommandCallsAStoreWriteMethod() throws {
        var offenders: [String] = []
        for file in try LayeringTests.sources(in: ["growcert/Commands"]) {
            let code = LayeringTests.code(file.text)
            // The names a command gives an opened store: `store`, `inv.openStore()`, and any `let s = try inv.openStore()`.
            var receivers = ["store", #"openStore\(\)"#]
            for match in code.matches(of: try Regex(#"let (\w+) = try inv\.openStore\(\)"#)) {
                if let name = match.output[1].substring { receivers.append(String(name)) }
            }
            let pattern = try Regex("(^|[^A-Za-z0-9_])(\(receivers.joined(separator: "|")))\\s*\\.\\s*(\(Self.writes.joined(separator: "|")))\\s*[(<{]")
            if code.contains(pattern) { offenders.append(file.path) }
        }
        #expect(offenders == [], "a command writes to the store directly: call a service in Sources/Services instead")
    }
}
