import Foundation
import Testing
@testable import Evidence
@testable import EvidenceModel

/// Every refused write must say what was wrong and leave the journal and tables exactly as they were.
@Suite("EvidenceStore refuses bad input and changes nothing")
struct StoreRejectionTests {
    @Test("A malformed project UUID is refused", arguments: Backend.allCases)
    func badUUIDIsRefused(backend: Backend) throws {
        try withTempDir { dir in
            let s = try seeded(in: dir, backend: backend)
            try expectRefused(s.store, message: "Invalid project '3f2b8c1e-5d4a-4e7b-9c1d': expected the project's App UUID, e.g. '3f2b8c1e-5d4a-4e7b-9c1d-2a6f8e0b7c55'.") {
                _ = try s.store.createCampaign(newCampaign(project: "3f2b8c1e-5d4a-4e7b-9c1d"))
            }
            try expectRefused(s.store, .invalidValue(field: "project", value: "", why: "expected the project's App UUID, e.g. '3f2b8c1e-5d4a-4e7b-9c1d-2a6f8e0b7c55'.")) {
                _ = try s.store.createCampaign(newCampaign(project: ""))
            }
        }
    }

    @Test("A base URL that is not https, or plain http to a non-loopback host, is refused", arguments: [
        ("http://sandbox.groovegrow.example", "plain http is allowed only for a loopback host (127.0.0.1, ::1, localhost); use https."),
        ("http://127.0.0.1.evil.example", "plain http is allowed only for a loopback host (127.0.0.1, ::1, localhost); use https."),
        ("http://localhost.evil.example", "plain http is allowed only for a loopback host (127.0.0.1, ::1, localhost); use https."),
        ("ftp://sandbox.groovegrow.example", "the scheme must be https."),
        ("sandbox.groovegrow.example", "expected 'https://HOST[/PREFIX]'."),
        ("https://sandbox.groovegrow.example/?x=1", "expected 'https://HOST[/PREFIX]'."),
        ("https://user@sandbox.groovegrow.example", "expected 'https://HOST[/PREFIX]'."),
        ("http://localhost@evil.example", "expected 'https://HOST[/PREFIX]'."),
    ])
    func badBaseURLIsRefused(url: String, why: String) throws {
        try withTempDir { dir in
            let s = try seeded(in: dir)
            try expectRefused(s.store, .invalidValue(field: "base URL", value: url, why: why)) {
                _ = try s.store.createCampaign(newCampaign(baseURL: url))
            }
        }
    }

    @Test("An unknown profile, a bad app id and empty fields are refused", arguments: Backend.allCases)
    func badCampaignFieldsAreRefused(backend: Backend) throws {
        try withTempDir { dir in
            let s = try seeded(in: dir, backend: backend)
            try expectRefused(s.store, message: "Unknown profile 'grovegrow'. Did you mean 'groovegrow'? Known: cherrysub, groovegrow.") {
                _ = try s.store.createCampaign(newCampaign(profile: "grovegrow"))
            }
            try expectRefused(s.store, message: "Invalid app id 'com example app': use the bundle id or application id, e.g. 'com.example.app' (letters, digits, '.', '-', '_').") {
                _ = try s.store.createCampaign(newCampaign(appId: "com example app"))
            }
            try expectRefused(s.store, .invalidValue(field: "build", value: "  ", why: "it must not be empty.")) {
                _ = try s.store.createCampaign(NewCampaign(profile: "groovegrow", name: nil, appId: "com.example.app", appVersion: "2.4.0", build: "  ",
                                                           sdkVersion: "0.0.1", project: projectUUID, baseURL: baseURL))
            }
        }
    }

    @Test("An unknown campaign is refused, naming the known ones", arguments: Backend.allCases)
    func unknownCampaignIsRefused(backend: Backend) throws {
        try withTempDir { dir in
            let s = try seeded(in: dir, backend: backend)
            try expectRefused(s.store, message: "Unknown campaign 'c9'. Known: c1.") {
                _ = try s.store.addDevice(NewDevice(campaignId: "c9", label: "x", kind: "physical", platform: "ios", model: "m", osVersion: "1"))
            }
            try expectRefused(s.store, message: "Unknown campaign 'c9'. Known: c1.") {
                _ = try s.store.addAccount(NewAccount(campaignId: "c9", label: "x", store: "apple", account: "a@b.c"))
            }
            try expectRefused(s.store, message: "Unknown campaign 'c9'. Known: c1.") {
                _ = try s.store.startRun(NewRun(campaignId: "c9", scenario: "first-connect", deviceLabel: "iphone15", accountLabel: nil, tester: "Ann"))
            }
        }
        try withTempDir { dir in
            let store = try makeStore(in: dir, backend: backend)
            try expectRefused(store, message: "Unknown campaign 'c1'. There are none yet.") {
                _ = try store.addDevice(NewDevice(campaignId: "c1", label: "x", kind: "physical", platform: "ios", model: "m", osVersion: "1"))
            }
        }
    }

