import Foundation
import Testing

/// Issue 22: a workspace as git has one, a current campaign as kubectl has a context, several run ids at once.
@Suite("The workspace and the current campaign")
struct WorkspaceTests {
    static let create = ["campaign", "create", "--profile", "groovegrow", "--app-id", "com.example.app", "--app-version", "2.4.0", "--build", "311",
                         "--sdk-version", "0.0.1", "--project", "3f2b8c1e-5d4a-4e7b-9c1d-2a6f8e0b7c55", "--base-url", "https://sandbox.groovegrow.example"]

    /// The folder's path as the binary sees it (symbolic links in the temporary folder resolved).
    static func real(_ path: String) -> String { URL(fileURLWithPath: path).resolvingSymlinksInPath().path }

    @Test("init leaves growcert.workspace naming the database by absolute path, and a command in a sub-folder finds it")
    func aSubFolderFindsTheWorkspace() throws {
        let g = try Growcert()
        let created = try g.run(["init", "--db", "release-2.4.sqlite"], in: ".")
        #expect(created.code == 0, "\(created)")
        let workspace = try #require(FileManager.default.contents(atPath: g.path("growcert.workspace")), "no workspace file")
        let json = try #require(try JSONSerialization.jsonObject(with: workspace) as? [String: Any])
        let database = try #require(json["database"] as? String)
        #expect(database.hasPrefix("/") && database.hasSuffix("/release-2.4.sqlite"), "\(database)")
        #expect(Self.real(database) == Self.real(g.path("release-2.4.sqlite")))

        #expect(try g.run(Self.create, in: "reports/deep").code == 0)
        let status = try g.run(["status"], in: "reports/deep")
        #expect(status.code == 0, "\(status)")
        #expect(status.stdout.hasPrefix("Campaign c1: com.example.app 2.4.0 (311) — INCOMPLETE\n"), "\(status)")
        #expect(!FileManager.default.fileExists(atPath: g.path("reports/deep/growcert.sqlite")), "a second database was created")
        #expect(!FileManager.default.fileExists(atPath: g.path("reports/growcert.workspace")))
    }

    @Test("The issue's finding: a relative GROWCERT_DB from a sub-folder is refused, naming the workspace's database; init there creates nothing")
    func aRelativeGrowcertDBFromASubFolderNeverMakesASecondDatabase() throws {
        let g = try Growcert()
        let env = ["GROWCERT_DB": "./release-2.4.sqlite"]
        #expect(try g.run(["init"], in: ".", env: env).code == 0)
        let folder = Self.real(g.dir.path)
        let expected = """
        growcert: GROWCERT_DB is the relative path './release-2.4.sqlite', which names '\(folder)/reports/release-2.4.sqlite' from this folder, \
        and there is no database there. This folder is inside the workspace '\(folder)', whose database is '\(folder)/release-2.4.sqlite': \
        unset GROWCERT_DB to use it, or set GROWCERT_DB to an absolute path. Nothing was done.
        See 'growcert --help'.

        """
        let status = try g.run(["status"], in: "reports", env: env)
        #expect(status.code == 64, "\(status)")
        #expect(status.stderr == expected, "\(status)")
        let again = try g.run(["init"], in: "reports", env: env)
        #expect(again.code == 64, "\(again)")
        #expect(!FileManager.default.fileExists(atPath: g.path("reports/release-2.4.sqlite")), "following the advice created a second database")
        #expect(!FileManager.default.fileExists(atPath: g.path("reports/growcert.workspace")))
        // Without GROWCERT_DB the sub-folder uses the workspace's database.
        #expect(try g.run(["status"], in: "reports").code == 0)
    }

