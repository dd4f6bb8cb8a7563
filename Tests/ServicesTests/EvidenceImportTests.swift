import Evidence
import Foundation
import Testing
@testable import Services

/// `evidence import` is a service: the line format, the import keys, resuming and the dry run are `EvidenceImport`'s,
/// tested here without a process (the CLI tests keep the command's wiring: options, output, exit codes).
@Suite struct EvidenceImportTests {
    struct Seeded {
        let store: EvidenceStore
        let run: Run
        let dir: String
        func file(_ name: String, _ lines: [String]) throws -> String {
            let path = dir + "/" + name
            try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
            return path
        }
    }

    func seeded() throws -> Seeded {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("growcert-import-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let (store, _) = try EvidenceStore.create(at: dir + "/e.sqlite", actor: "test")
        let campaign = try store.createCampaign(NewCampaign(profile: "groovegrow", name: nil, appId: "com.example.app", appVersion: "1.0", build: "1",
                                                            sdkVersion: "0.0.1", project: "3f2b8c1e-5d4a-4e7b-9c1d-2a6f8e0b7c55", baseURL: "http://127.0.0.1:1"))
        _ = try store.addDevice(NewDevice(campaignId: campaign.id, label: "pixel", kind: "physical", platform: "android", model: "Pixel 8", osVersion: "15"))
        let run = try store.startRun(NewRun(campaignId: campaign.id, scenario: "first-connect", deviceLabel: "pixel", accountLabel: nil, tester: "Ann"))
        return Seeded(store: store, run: run, dir: dir)
    }

    static func note(_ run: String, _ text: String) -> String { #"{"run":"\#(run)","type":"note","text":"\#(text)"}"# }

    @Test("Each line becomes one item; blank lines are skipped; a note and an attachment keep their fields")
    func linesBecomeItems() throws {
        let s = try seeded()
        defer { try? FileManager.default.removeItem(atPath: s.dir) }
        let data = Data("hello".utf8).base64EncodedString()
        let path = try s.file("i.jsonl", [Self.note(s.run.id, "one"), "  ",
                                          #"{"run":"\#(s.run.id)","type":"attachment","filename":"log.txt","data":"\#(data)","note":"n"}"#])
        let outcome = try EvidenceImport(path: path).run(into: s.store)
        #expect(outcome.recorded == 2 && outcome.lines == 3 && outcome.skipped == 0)
        let items = try s.store.evidence(runId: s.run.id)
        #expect(items.map(\.type.rawValue) == ["note", "attachment"])
        #expect(outcome.first == items.first?.id && outcome.last == items.last?.id)
    }

    @Test("The line format's errors are the service's, by name", arguments: [
        ("nope", EvidenceImportError.notJSON(detail: "")), ("[1]", .notAnObject), (#"{"type":"note","text":"x"}"#, .fieldMissing("run")),
        (#"{"run":1,"type":"note","text":"x"}"#, .fieldNotAString("run")),
        (#"{"run":"r1","type":"note","text":"x","extra":1}"#, .unknownField("extra", type: "a note", fields: "run, type, text")),
        (#"{"run":"r1","type":"attachment","filename":"a","data":"***"}"#, .notBase64(field: "data")),
        (#"{"run":"r1","type":"video"}"#, .unknownType("video")),
    ])
    func badLinesAreNamed(line: String, expected: EvidenceImportError) {
        do {
            _ = try EvidenceImport.evidence(from: ArraySlice(Array(line.utf8)))
            Issue.record("'\(line)' was accepted")
        } catch let error as EvidenceImportError {
            if case .notJSON = expected, case .notJSON = error { return }
            #expect(error == expected)
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test("A bad line stops the import: the lines before it stay recorded, and the failure says which line and how many")
    func aBadLineStopsTheImport() throws {
        let s = try seeded()
        defer { try? FileManager.default.removeItem(atPath: s.dir) }
        let path = try s.file("i.jsonl", [Self.note(s.run.id, "one"), Self.note(s.run.id, "two"), Self.note("r9", "three"), Self.note(s.run.id, "four")])
        do {
            _ = try EvidenceImport(path: path).run(into: s.store)
            Issue.record("the import went on past a bad line")
        } catch let failure as EvidenceImport.LineFailure {
            #expect(failure.line == 3 && failure.recorded == 2 && failure.keyed)
            #expect(failure.underlying as? EvidenceError != nil)
        }
        #expect(try s.store.evidence(runId: s.run.id).count == 2)
        // After the fix, the rest is imported from the bad line on: nothing before it is recorded twice.
        let fixed = try s.file("i.jsonl", [Self.note(s.run.id, "one"), Self.note(s.run.id, "two"), Self.note(s.run.id, "three"), Self.note(s.run.id, "four")])
        let resumed = try EvidenceImport(path: fixed, fromLine: 3).run(into: s.store)
        #expect(resumed.recorded == 2)
        #expect(try s.store.evidence(runId: s.run.id).count == 4)
    }

    @Test("A file imported before is refused unless resumed, and resuming records each line once")
    func aFileIsRecordedOnce() throws {
        let s = try seeded()
        defer { try? FileManager.default.removeItem(atPath: s.dir) }
        let path = try s.file("i.jsonl", [Self.note(s.run.id, "one"), Self.note(s.run.id, "two")])
        _ = try EvidenceImport(path: path).run(into: s.store)
        #expect(throws: EvidenceImportError.importedBefore(path: path, lines: 2)) { try EvidenceImport(path: path).run(into: s.store) }
        let again = try EvidenceImport(path: path, resume: true).run(into: s.store)
        #expect(again.recorded == 0 && again.skipped == 2)
        #expect(try s.store.evidence(runId: s.run.id).count == 2)
    }

    @Test("Resuming needs a regular file: stdin's lines carry no import key")
    func resumingNeedsAFile() {
        #expect(throws: EvidenceImportError.resumeNeedsRegularFile) { try EvidenceImport(path: "-", resume: true) }
    }

    @Test("A dry run lists every bad line and writes nothing")
    func aDryRunListsEveryBadLine() throws {
        let s = try seeded()
        defer { try? FileManager.default.removeItem(atPath: s.dir) }
        let path = try s.file("i.jsonl", [Self.note(s.run.id, "one"), "nope", Self.note("r9", "x"), Self.note(s.run.id, "four")])
        let before = try s.store.journalHead()?.seq
        do {
            _ = try EvidenceImport(path: path).check(against: s.store)
            Issue.record("a dry run passed bad lines")
        } catch let failure as EvidenceImport.CheckFailure {
            #expect(failure.problems.map(\.line) == [2, 3] && failure.checked == 4)
        }
        let good = try s.file("g.jsonl", [Self.note(s.run.id, "one"), "", Self.note(s.run.id, "two")])
        #expect(try EvidenceImport(path: good).check(against: s.store) == EvidenceImport.DryRun(wouldRecord: 2, lines: 3))
        #expect(try s.store.journalHead()?.seq == before)
    }

    @Test("Progress is told every so many items, with the line reached")
    func progressIsTold() throws {
        let s = try seeded()
        defer { try? FileManager.default.removeItem(atPath: s.dir) }
        let path = try s.file("i.jsonl", (1...5).map { Self.note(s.run.id, "n\($0)") })
        var told: [[Int]] = []
        _ = try EvidenceImport(path: path).run(into: s.store, progressEvery: 2) { told.append([$0, $1]) }
        #expect(told == [[2, 2], [4, 4]])
    }
}