    @Test("An unknown scenario is refused, naming the profile's scenarios", arguments: Backend.allCases)
    func unknownScenarioIsRefused(backend: Backend) throws {
        try withTempDir { dir in
            let s = try seeded(in: dir, backend: backend)
            try expectRefused(s.store, message: "Unknown scenario 'refnd'. Did you mean 'purchase-restore-refund'? Known: first-connect, sign-out-switch, offline-timeout, purchase-restore-refund.") {
                _ = try s.store.startRun(NewRun(campaignId: "c1", scenario: "refnd", deviceLabel: "iphone15", accountLabel: nil, tester: "Ann"))
            }
        }
    }

    @Test("An unknown device or account label is refused, naming the known labels", arguments: Backend.allCases)
    func unknownLabelsAreRefused(backend: Backend) throws {
        try withTempDir { dir in
            let s = try seeded(in: dir, backend: backend)
            try expectRefused(s.store, message: "Unknown device 'iphone16'. Known: iphone15.") {
                _ = try s.store.startRun(NewRun(campaignId: "c1", scenario: "first-connect", deviceLabel: "iphone16", accountLabel: nil, tester: "Ann"))
            }
            try expectRefused(s.store, message: "Unknown store account 'tester2'. Known: tester1.") {
                _ = try s.store.startRun(NewRun(campaignId: "c1", scenario: "first-connect", deviceLabel: "iphone15", accountLabel: "tester2", tester: "Ann"))
            }
            // Labels belong to their campaign: another campaign's devices are not offered.
            let c2 = try s.store.createCampaign(newCampaign(name: "other"))
            try expectRefused(s.store, message: "Unknown device 'iphone15'. There are none yet.") {
                _ = try s.store.startRun(NewRun(campaignId: c2.id, scenario: "first-connect", deviceLabel: "iphone15", accountLabel: nil, tester: "Ann"))
            }
        }
    }

    @Test("An unknown run or evidence item is refused", arguments: Backend.allCases)
    func unknownRunAndEvidenceAreRefused(backend: Backend) throws {
        try withTempDir { dir in
            let s = try seeded(in: dir, backend: backend)
            try expectRefused(s.store, message: "Unknown run 'r9'. Known: r1.") { _ = try s.store.addEvidence(note("r9", "x")) }
            try expectRefused(s.store, message: "Unknown run 'r9'. Known: r1.") { _ = try s.store.finishRun(id: "r9", outcome: "pass", note: nil) }
            try expectRefused(s.store, .unknown(what: "evidence item", value: "e9", known: [])) {
                _ = try s.store.retract(evidenceId: "e9", reason: "x")
            }
        }
    }

    @Test("An unknown evidence item's message lists the items that exist instead of claiming there are none", arguments: Backend.allCases)
    func unknownEvidenceMessageListsKnownItems(backend: Backend) throws {
        try withTempDir { dir in
            let s = try seeded(in: dir, backend: backend)
            _ = try s.store.addEvidence(note("r1", "one"))
            try expectRefused(s.store, message: "Unknown evidence item 'e9'. Known: e1.") {
                _ = try s.store.retract(evidenceId: "e9", reason: "x")
            }
        }
    }

    @Test("A duplicate device or account label in the same campaign is refused", arguments: Backend.allCases)
    func duplicateLabelsAreRefused(backend: Backend) throws {
        try withTempDir { dir in
            let s = try seeded(in: dir, backend: backend)
            try expectRefused(s.store, message: "Campaign c1 already has a device labelled 'iphone15'. Choose another label.") {
                _ = try s.store.addDevice(NewDevice(campaignId: "c1", label: "iphone15", kind: "simulator", platform: "ios", model: "m", osVersion: "1"))
            }
            try expectRefused(s.store, message: "Campaign c1 already has a store account labelled 'tester1'. Choose another label.") {
                _ = try s.store.addAccount(NewAccount(campaignId: "c1", label: "tester1", store: "google", account: "other@example.com"))
            }
            // The same label in another campaign is fine.
            let c2 = try s.store.createCampaign(newCampaign(name: "other"))
            #expect(try s.store.addDevice(NewDevice(campaignId: c2.id, label: "iphone15", kind: "physical", platform: "ios", model: "m", osVersion: "1")).id == "d2")
        }
    }

