// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "growcert",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "growcert", targets: ["growcert"]),
    ],
    targets: [
        // C libraries from Debian, wrapped as system libraries (module.modulemap + shim.h only).
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CMHD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),

        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CPostgres", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),

        // The shapes of vendor secret keys, one list for the scanner (Evidence) and the redactor (GrowClient).
        .target(name: "SecretShapes"),
        .target(name: "Evidence", dependencies: ["CSQLite", "CPostgres", "CCrypto", "CZlib", "SecretShapes"]),
        .target(name: "StoreProof", dependencies: ["Evidence", "CCrypto"]),
        .target(name: "GrowClient", dependencies: ["SecretShapes", "CCurl", "CCrypto"]),
        .target(name: "Sandbox", dependencies: ["GrowClient", "StoreProof", "CMHD", "CCrypto"]),
        .target(name: "Checks", dependencies: ["GrowClient", "Evidence"]),
        .target(name: "Reports", dependencies: ["Evidence"]),
        .executableTarget(name: "growcert", dependencies: ["Evidence", "StoreProof", "GrowClient", "Checks", "Reports", "Sandbox"]),
        .executableTarget(name: "growcert-bench", dependencies: ["Evidence", "Checks", "Sandbox", "GrowClient", "CSQLite", "CPostgres"]),

        // Helpers shared by test targets (network namespace, test CAs); no @testable imports, nothing of it in the binary.
        .target(name: "TestSupport", path: "Tests/TestSupport"),

        .testTarget(name: "EvidenceTests", dependencies: ["Evidence", "TestSupport"]),
        .testTarget(name: "StoreProofTests", dependencies: ["StoreProof", "Evidence"], resources: [.copy("Fixtures")]),
        .testTarget(name: "GrowClientTests", dependencies: ["GrowClient"]),
        .testTarget(name: "SandboxTests", dependencies: ["Sandbox", "GrowClient", "CCrypto", "TestSupport"]),
        .testTarget(name: "ChecksTests", dependencies: ["Checks", "Sandbox", "GrowClient", "Evidence", "TestSupport"]),
        .testTarget(name: "ReportsTests", dependencies: ["Reports", "Evidence"], exclude: ["__Snapshots__"], resources: [.copy("Fixtures")]),
        .testTarget(name: "growcertTests", dependencies: ["Evidence", "growcert", "Reports", "StoreProof", "Sandbox", "GrowClient", "Checks", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
