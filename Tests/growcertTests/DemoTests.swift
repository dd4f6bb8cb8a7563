import Foundation
import Testing

@Suite("growcert end to end: the demo")
struct DemoTests {
    /// The ids of every live check, from `growcert check list --json`.
    static func allCheckIds(_ g: Growcert) throws -> [String] {
        let list = try #require(try g.json(["check", "list"]) as? [[String: Any]])
        return list.compactMap { $0["id"] as? String }
    }

    @Test("The demo exits 0, passes every check, and says NOT CERTIFIABLE because the evidence came from the emulator")
    func demoSaysNotCertifiableBecauseOfTheEmulator() throws {
        let demo = try DemoRun.get()
        let o = demo.outcome
        #expect(o.code == 0, "\(o)")
        let checks = try Self.allCheckIds(demo.runner)
        #expect(checks.count >= 16)
        #expect(o.stdout.contains("\n\(checks.count)/\(checks.count) live checks passed against the emulator.\n"), "\(o)")
        #expect(o.stdout.contains("\nCampaign verdict: NOT CERTIFIABLE\n"), "\(o)")
        for scenario in ["first-connect", "sign-out-switch", "offline-timeout", "purchase-restore-refund"] {
            #expect(o.stdout.contains("\n  \(scenario): NOT CERTIFIABLE — check "), "\(scenario)")
        }
        #expect(o.stdout.contains("live-emulator (fetched from a local emulator"))
        #expect(o.stdout.contains("This is expected: every piece of evidence came from the local emulator (live-emulator, emulator-signed),\nwhich never certifies."))
        for id in checks { #expect(o.stderr.contains("  PASS \(id) ("), "\(id) has no PASS line:\n\(o.stderr)") }
        #expect(!o.stderr.contains("FAIL "))
        #expect(o.stderr.contains("(emulator-signed)"), "the emulator's signed purchase is recorded as emulator-signed")
        for name in DemoRun.reportNames {
            let size = (try? FileManager.default.attributesOfItem(atPath: demo.file(name))[.size] as? Int) ?? 0
            #expect(size > 1000, "\(name) is missing or nearly empty")
            #expect(o.stdout.contains("  \(demo.file(name))   (rp"), "stdout does not list \(name)")
        }
    }

    @Test("The demo's database verifies with growcert verify")
    func demoDatabaseVerifies() throws {
        let demo = try DemoRun.get()
        let o = try demo.runner.run(["verify", "--db", demo.database], db: false)
        #expect(o.code == 0, "\(o)")
        #expect(o.stdout.hasPrefix("OK: "), "\(o)")
        #expect(o.stdout.contains(" journal entries, chain intact, tables match the journal.\nJournal head: "))
    }

    @Test("The demo's JUnit report validates against the JUnit 10 schema the Jenkins xUnit plugin uses")
    func junitReportValidatesAgainstTheSchema() throws {
        let demo = try DemoRun.get()
        let xmllint = try Growcert.tool(["xmllint"], install: "install the Debian package libxml2-utils ('make test' does)")
        let schema = Growcert.fixture("junit-10.xsd")
        try #require(FileManager.default.fileExists(atPath: schema), "no JUnit schema at \(schema)")
        let o = try demo.runner.execute(xmllint, ["--noout", "--schema", schema, demo.file("report.junit.xml")], env: [:])
        #expect(o.code == 0, "\(o)")
        #expect(o.stderr.contains("report.junit.xml validates"), "\(o)")
        let xml = String(decoding: FileManager.default.contents(atPath: demo.file("report.junit.xml")) ?? Data(), as: UTF8.self)
        // Every scenario is NOT CERTIFIABLE, so each has a failing verdict case: a CI dashboard shows red, not green.
        let top = xml.components(separatedBy: "\n").first { $0.hasPrefix("<testsuites ") } ?? ""
        #expect(!top.contains(#"failures="0""#), "\(top)")
        #expect(xml.components(separatedBy: #"<failure type="NOT CERTIFIABLE""#).count - 1 == 4)
        #expect(xml.contains(#"<property name="verdict" value="NOT CERTIFIABLE"/>"#))
    }

    @Test("The demo's JSON report parses and gives the campaign and every scenario the verdict NOT CERTIFIABLE")
    func jsonReportSaysNotCertifiable() throws {
        let demo = try DemoRun.get()
        let data = try #require(FileManager.default.contents(atPath: demo.file("report.json")))
        let report = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(report["format"] as? String == "growcert-report/v1")
        #expect(report["verdict"] as? String == "NOT CERTIFIABLE")
        let scenarios = try #require(report["scenarios"] as? [[String: Any]])
        #expect(scenarios.count == 4)
        for s in scenarios { #expect(s["verdict"] as? String == "NOT CERTIFIABLE", "\(s["id"] ?? "?")") }
    }

    @Test("The demo shows a Google Play purchase signed by the emulator's own key: emulator-signed, never certifying")
    func demoShowsAnEmulatorSignedGooglePurchase() throws {
        let demo = try DemoRun.get()
        #expect((demo.outcome.stdout + demo.outcome.stderr).contains("recorded the emulator's signed Google Play purchase for order "), "\(demo.outcome.stderr)")
        let md = String(decoding: FileManager.default.contents(atPath: demo.file("report.md")) ?? Data(), as: UTF8.self)
        let row = try #require(md.split(separator: "\n").first { $0.contains("store: google") }, "\(md.prefix(2000))")
        #expect(row.contains("emulator-signed (cannot certify)"), "\(row)")
        #expect(row.contains("signed payload: Play Billing purchase JSON, "), "\(row)")
        #expect(md.contains("Play license key (compare with Play Console) | SHA-256 "))
    }

    @Test("No server key (gg_sk_…) is in the demo's database, reports or output")
    func demoLeavesNoServerKeyAnywhere() throws {
        let demo = try DemoRun.get()
        let prefix = Data("gg_sk_".utf8)
        let files = try FileManager.default.contentsOfDirectory(atPath: demo.out)
        #expect(files.contains("growcert.sqlite"))
        for name in files {
            let bytes = try #require(FileManager.default.contents(atPath: demo.file(name)), "cannot read \(name)")
            #expect(bytes.range(of: prefix) == nil, "\(name) contains gg_sk_")
        }
        #expect(!demo.outcome.stdout.contains("gg_sk_"))
        #expect(!demo.outcome.stderr.contains("gg_sk_"))
    }

    @Test("The demo refuses a folder that already holds a database, and leaves it as it was")
    func demoRefusesAnExistingDatabase() throws {
        let g = try Growcert()
        let out = g.path("again")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let existing = Data("not a database".utf8)
        #expect(FileManager.default.createFile(atPath: out + "/growcert.sqlite", contents: existing))
        let o = try g.run(["demo", "--out", out], db: false)
        #expect(o.code == 65, "\(o)")
        #expect(o.stderr == "growcert: '\(out)/growcert.sqlite' already exists; the demo starts from a fresh database. Remove it or choose another folder. Give another folder with --out.\n")
        #expect(FileManager.default.contents(atPath: out + "/growcert.sqlite") == existing)
        #expect(try FileManager.default.contentsOfDirectory(atPath: out) == ["growcert.sqlite"])
    }

    @Test("The demo's HTML report renders in headless Chromium: a 1200×1600 screenshot with text on it, not a blank page")
    func htmlReportRendersInChromium() throws {
        let demo = try DemoRun.get()
        let g = try Growcert()
        let chromium = try Growcert.tool(["chromium", "chromium-browser", "google-chrome"],
                                         install: "install the Debian package chromium ('make test' does) to check that the HTML report renders")
        let python = try Growcert.tool(["python3"], install: "install python3 to decode the screenshot")
        let shot = g.path("report.png")
        // `timeout` bounds a hung browser; Chromium's D-Bus complaints on stderr are expected in a container.
        let o = try g.execute("/usr/bin/env", [
            "timeout", "60", chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=1200,1600",
            "--user-data-dir=\(g.path("chromium-profile"))", "--screenshot=\(shot)", URL(fileURLWithPath: demo.file("report.html")).absoluteString,
        ], env: [:])
        #expect(o.code == 0, "\(o)")
        let png = try #require(FileManager.default.contents(atPath: shot), "Chromium wrote no screenshot:\n\(o)")
        // A blank white page of this size compresses to about 9 KB; the report's text and tables to far more.
        #expect(png.count > 50_000, "the screenshot is only \(png.count) bytes")
        // Decode the pixels (Python's zlib, no image library) rather than trust the file size alone:
        // a white page, or one that shows only an error line, fails these counts whatever the encoder does.
        let stats = try g.execute(python, ["-c", Self.pngStatistics, shot], env: [:])
        try #require(stats.code == 0, "\(stats)")
        let s = try #require(try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any])
        let pixels = 1200 * 1600
        #expect(s["width"] as? Int == 1200)
        #expect(s["height"] as? Int == 1600)
        let nonWhite = s["nonWhite"] as? Int ?? 0
        let dark = s["dark"] as? Int ?? 0
        #expect(nonWhite > pixels / 50, "only \(nonWhite) of \(pixels) pixels are not white")
        #expect(dark > pixels / 200, "only \(dark) dark (text) pixels")
        #expect(nonWhite < pixels / 2, "\(nonWhite) of \(pixels) pixels are not white: the page is not the report's white layout")
        #expect((s["colours"] as? Int ?? 0) > 64, "too few distinct colours for text, badges and tables: \(s)")
    }

    /// Decodes an 8-bit, non-interlaced RGB(A) PNG with Python's standard library and prints
    /// its size and pixel counts as JSON: non-white pixels, dark (text) pixels, distinct colours.
    static let pngStatistics = #"""
    import json, struct, sys, zlib
    data = open(sys.argv[1], "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n": sys.exit("not a PNG")
    pos, idat = 8, []
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR": width, height, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT": idat.append(body)
        elif kind == b"IEND": break
    if depth != 8 or interlace != 0 or ctype not in (2, 6):
        sys.exit("unsupported PNG: depth %d, colour type %d, interlace %d" % (depth, ctype, interlace))
    bpp = 3 if ctype == 2 else 4
    raw, stride = zlib.decompress(b"".join(idat)), width * bpp
    prev, nonwhite, dark, colours = bytearray(stride), 0, 0, set()
    for y in range(height):
        f, row = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if f == 1:
            for i in range(bpp, stride): row[i] = (row[i] + row[i - bpp]) & 255
        elif f == 2:
            row = bytearray((a + b) & 255 for a, b in zip(row, prev))
        elif f == 3:
            for i in range(stride): row[i] = (row[i] + ((row[i - bpp] if i >= bpp else 0) + prev[i]) // 2) & 255
        elif f == 4:
            for i in range(stride):
                a = row[i - bpp] if i >= bpp else 0
                b, c = prev[i], (prev[i - bpp] if i >= bpp else 0)
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                row[i] = (row[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        for x in range(0, stride, bpp):
            r, g, b = row[x], row[x + 1], row[x + 2]
            if r < 245 or g < 245 or b < 245: nonwhite += 1
            if r + g + b < 300: dark += 1
            colours.add((r, g, b))
        prev = row
    print(json.dumps({"width": width, "height": height, "nonWhite": nonwhite, "dark": dark, "colours": len(colours)}))
    """#
}
