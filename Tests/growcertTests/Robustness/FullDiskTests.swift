import Foundation
import Testing

/// Recording onto a disk that fills up.
@Suite("Robustness: full disk")
struct FullDiskTests {
    /// Fills a database on a 2 MiB tmpfs (in a private mount namespace) with attachments until a write fails.
    /// Where no namespace can be made, a soft file-size limit stands in for the small disk.
    static let script = #"""
        set -u
        fill() {
          "$G" --db "$DB" init >/dev/null || exit 90
          "$G" --db "$DB" campaign create --profile groovegrow --app-id com.example.app --app-version 2.4.0 --build 311 --sdk-version 0.0.1 \
            --project 3f2b8c1e-5d4a-4e7b-9c1d-2a6f8e0b7c55 --base-url https://sandbox.groovegrow.example >/dev/null || exit 91
          "$G" --db "$DB" device add --campaign c1 --label iphone15 --kind physical --platform ios --model "iPhone 15" --os-version 18.1 >/dev/null || exit 92
          "$G" --db "$DB" run start --campaign c1 --scenario first-connect --device iphone15 --tester Ann >/dev/null || exit 93
          i=0; rc=0
          while [ $i -lt 400 ]; do
            head -c 65536 /dev/urandom > "$WORK/blob"
            "$G" --db "$DB" --quiet evidence add attachment --run r1 --file "$WORK/blob" >/dev/null 2>"$WORK/err"; rc=$?
            [ $rc -ne 0 ] && break
            i=$((i+1))
          done
          echo "added=$i"; echo "rc=$rc"; echo "mode=$MODE"; echo "err=$(cat "$WORK/err")"
        }
        check() {
          "$G" --db "$DB" verify >"$WORK/verify" 2>&1; echo "verify=$?"
          echo "integrity=$(sqlite3 "$DB" 'PRAGMA integrity_check;')"
          echo "count=$(sqlite3 "$DB" 'SELECT COUNT(*) FROM evidence;')"
        }
        if [ "${FORCE_ULIMIT:-0}" != 1 ] && mount -t tmpfs -o size=2m tmpfs "$MNT" 2>/dev/null; then
          MODE=tmpfs; DB="$MNT/evidence.sqlite"; fill; check
        else
          MODE=ulimit; DB="$WORK/evidence.sqlite"
          ( trap '' XFSZ; ulimit -S -f 4096; fill ); check
        fi
        """#

    static func run(_ g: Growcert, forceLimit: Bool) throws -> [String: String] {
        let mnt = g.path("mnt")
        try FileManager.default.createDirectory(atPath: mnt, withIntermediateDirectories: true)
        let env = ["G": Growcert.binary, "WORK": g.dir.path, "MNT": mnt, "FORCE_ULIMIT": forceLimit ? "1" : "0"]
        let haveUnshare = FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare")
        let o = haveUnshare && !forceLimit
            ? try g.execute("/usr/bin/unshare", ["--user", "--map-root-user", "--mount", "/bin/sh", "-c", script], env: env)
            : try g.execute("/bin/sh", ["-c", script], env: env)
        var fields: [String: String] = ["exit": String(o.code), "stderr": o.stderr]
        for line in o.stdout.split(separator: "\n") {
            guard let eq = line.firstIndex(of: "=") else { continue }
            fields[String(line[..<eq])] = String(line[line.index(after: eq)...])
        }
        if fields["mode"] == nil, haveUnshare, !forceLimit {
            // unshare itself is refused here (no user namespaces): use the file-size limit.
            return try run(g, forceLimit: true)
        }
        return fields
    }

    @Test("Recording until the disk is full fails with a clear error and exit 74, and the database still verifies")
    func fullDiskFailsCleanly() throws {
        let g = try Growcert()
        let r = try Self.run(g, forceLimit: false)
        let added = try #require(Int(r["added"] ?? ""), "\(r)")
        #expect(added > 0 && added < 400, "\(r)")
        #expect(r["rc"] == "74", "\(r)")
        if r["mode"] == "tmpfs" {
            #expect(r["err"]?.hasPrefix("growcert: The disk holding '") == true, "\(r)")
            #expect(r["err"]?.hasSuffix("is full (or the database reached its size limit). Nothing was written; free space and record again.") == true, "\(r)")
        } else {
            #expect(r["err"]?.hasPrefix("growcert: ") == true && r["err"]?.contains("Nothing was written") == true, "\(r)")
        }
        #expect(r["verify"] == "0", "\(r)")
        #expect(r["integrity"] == "ok", "\(r)")
        #expect(r["count"] == String(added), "the failed write left something behind: \(r)")
    }

    @Test("With a file-size limit instead of a small disk the failed write is refused the same way")
    func fileSizeLimitFailsCleanly() throws {
        let g = try Growcert()
        let r = try Self.run(g, forceLimit: true)
        #expect(r["mode"] == "ulimit", "\(r)")
        let added = try #require(Int(r["added"] ?? ""), "\(r)")
        #expect(added > 0 && added < 400, "\(r)")
        #expect(r["rc"] == "74", "\(r)")
        #expect(r["err"]?.hasPrefix("growcert: ") == true && r["err"]?.contains("Nothing was written") == true, "\(r)")
        #expect(r["verify"] == "0", "\(r)")
        #expect(r["integrity"] == "ok", "\(r)")
        #expect(r["count"] == String(added), "\(r)")
    }
}
