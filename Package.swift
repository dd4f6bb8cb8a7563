// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "growcert",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "growcert", targets: ["growcert"]),
    ],
    targets: [
        // C libraries from Debian, wrapped as system libraries (module.modulemap + shim.h only). Their headers and
        // libraries are in the system's own directories, so no pkgConfig: its `-L/usr/lib/<triple>` would come ahead
        // of the release build's `-L` to the libraries' static archives (scripts/static-c-libs.sh, Makefile).
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CCrypto", providers: [.apt(["libssl-dev"])]),
        // libmicrohttpd, libcurl and libpq: headers only, no pkgConfig (its libs would link them); CLazyLibraries opens
        // each on first use.
        .systemLibrary(name: "CMHD", providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),

        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CPostgres", providers: [.apt(["libpq-dev"])]),
        // Our own C: the libpq, libcurl and libmicrohttpd functions growcert calls, each forwarding to the library
        // opened with dlopen on first use, and a load check per library; a command loads only the libraries it uses.
        .target(name: "CLazyLibraries"),

        // The shapes of vendor secret keys, one list for the scanner (Evidence) and the redactor (HTTPCore, given them by each vendor).
        .target(name: "SecretShapes"),
        // RFC 3339 timestamps, written and read in one place (evidence stamps, store dates, emulator answers).
        .target(name: "RFC3339Time"),
        // Strict JSON with exact numbers (JSONValue), its canonical text, and the characters no reader sees unescaped.
        .target(name: "StrictJSON"),
        // The evidence model: records, details, provenance, profiles and their rules. Pure values, no I/O.
        .target(name: "EvidenceModel", dependencies: ["CCrypto", "CZlib", "SecretShapes", "RFC3339Time", "StrictJSON"],
                resources: [.embedInCode("Profiles/builtin")]),
        // The evidence store (SQLite or PostgreSQL) and its audit; re-exports the model.
        .target(name: "Evidence", dependencies: ["EvidenceModel", "CSQLite", "CPostgres", "CLazyLibraries", "CCrypto", "CZlib", "SecretShapes", "RFC3339Time", "StrictJSON"]),
        // Store transaction authenticity; knows no evidence, so the emulator (Sandbox) links no evidence store.
        .target(name: "StoreProof", dependencies: ["StrictJSON", "CCrypto", "RFC3339Time"]),
        // The vendor-neutral HTTP core: transports, transcripts, redaction, the live-hosted rule.
        .target(name: "HTTPCore", dependencies: ["SecretShapes", "CCurl", "CLazyLibraries", "CCrypto"]),
        .target(name: "GrowClient", dependencies: ["HTTPCore", "SecretShapes"]),
        .target(name: "CherryClient", dependencies: ["HTTPCore", "SecretShapes", "RFC3339Time"]),
        .target(name: "Sandbox", dependencies: ["HTTPCore", "GrowClient", "CherryClient", "StoreProof", "SecretShapes", "CMHD", "CLazyLibraries", "CCrypto", "RFC3339Time"]),
        .target(name: "Checks", dependencies: ["HTTPCore", "GrowClient", "CherryClient", "Evidence", "RFC3339Time", "StrictJSON"]),
        .target(name: "Reports", dependencies: ["EvidenceModel", "StrictJSON"], resources: [.embedInCode("Templates/builtin")]),
        // The option parser both executables use: commands and options declared once, checked, and their --help.
        .target(name: "ArgumentsKit"),
        .target(name: "QRCode"),
        // What the commands do, callable without a process: check runs with their pre-flights, verify, reports, the demo,
        // sandbox purchases, anchors, output files. Knows no flag and no exit code (the CLI maps its errors).
        .target(name: "Services", dependencies: ["Evidence", "StrictJSON", "StoreProof", "HTTPCore", "GrowClient", "CherryClient", "Checks", "Reports", "Sandbox"]),
        // The web view (`growcert serve`): read-only pages and their JSON twins, and per-run share links, on the emulator's
        // libmicrohttpd kit (Sandbox's HTTPServer). Its HTTP handlers call services; it knows no flag or exit code.
        .target(name: "WebView", dependencies: ["Services", "Evidence", "Reports", "Sandbox", "StoreProof", "StrictJSON", "QRCode", "RFC3339Time"],
                resources: [.embedInCode("Files/builtin")]),
        .executableTarget(name: "growcert", dependencies: ["ArgumentsKit", "QRCode", "Services", "WebView", "Evidence", "StrictJSON", "StoreProof", "GrowClient", "Checks", "Reports", "Sandbox"]),
        .executableTarget(name: "growcert-bench", dependencies: ["ArgumentsKit", "Evidence", "StrictJSON", "Checks", "Sandbox", "HTTPCore", "GrowClient", "CSQLite", "CPostgres", "CLazyLibraries"]),

        // Helpers shared by test targets (network namespace, test CAs); no @testable imports, nothing of it in the binary.
        .target(name: "TestSupport", path: "Tests/TestSupport"),

        .testTarget(name: "EvidenceTests", dependencies: ["Evidence", "EvidenceModel", "StrictJSON", "RFC3339Time", "TestSupport", "CCrypto", "SecretShapes"], resources: [.copy("Fixtures")]),
        .testTarget(name: "StoreProofTests", dependencies: ["StoreProof", "StrictJSON"], resources: [.copy("Fixtures")]),
        .testTarget(name: "GrowClientTests", dependencies: ["HTTPCore", "GrowClient"]),
        .testTarget(name: "CherryClientTests", dependencies: ["HTTPCore", "CherryClient"]),
        .testTarget(name: "SandboxTests", dependencies: ["Sandbox", "HTTPCore", "GrowClient", "CherryClient", "CCrypto", "TestSupport"], resources: [.copy("Fixtures")]),
        .testTarget(name: "ChecksTests", dependencies: ["Checks", "Sandbox", "HTTPCore", "GrowClient", "CherryClient", "Evidence", "StrictJSON", "TestSupport"]),
        .testTarget(name: "ArgumentsKitTests", dependencies: ["ArgumentsKit", "growcert-bench", "TestSupport"]),
        .testTarget(name: "ServicesTests", dependencies: ["Services", "Checks", "Evidence", "Reports", "StoreProof", "StrictJSON", "GrowClient", "HTTPCore", "TestSupport"]),
        .testTarget(name: "ReportsTests", dependencies: ["Reports", "Services", "Evidence", "StrictJSON", "TestSupport"], exclude: ["__Snapshots__"], resources: [.copy("Fixtures")]),
        // The layering rules of docs/architecture.md, checked on the source text.
        .testTarget(name: "ArchitectureTests"),
        .testTarget(name: "WebViewTests", dependencies: ["WebView", "Services", "Evidence", "StrictJSON", "Sandbox"]),
        .testTarget(name: "QRCodeTests", dependencies: ["QRCode"], resources: [.copy("Fixtures")]),
        .testTarget(name: "growcertTests", dependencies: ["ArgumentsKit", "Evidence", "StrictJSON", "growcert", "Services", "Reports", "StoreProof", "Sandbox", "HTTPCore", "GrowClient", "CherryClient", "TestSupport", "CLazyLibraries"], resources: [.copy("Fixtures")]),
    ],
    swiftLanguageModes: [.v6]
)