    @Test("With no workspace and no --db, the error says where growcert looked and never points into another workspace")
    func noWorkspaceNoDatabase() throws {
        let g = try Growcert()
        let o = try g.run(["status"], in: "elsewhere")
        let folder = Self.real(g.path("elsewhere"))
        #expect(o.code == 66, "\(o)")
        #expect(o.stderr == """
        growcert: No evidence database here: no growcert.workspace in '\(folder)' or any folder above it. Neither --db nor GROWCERT_DB is set. \
        Run growcert in the folder where you ran 'growcert init' (or below it), or point --db (or GROWCERT_DB) at the database's absolute path. \
        To start a new, empty evidence database in this folder: growcert init.

        """, "\(o)")
        #expect(!FileManager.default.fileExists(atPath: g.path("elsewhere/growcert.sqlite")))
    }

    @Test("An empty --db or GROWCERT_DB is a usage error (64) that changes nothing", arguments: [true, false])
    func anEmptyDatabaseIsAUsageError(fromEnvironment: Bool) throws {
        let g = try Growcert()
        let o = fromEnvironment ? try g.run(["init"], in: ".", env: ["GROWCERT_DB": ""]) : try g.run(["--db", "", "init"], in: ".")
        #expect(o.code == 64, "\(o)")
        let message = fromEnvironment
            ? "GROWCERT_DB is set but empty: set it to the evidence database's path or postgresql:// URL, or unset it to use the database of the growcert.workspace in this folder or above."
            : "The evidence database's path is empty: give its path or postgresql:// URL, or none to use the database of the growcert.workspace in this folder or above. Fix --db, or leave it out."
        #expect(o.stderr == "growcert: \(message)\nSee 'growcert --help'.\n", "\(o)")
        let left = try FileManager.default.contentsOfDirectory(atPath: g.dir.path).filter { !$0.hasPrefix(".") }
        #expect(left.isEmpty, "\(left)")
    }

    @Test("With one campaign --campaign may be left out; with two it is asked for, until 'campaign use' sets the current one")
    func theCurrentCampaign() throws {
        let g = try Growcert()
        #expect(try g.run(["init"], in: ".").code == 0)
        #expect(try g.run(Self.create, in: ".").code == 0)
        let one = try g.run(["device", "add", "--label", "iphone15", "--kind", "physical", "--platform", "ios", "--model", "iPhone 15", "--os-version", "18.1"], in: ".")
        #expect(one.code == 0 && one.stdout == "d1\n", "\(one)")
        #expect(try g.run(Self.create, in: ".").code == 0)
        let two = try g.run(["device", "list"], in: ".")
        #expect(two.code == 64, "\(two)")
        #expect(two.stderr == """
        growcert: This database has 2 campaigns (c1, c2): give --campaign ID, or choose the current one for this workspace with 'growcert campaign use ID'.
        See 'growcert device list --help'.

        """, "\(two)")
        let use = try g.run(["campaign", "use", "c2"], in: "sub")
        #expect(use.code == 0, "\(use)")
        #expect(use.stdout == "Current campaign: c2 (com.example.app 2.4.0 (311)), for growcert commands run in \(Self.real(g.dir.path)) or below.\n", "\(use)")
        #expect(try g.run(["device", "add", "--label", "pixel", "--kind", "physical", "--platform", "android", "--model", "Pixel 8", "--os-version", "14"], in: "sub").code == 0)
        let devices = try g.run(["device", "list", "--json"], in: ".")
        let list = try #require(try JSONSerialization.jsonObject(with: Data(devices.stdout.utf8)) as? [[String: Any]], "\(devices)")
        #expect(list.map { $0["label"] as? String } == ["pixel"])
        // An explicit --campaign still wins, and an unknown one is refused without changing the workspace.
        #expect(try g.run(["device", "list", "--campaign", "c1"], in: ".").stdout.contains("iphone15"))
        #expect(try g.run(["campaign", "use", "c9"], in: ".").code == 65)
        #expect(String(decoding: FileManager.default.contents(atPath: g.path("growcert.workspace")) ?? Data(), as: UTF8.self).contains("\"campaign\": \"c2\""))
    }

    @Test("campaign use outside any workspace is refused and writes nothing")
    func campaignUseNeedsAWorkspace() throws {
        let g = try Growcert()
        try g.seed()
        try FileManager.default.removeItem(atPath: g.path("growcert.workspace"))
        let o = try g.run(["campaign", "use", "c1"])
        #expect(o.code == 64, "\(o)")
        #expect(o.stderr.hasPrefix("growcert: No growcert.workspace names the database '\(g.db)', so there is nowhere to keep a current campaign."), "\(o)")
        #expect(!FileManager.default.fileExists(atPath: g.path("growcert.workspace")))
    }

    @Test("run finish takes several ids and prints each; a refusal exits 65 (all or none: RunServiceTests)")
    func runFinishTakesSeveralIds() throws {
        let g = try Growcert()
        try g.seed()
        for _ in 0..<2 {
            #expect(try g.run(["run", "start", "--scenario", "first-connect", "--device", "iphone15", "--tester", "Ann"]).code == 0)
        }
        let refused = try g.run(["run", "finish", "r2", "r9", "--outcome", "pass"])
        #expect(refused.code == 65, "\(refused)")
        let o = try g.run(["run", "finish", "r1", "r2", "r3", "--outcome", "pass"])
        #expect(o.code == 0 && o.stdout == "r1\nr2\nr3\n", "\(o)")
    }

    @Test("The insider's plant: a workspace file another user owns in a folder above is refused, never followed",
          .enabled(if: getuid() == 0, "needs root to give the file to another user"))
    func aWorkspaceFileOfAnotherUserIsRefused() throws {
        let g = try Growcert()
        #expect(try g.run(["init", "--db", "theirs.sqlite"], in: ".").code == 0)
        #expect(chown(g.path("growcert.workspace"), 65534, 65534) == 0)
        let o = try g.run(["evidence", "add", "note", "--run", "r1", "--text", "x"], in: "mine")
        #expect(o.code == 65, "\(o)")
        #expect(o.stderr == "growcert: The workspace file '\(g.path("growcert.workspace"))' belongs to another user, so growcert does not follow it "
                + "(it could send your evidence into their database). Remove it if it is not yours, or name the database another way. Nothing was done. Name it with --db (or GROWCERT_DB).\n", "\(o)")
        // An explicit database still works there.
        #expect(try g.run(["--db", g.path("theirs.sqlite"), "campaign", "list"], in: "mine").code == 0)
    }

    @Test("init --db with a relative path in a sub-folder of a workspace makes a database there and a workspace of its own")
    func aRelativeDatabaseInASubFolderIsThatFolders() throws {
        let g = try Growcert()
        #expect(try g.run(["init", "--db", "r.sqlite"], in: ".").code == 0)
        let nested = try g.run(["init", "--db", "r.sqlite"], in: "a/b")
        #expect(nested.code == 0, "\(nested)")
        #expect(FileManager.default.fileExists(atPath: g.path("a/b/r.sqlite")))
        let workspace = String(decoding: FileManager.default.contents(atPath: g.path("a/b/growcert.workspace")) ?? Data(), as: UTF8.self)
        #expect(workspace.contains("/a/b/r.sqlite\""), "\(workspace)")
        #expect(try g.run(Self.create, in: "a/b").code == 0)
        // The outer workspace's database has no campaign; the nested one has c1.
        #expect(try g.run(["campaign", "list"], in: ".").stdout == "(none)\n")
        #expect(try g.run(["campaign", "list"], in: "a/b/c").stdout.contains("c1  "))
    }
}