    @Test("An invalid kind, platform, store or outcome is refused, listing the choices", arguments: Backend.allCases)
    func invalidChoicesAreRefused(backend: Backend) throws {
        try withTempDir { dir in
            let s = try seeded(in: dir, backend: backend)
            try expectRefused(s.store, message: "Invalid device kind 'tablet': expected one of: physical, simulator.") {
                _ = try s.store.addDevice(NewDevice(campaignId: "c1", label: "x", kind: "tablet", platform: "ios", model: "m", osVersion: "1"))
            }
            try expectRefused(s.store, message: "Invalid platform 'iOS': expected one of: ios, android. Did you mean 'ios'?") {
                _ = try s.store.addDevice(NewDevice(campaignId: "c1", label: "x", kind: "physical", platform: "iOS", model: "m", osVersion: "1"))
            }
            try expectRefused(s.store, message: "Invalid store 'amazon': expected one of: apple, google.") {
                _ = try s.store.addAccount(NewAccount(campaignId: "c1", label: "x", store: "amazon", account: "a@b.c"))
            }
            try expectRefused(s.store, message: "Invalid outcome 'passed': expected one of: pass, fail, blocked. Did you mean 'pass'?") {
                _ = try s.store.finishRun(id: "r1", outcome: "passed", note: nil)
            }
            try expectRefused(s.store, .invalidValue(field: "device label", value: "", why: "it must not be empty.")) {
                _ = try s.store.addDevice(NewDevice(campaignId: "c1", label: "", kind: "physical", platform: "ios", model: "m", osVersion: "1"))
            }
            try expectRefused(s.store, .invalidValue(field: "tester", value: " ", why: "it must not be empty.")) {
                _ = try s.store.startRun(NewRun(campaignId: "c1", scenario: "first-connect", deviceLabel: "iphone15", accountLabel: nil, tester: " "))
            }
            let item = try s.store.addEvidence(note("r1", "x"))
            try expectRefused(s.store, .invalidValue(field: "reason", value: "", why: "it must not be empty.")) {
                _ = try s.store.retract(evidenceId: item.id, reason: "")
            }
        }
    }

    @Test("A label longer than 200 characters is refused", arguments: Backend.allCases)
    func overlongLabelIsRefused(backend: Backend) throws {
        try withTempDir { dir in
            let s = try seeded(in: dir, backend: backend)
            let label = String(repeating: "x", count: 201)
            try expectRefused(s.store, .invalidValue(field: "device label", value: String(repeating: "x", count: 40) + "…", why: "at most 200 characters.")) {
                _ = try s.store.addDevice(NewDevice(campaignId: "c1", label: label, kind: "physical", platform: "ios", model: "m", osVersion: "1"))
            }
            #expect(try s.store.addDevice(NewDevice(campaignId: "c1", label: String(repeating: "y", count: 200), kind: "physical", platform: "ios", model: "m", osVersion: "1")).id == "d2")
        }
    }

    @Test("An attachment over the limit is refused and its bytes are not stored", arguments: Backend.allCases)
    func oversizedAttachmentIsRefused(backend: Backend) throws {
        try withTempDir { dir in
            let s = try seeded(in: dir, backend: backend)
            let bytes = [UInt8](repeating: 0xAB, count: 1025)
            try expectRefused(s.store, .fileTooLarge(path: "video.mp4", size: 1025, limit: 1024)) {
                _ = try s.store.addEvidence(NewEvidence(runId: "r1", type: .attachment, provenance: .manual, details: ["filename": "video.mp4"],
                                                        attachment: NewAttachment(bytes: bytes, mediaType: "video/mp4", filename: "video.mp4")),
                                            attachmentLimit: 1024)
            }
            let exact = [UInt8](repeating: 0xAB, count: 1024)
            let item = try s.store.addEvidence(NewEvidence(runId: "r1", type: .attachment, provenance: .manual, details: ["filename": "video.mp4"],
                                                           attachment: NewAttachment(bytes: exact, mediaType: "video/mp4", filename: "video.mp4")),
                                               attachmentLimit: 1024)
            #expect(item.size == 1024)
        }
    }

    @Test("Finishing a run twice is refused and keeps the first outcome", arguments: Backend.allCases)
    func finishingTwiceIsRefused(backend: Backend) throws {
        try withTempDir { dir in
            let s = try seeded(in: dir, backend: backend)
            _ = try s.store.finishRun(id: "r1", outcome: "pass", note: nil)
            try expectRefused(s.store, message: "Run r1 was already finished at 2026-11-30T08:00:00.000Z with outcome 'pass'. Start a new run to record another result.") {
                _ = try s.store.finishRun(id: "r1", outcome: "fail", note: "changed my mind")
            }
            #expect(try s.store.run("r1").outcome == .pass)
            #expect(try s.store.run("r1").note == nil)
        }
    }

    @Test("Retracting twice is refused and keeps the first reason", arguments: Backend.allCases)
    func retractingTwiceIsRefused(backend: Backend) throws {
        try withTempDir { dir in
            let s = try seeded(in: dir, backend: backend)
            let item = try s.store.addEvidence(note("r1", "x"))
            _ = try s.store.retract(evidenceId: item.id, reason: "first")
            try expectRefused(s.store, message: "Evidence e1 is already retracted. Nothing was changed.") {
                _ = try s.store.retract(evidenceId: item.id, reason: "second")
            }
            #expect(try s.store.evidenceItem("e1").retractedReason == "first")
        }
    }
}
