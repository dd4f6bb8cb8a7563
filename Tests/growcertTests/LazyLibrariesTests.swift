import CLazyLibraries
import Foundation
import Testing

/// libpq, libcurl and libmicrohttpd are opened on first use (CLazyLibraries), not linked: a command loads only the
/// libraries it uses, and a missing one is a clear error from the command that needs it, never a failure to start.
@Suite struct LazyLibrariesTests {
    static let lazy = ["libpq.so", "libcurl.so", "libmicrohttpd.so"]

    @Test func theBinaryNeedsNeitherLibpqNorLibcurlNorLibmicrohttpd() throws {
        let readelf = try Growcert.tool(["readelf"], install: "apt-get install binutils")
        let g = try Growcert()
        let o = try g.execute(readelf, ["-d", Growcert.binary], env: [:])
        try #require(o.code == 0, "\(o)")
        let needed = o.stdout.split(separator: "\n").filter { $0.contains("(NEEDED)") }.map(String.init)
        #expect(needed.contains { $0.contains("libsqlite3.so") }, "readelf listed no NEEDED entry we know: \(o.stdout)")
        for library in Self.lazy {
            #expect(!needed.contains { $0.contains(library) }, "\(library) is linked: \(needed)")
        }
    }

    @Test func aOneNoteWriteLoadsNoneOfThem() throws {
        let g = try Growcert()
        try g.seed()
        let o = try g.run(["evidence", "add", "note", "--run", "r1", "--text", "Bought gold_monthly"], env: ["LD_DEBUG": "files"])
        try #require(o.code == 0, "\(o)")
        let loaded = o.stderr.split(separator: "\n").filter { $0.contains("file=") }.map(String.init)
        #expect(loaded.contains { $0.contains("libsqlite3.so") }, "LD_DEBUG=files reported no library: \(o.stderr.prefix(2000))")
        for library in Self.lazy {
            #expect(!loaded.contains { $0.contains(library) }, "\(library) was loaded: \(loaded)")
        }
    }

    /// A directory whose `name` is not a shared object: with it first on LD_LIBRARY_PATH, the library cannot be loaded.
    static func brokenLibrary(_ name: String, in g: Growcert) throws -> [String: String] {
        let dir = g.path("broken-libraries")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try Data("not a shared object\n".utf8).write(to: URL(fileURLWithPath: "\(dir)/\(name)"))
        return ["LD_LIBRARY_PATH": dir]
    }

    @Test func withoutLibpqASQLiteStoreStillWorksAndAPostgreSQLStoreIsAClearError() throws {
        let g = try Growcert()
        let env = try Self.brokenLibrary("libpq.so.5", in: g)
        try #require(try g.run(["init"], env: env).code == 0)
        let o = try g.run(["--db", "postgresql://growcert@127.0.0.1:9/evidence", "journal", "list"], db: false, env: env)
        #expect(o.code != 0 && o.code < 128, "\(o)")
        #expect(o.stderr.contains("could not load libpq.so.5 ("), "\(o)")
        #expect(o.stderr.contains("PostgreSQL stores need the libpq5 package"), "\(o)")
    }

    @Test func withoutLibmicrohttpdTheEmulatorIsAClearError() throws {
        let g = try Growcert()
        let env = try Self.brokenLibrary("libmicrohttpd.so.12", in: g)
        let o = try g.run(["sandbox", "serve", "--port", "0"], db: false, env: env)
        #expect(o.code != 0 && o.code < 128, "\(o)")
        #expect(o.stderr.contains("could not load libmicrohttpd.so.12 ("), "\(o)")
        #expect(o.stderr.contains("need the libmicrohttpd12 package"), "\(o)")
    }

    @Test func withoutLibcurlARequestIsAClearError() throws {
        let g = try Growcert()
        let env = try Self.brokenLibrary("libcurl.so.4", in: g)
        let o = try g.run(["demo"], env: env)
        #expect(o.code != 0 && o.code < 128, "\(o)")
        #expect(o.stderr.contains("could not load libcurl.so.4 ("), "\(o)")
        #expect(o.stderr.contains("requests over HTTP need the libcurl4 package"), "\(o)")
    }

    @Test func theLoaderNamesTheLibraryItCouldNotOpenAndWhy() throws {
        let failure = try #require(Self.probe("libgrowcert-missing.so.7", symbol: "anything", package: "libgrowcert-missing7"))
        #expect(failure.hasPrefix("growcert could not load libgrowcert-missing.so.7 (libgrowcert-missing.so.7: cannot open shared object file"))
        #expect(failure.hasSuffix("): these tests need the libgrowcert-missing7 package"), "\(failure)")
    }

    @Test func theLoaderNamesASymbolTheLibraryLacks() throws {
        let failure = try #require(Self.probe("libz.so.1", symbol: "growcert_no_such_function", package: "zlib1g"))
        #expect(failure.contains("could not load libz.so.1 ("), "\(failure)")
        #expect(failure.contains("undefined symbol: growcert_no_such_function"), "\(failure)")
        #expect(Self.probe("libz.so.1", symbol: "zlibVersion", package: "zlib1g") == nil)
    }

    /// The script that writes the release build's linker scripts.
    static let staticCLibsScript = Growcert.packageRoot.appendingPathComponent("scripts/static-c-libs.sh").path

    /// The release build (Makefile, `RELEASE_BUILD`) links SQLite, libcrypto and zlib from their static archives through
    /// the linker scripts `scripts/static-c-libs.sh` writes: each names an archive that exists, and a program linked with
    /// `-L` to them and `-lsqlite3` needs no libsqlite3.so, yet calls SQLite.
    @Test func theReleaseBuildsLinkerScriptsNameStaticArchivesThatLinkIn() throws {
        let g = try Growcert()
        let dir = g.path("static-c-libs")
        let written = try g.execute("/bin/sh", [Self.staticCLibsScript, dir], env: [:])
        try #require(written.code == 0, "\(written)")
        for library in ["sqlite3", "crypto", "z"] {
            let text = try String(contentsOfFile: "\(dir)/lib\(library).so", encoding: .utf8)
            #expect(text.hasPrefix("INPUT(/") && text.hasSuffix("/lib\(library).a)\n"), "lib\(library).so: \(text)")
            let archive = String(text.dropFirst("INPUT(".count).dropLast(2))
            #expect(FileManager.default.fileExists(atPath: archive), "\(archive)")
        }
        let clang = try Growcert.tool(["clang", "cc"], install: "the Swift toolchain's clang")
        let source = g.path("version.c")
        try Data("#include <sqlite3.h>\n#include <stdio.h>\nint main(void) { puts(sqlite3_libversion()); return 0; }\n".utf8)
            .write(to: URL(fileURLWithPath: source))
        let program = g.path("version")
        let built = try g.execute(clang, [source, "-o", program, "-L\(dir)", "-lsqlite3", "-lm"], env: [:])
        try #require(built.code == 0, "\(built)")
        let readelf = try Growcert.tool(["readelf"], install: "apt-get install binutils")
        let needed = try g.execute(readelf, ["-d", program], env: [:])
        try #require(needed.code == 0 && needed.stdout.contains("(NEEDED)"), "\(needed)")
        #expect(!needed.stdout.contains("libsqlite3.so"), "\(needed.stdout)")
        let ran = try g.execute(program, [], env: [:])
        #expect(ran.code == 0 && ran.stdout.hasPrefix("3."), "\(ran)")
    }

    /// Where the compiler finds no static archive, the script writes no linker script for it and still succeeds: the
    /// release build then links that library's shared object, as before.
    @Test func withoutStaticArchivesTheScriptWritesNoneAndTheBuildGoesOn() throws {
        let g = try Growcert()
        let bin = g.path("no-archives-bin")
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        // A compiler that finds no archive answers `-print-file-name=libX.a` with the bare name; this one also names a
        // C++ runtime archive that is not there (a dangling link).
        let clang = "\(bin)/clang"
        try Data("#!/bin/sh\ncase \"$1\" in *stdc++*) echo /nonexistent/libstdc++.a ;; *) echo \"${1#-print-file-name=}\" ;; esac\n".utf8)
            .write(to: URL(fileURLWithPath: clang))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: clang)
        let dir = g.path("static-c-libs")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try Data("INPUT(/stale/libz.a)\n".utf8).write(to: URL(fileURLWithPath: "\(dir)/libz.so"))
        let o = try g.execute("/bin/sh", [Self.staticCLibsScript, dir], env: ["PATH": "\(bin):/usr/bin:/bin"])
        #expect(o.code == 0, "\(o)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty, "a stale or new linker script was left")
    }

    static func probe(_ soname: String, symbol: String, package: String) -> String? {
        guard let text = lazylib_probe(soname, symbol, package, "these tests") else { return nil }
        defer { free(text) }
        return String(cString: text)
    }
}
